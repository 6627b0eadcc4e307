import { endWithin } from './end-within';

/** A pg client on a server that never closes its side: `end()` resolves once the socket is gone. */
function clientOnAHangingServer() {
  let closed: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (closed = resolve));
  const stream = { destroyed: false, destroy: () => ((stream.destroyed = true), closed()) };
  return { end: () => ended, connection: { stream } };
}

describe('endWithin', () => {
  it('drops the socket when the server does not close its side in time', async () => {
    const client = clientOnAHangingServer();
    const began = performance.now();
    await endWithin(client, 50);
    expect(client.connection.stream.destroyed).toBe(true);
    expect(performance.now() - began).toBeLessThan(1_000);
  });

  it('leaves a client that ends in time alone, and takes a failed end as ended', async () => {
    const destroy = jest.fn();
    await endWithin({ end: async () => undefined, connection: { stream: { destroy } } } as never);
    await endWithin({ end: () => Promise.reject(new Error('gone')) }, 50);
    expect(destroy).not.toHaveBeenCalled();
  });
});
