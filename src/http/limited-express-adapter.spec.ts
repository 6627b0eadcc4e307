import { createServer, Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { LimitedExpressAdapter } from './limited-express-adapter';

const limits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
} as ConstructorParameters<typeof LimitedExpressAdapter>[0];

function portOf(server: { address(): unknown }): number {
  return (server.address() as AddressInfo).port;
}

describe('LimitedExpressAdapter.bind', () => {
  let adapter: LimitedExpressAdapter;

  beforeEach(() => {
    adapter = new LimitedExpressAdapter(limits);
  });

  afterEach(async () => {
    await adapter.unbind();
    await adapter.close();
  });

  it('refuses a port that is taken, with Node’s error, and holds nothing', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    try {
      await expect(adapter.bind(portOf(blocker), '127.0.0.1')).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('answers 503 starting until listen, then the application answers on the same port', async () => {
    await adapter.bind(0, '127.0.0.1');
    adapter.initHttpServer({});
    const server = adapter.getHttpServer() as Server;
    const url = `http://127.0.0.1:${portOf(server)}/ping`;

    const starting = await fetch(url);
    expect(starting.status).toBe(503);
    expect(starting.headers.get('cache-control')).toBe('no-store');
    expect(await starting.json()).toEqual({
      error: 'starting',
      message: 'The service is starting; retry in a moment',
    });

    adapter.get('/ping', (_request: unknown, response: { send(body: string): void }) =>
      response.send('pong'),
    );
    await new Promise<void>((resolve) => adapter.listen(0, '127.0.0.1', resolve));
    const ready = await fetch(url);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe('pong');
    expect(adapter.getHttpServer()).toBe(server);
  });

  it('answers liveness 200 starting while readiness and the rest answer 503 starting', async () => {
    const { port } = await adapter.bind(0, '127.0.0.1');
    const base = `http://127.0.0.1:${port}`;

    for (const path of ['/health/live', '/health/live?probe=k8s']) {
      const live = await fetch(`${base}${path}`);
      expect(live.status).toBe(200);
      expect(live.headers.get('cache-control')).toBe('no-store');
      const body = (await live.json()) as { status: string; uptimeSeconds: number };
      expect(body).toEqual({ status: 'starting', uptimeSeconds: expect.any(Number) });
    }
    const head = await fetch(`${base}/health/live`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');

    for (const [method, path] of [
      ['GET', '/health/ready'],
      ['GET', '/health/live/x'],
      ['POST', '/health/live'],
    ]) {
      const answer = await fetch(`${base}${path}`, { method });
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 503 });
      expect(((await answer.json()) as { error: string }).error).toBe('starting');
    }
  });

  it('gives the port back when the start-up fails before the application has it', async () => {
    const { port } = await adapter.bind(0, '127.0.0.1');
    await adapter.unbind();
    const next: Server = createServer();
    await new Promise<void>((resolve, reject) =>
      next.once('error', reject).listen(port, '127.0.0.1', () => resolve()),
    );
    await new Promise((r) => next.close(r));
  });
});
