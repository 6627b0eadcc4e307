/**
 * The floor of the HTTP commands bench (http-commands.bench.ts): what answering a platform's bet or
 * decision over HTTP costs at least. A plain `node:http` server in a process of its own (as the
 * service runs in its own), with a `pg` pool as large as the service's, storing each command by
 * one `INSERT … ON CONFLICT` (the command id is the idempotency key, as in the project) into a
 * table shaped like `bets` (`decisions`) with its indexes, and answering once it is committed.
 * Started by the bench with `fork`; tells its port over IPC, stops on SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';

const pool = new Pool({
  connectionString: process.env.FLOOR_DATABASE_URL,
  max: Number(process.env.FLOOR_POOL_SIZE ?? 10),
});

const BET = `INSERT INTO floor_bets (id, round_id, table_id, player_id, command_id, bet_type, spot,
    amount, deducted, currency, status, placed_at, answer)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, 'EUR', 'accepted', now(), $9)
  ON CONFLICT (command_id) WHERE answer IS NOT NULL DO NOTHING`;
const DECISION = `INSERT INTO floor_decisions (round_id, player_id, hand, action, automatic,
    command_id, decided_at, answer, decision_window)
  VALUES ($1, $2, NULL, $3, false, $4, now(), $5, 1)
  ON CONFLICT (command_id) WHERE answer IS NOT NULL DO NOTHING`;

function body(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      } catch (error) {
        reject(error as Error);
      }
    });
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, answer: unknown): void {
  const text = JSON.stringify(answer);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const match = /^\/platform\/tables\/([^/]+)\/(bets|decisions)$/.exec(request.url ?? '');
  if (request.method !== 'POST' || !match) return send(response, 404, { error: 'not-found' });
  const [, tableId, kind] = match;
  const c = await body(request);
  if (typeof c.playerId !== 'string' || typeof c.commandId !== 'string') {
    return send(response, 400, { error: 'invalid-command' });
  }
  const roundId = String(c.roundId);
  if (kind === 'bets') {
    const betId = randomUUID();
    const answer = { accepted: true, reply: { betId, roundId } };
    await pool.query(BET, [
      betId,
      roundId,
      tableId,
      c.playerId,
      c.commandId,
      c.betType,
      c.spot ?? null,
      c.amount,
      JSON.stringify(answer),
    ]);
    return send(response, 200, answer);
  }
  const answer = { accepted: true, reply: { roundId } };
  await pool.query(DECISION, [roundId, c.playerId, c.action, c.commandId, JSON.stringify(answer)]);
  send(response, 200, answer);
}

const server = createServer((request, response) => {
  handle(request, response).catch((error: unknown) =>
    send(response, 500, { error: String(error) }),
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.once('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
