import { settleWithin } from '../common/settle-within';

/** What `end` and the socket of a pg Client look like here. */
export interface EndableClient {
  end(): Promise<void>;
}

const LATE = Symbol('late');

/**
 * Ends a pg client, dropping its socket when the server has not closed its side within `ms`: pg's
 * `end()` sends its goodbye and waits for the socket to close, which a server that hangs (accepts,
 * never answers: a stopped process behind a proxy, a black-holed network) never does, so a stop
 * waited for ever on its LISTEN and liveness connections.
 */
export async function endWithin(client: EndableClient, ms = 1_000): Promise<void> {
  const ended = client.end().catch(() => undefined);
  if ((await settleWithin(ended, ms, LATE)) !== LATE) return;
  const socket = (client as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  socket?.destroy();
  await settleWithin(ended, ms, undefined);
}
