import { spawn } from 'node:child_process';
import { connect, Socket } from 'node:net';
import { signInFrom, requestFrom } from '../support/http-from';
import { spawnService, ServiceProcess } from '../support/service-process';
import { writeTablesFile } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(180_000);

const HEADERS_TIMEOUT_MS = 2_000;
/** How often the server checks the timeouts: a tenth of the header timeout (LimitedExpressAdapter). */
const CHECK_MS = 200;
const REQUEST_TIMEOUT_MS = 4_000;
const KEEP_ALIVE_MS = 1_000;
const CAP = 100;
/** The attackers: three loopback addresses, 100 half-sent requests each (the cap is per address). */
const ATTACKERS = ['127.0.0.11', '127.0.0.12', '127.0.0.13'];
/** The trusted proxy of TRUST_PROXY, and where the health probe comes from. */
const PROXY = '127.0.0.1';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Held {
  socket: Socket;
  openedAt: number;
  closedAt?: number;
  received: string;
}

/**
 * The attack, from a process of its own so that its 300 sockets do not share the health probe's
 * event loop: `perAddress` half-sent requests from each address, a header line trickled into each
 * every 300 ms (slowloris), then one more from the first address. Reports each connection's
 * lifetime and first answer line, and what the extra one got.
 */
const SLOWLORIS = `
const net = require('node:net');
const [port, perAddress, ...addresses] = process.argv.slice(1);
const held = [];
const open = (localAddress) => new Promise((resolve, reject) => {
  const socket = net.connect({ port: Number(port), host: '127.0.0.1', localAddress });
  const h = { socket, received: '' };
  socket.on('connect', () => {
    h.openedAt = Date.now();
    socket.write('GET /health/live HTTP/1.1\\r\\nHost: studio\\r\\nX-Slow-1: a\\r\\n');
    resolve(h);
  });
  socket.on('data', (d) => (h.received += d.toString()));
  socket.on('close', () => (h.closedAt = Date.now()));
  socket.on('error', (e) => (h.openedAt ? (h.error = e.code) : reject(e)));
});
(async () => {
  for (const a of addresses) {
    held.push(...(await Promise.all(Array.from({ length: Number(perAddress) }, () => open(a)))));
  }
  const trickle = setInterval(() => {
    for (const h of held) if (h.closedAt === undefined) h.socket.write('X-Slow-2: b\\r\\n');
  }, 300);
  const extra = await open(addresses[0]);
  await new Promise((r) => (extra.closedAt ? r() : extra.socket.once('close', r)));
  const deadline = Date.now() + 15000;
  while (held.some((h) => h.closedAt === undefined) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  clearInterval(trickle);
  process.stdout.write(JSON.stringify({
    extra: extra.received,
    held: held.map((h) => ({
      lifetime: (h.closedAt ?? Infinity) - h.openedAt,
      first: h.received.split('\\r\\n')[0],
      error: h.error,
    })),
  }));
})().catch((e) => { process.stderr.write(String(e)); process.exit(1); });
`;

function slowloris(
  port: number,
  addresses: string[],
  perAddress: number,
): Promise<{
  extra: string;
  held: Array<{ lifetime: number; first: string; error?: string }>;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      '-e',
      SLOWLORIS,
      String(port),
      String(perAddress),
      ...addresses,
    ]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d.toString()));
    child.stderr.on('data', (d) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
  });
}

/**
 * The HTTP server's limits on the built service, run as an operator runs it (its own process, so
 * the test's 300 clients do not share its event loop): header, request and keep-alive timeouts,
 * the per-address connection cap, the body limit per route, and TRUST_PROXY.
 */
describe('HTTP server limits of the real service', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  let url = '';
  let port = 0;

  beforeAll(async () => {
    db = await createTestDatabase('http_limits');
    service = spawnService({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      TABLES_FILE: writeTablesFile([
        { id: 'limits-pd', name: 'Limits PD', game: 'pok-deng', currency: 'THB' },
      ]),
      // info: the start-up line names the URL.
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      DEMO_USERS: 'true',
      PLATFORM_API_KEYS: 'limits-key',
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      TRUST_PROXY: PROXY,
      SIGNIN_FREE_FAILURES: '1',
      SIGNIN_LOCKOUT_FAILURES: '2',
      SIGNIN_LOCKOUT_SECONDS: '600',
    });
    url = await service.listening();
    port = Number(new URL(url).port);
  });

  afterAll(async () => {
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited().catch(() => service.killGroup('SIGKILL'));
    }
    await db?.drop();
  });

  /** A socket from `localAddress` that sends half a request and then a header line now and then. */
  function halfSent(localAddress: string): Promise<Held> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress });
      const held: Held = { socket, openedAt: 0, received: '' };
      socket.on('connect', () => {
        held.openedAt = Date.now();
        socket.write('GET /health/live HTTP/1.1\r\nHost: studio\r\nX-Slow-1: a\r\n');
        resolve(held);
      });
      socket.on('data', (d) => (held.received += d.toString()));
      socket.on('close', () => (held.closedAt = Date.now()));
      socket.on('error', (error) => (held.openedAt ? undefined : reject(error)));
    });
  }

  /** Times GET /health/live from the proxy's address every 20 ms until stopped. */
  function probeHealth() {
    const samples: number[] = [];
    const failures: string[] = [];
    let running = true;
    const done = (async () => {
      while (running) {
        const started = performance.now();
        try {
          const answer = await requestFrom(PROXY, url, '/health/live');
          if (answer.status !== 200) failures.push(`status ${answer.status}`);
        } catch (error) {
          failures.push(String(error));
        }
        samples.push(performance.now() - started);
        await sleep(20);
      }
    })();
    return {
      samples,
      failures,
      stop: async () => {
        running = false;
        await done;
      },
    };
  }

  const percentile = (samples: number[], p: number) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
  };
  const figures = (samples: number[]) =>
    `${samples.length} probes p50 ${percentile(samples, 50).toFixed(1)} ms p95 ${percentile(samples, 95).toFixed(1)} ms max ${percentile(samples, 100).toFixed(1)} ms`;

  it('closes 300 slowloris connections within the header timeout, refuses the 101st from one address, and keeps /health/live under 50 ms', async () => {
    // The same probe without an attack first: what this machine answers anyway.
    const quiet = probeHealth();
    await sleep(1_500);
    await quiet.stop();

    const health = probeHealth();
    const attack = await slowloris(port, ATTACKERS, CAP);
    await health.stop();

    const lifetimes = attack.held.map((h) => h.lifetime);
    const slowest = Math.max(...lifetimes);
    const fastest = Math.min(...lifetimes);
    process.stdout.write(
      `slowloris: ${attack.held.length} half-sent requests held ${fastest}-${slowest} ms (header timeout ${HEADERS_TIMEOUT_MS} ms, checked every ${CHECK_MS} ms)\n` +
        `/health/live from ${PROXY}: quiet ${figures(quiet.samples)}; under attack ${figures(health.samples)}\n`,
    );
    expect(attack.held).toHaveLength(ATTACKERS.length * CAP);
    // The 101st from one address is refused at once; the cap is per address, so the other
    // addresses' connections were all accepted and none was closed before the timeout.
    expect(attack.extra).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(attack.extra).toContain('"error":"too-many-connections"');
    // Closed by the header timeout (with a 408), not before it: one check after it at most, plus
    // what a loaded machine adds to any timer.
    expect(fastest).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(slowest).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS + CHECK_MS + 1_000);
    // Each got its 408, except where a line trickled in as the server closed: the peer's reset
    // then discards the unread 408 (Linux drops a socket's unread data on RST). Seen once in a
    // loaded CI run, one connection of 300; anything else (another status, a quiet close) fails.
    const unanswered = attack.held.filter((h) => h.first !== 'HTTP/1.1 408 Request Timeout');
    expect(unanswered.filter((h) => h.first !== '' || h.error !== 'ECONNRESET')).toEqual([]);
    expect(unanswered.length).toBeLessThanOrEqual(3);
    // Every probe answered 200, half of them within 50 ms. The tail only within what the machine
    // does anyway: of ~60 probes, the p95 is the fourth slowest, and one stall of a loaded machine
    // (a CI run's 650 ms, which also held every slowloris connection 500 ms past its timeout)
    // puts it past 50 ms; on a slower host, stalls of 130-230 ms came in the quiet probe as well
    // (its slowest 164 ms, the attack's p95 132 ms). So the tail is held to the quiet probe's
    // slowest answer, three times its p95, or 150 ms, whichever is more. Starved by the attack,
    // the server would answer most probes late (the median) or not at all (the failures).
    expect(health.failures).toEqual([]);
    expect(health.samples.length).toBeGreaterThan(40);
    expect(percentile(health.samples, 50)).toBeLessThan(50);
    expect(percentile(health.samples, 95)).toBeLessThan(
      Math.max(150, 3 * percentile(quiet.samples, 95), percentile(quiet.samples, 100)),
    );
    // Their places are free again.
    expect((await requestFrom(ATTACKERS[0], url, '/health/live')).status).toBe(200);
    const refusals = service
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"too-many-connections"'));
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refusals[0])).toMatchObject({ address: ATTACKERS[0], open: CAP });
  });

  it('closes a request whose body trickles in after the request timeout, and an idle kept-alive connection after the keep-alive timeout', async () => {
    const slowBody = await halfSent('127.0.0.14');
    const closedBy = new Promise((r) => slowBody.socket.once('close', r));
    slowBody.socket.write('Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    const trickle = setInterval(() => slowBody.socket.write(' '), 200);
    await closedBy;
    clearInterval(trickle);
    const lifetime = slowBody.closedAt! - slowBody.openedAt;
    expect(lifetime).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(lifetime).toBeLessThanOrEqual(REQUEST_TIMEOUT_MS + CHECK_MS + 500);
    expect(slowBody.received).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);

    const idle = await halfSent('127.0.0.15');
    const idleClosed = new Promise((r) => idle.socket.once('close', r));
    idle.socket.write('\r\n'); // the request is complete: answered, then the connection is kept
    while (!idle.received.includes('\r\n\r\n')) await sleep(10);
    const answeredAt = Date.now();
    expect(idle.received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Keep-Alive: timeout=1/i);
    await idleClosed;
    const idleFor = idle.closedAt! - answeredAt;
    expect(idleFor).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 100);
    // Node checks idle sockets on a timer: a loaded machine closes a little late, never early.
    expect(idleFor).toBeLessThanOrEqual(KEEP_ALIVE_MS + 2_000);
  });

  it('limits the body per route: sign-in and commands small, the rest larger', async () => {
    const body = (bytes: number) => ({ username: 'x', password: 'p'.repeat(bytes) });
    const signInTooLarge = await requestFrom('127.0.0.16', url, '/auth/login', {
      body: body(5_000),
    });
    expect(signInTooLarge).toMatchObject({ status: 413, body: { error: 'payload-too-large' } });
    const command = (bytes: number) =>
      requestFrom('127.0.0.16', url, '/platform/tables/limits-pd/bets', {
        body: { playerId: 'p1', betType: 'player', amount: 100, note: 'n'.repeat(bytes) },
        headers: { 'x-platform-key': 'limits-key' },
      });
    expect(await command(20_000)).toMatchObject({
      status: 413,
      body: { error: 'payload-too-large' },
    });
    // Under the command limit (16 KiB) but over the sign-in one (4 KiB): read, then judged.
    expect((await command(8_000)).status).not.toBe(413);
    // Anything else up to 100 KiB is read (and here refused for want of a token).
    const other = await requestFrom('127.0.0.16', url, '/auth/logout', { body: body(50_000) });
    expect(other.status).toBe(401);
  });

  it('refuses a command whose body is not JSON with 415, and still reads a JSON one and a body-less action', async () => {
    const bet = (contentType: string | undefined, body: string) =>
      fetch(`${url}/platform/tables/limits-pd/bets`, {
        method: 'POST',
        headers: {
          'x-platform-key': 'limits-key',
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        body,
      });
    const json = '{"playerId":"p-415","betType":"player","amount":100}';
    // A form is what `curl --data` sends; fetch calls a bare string text/plain.
    for (const [type, sent] of [
      ['application/x-www-form-urlencoded', 'playerId=p-415&betType=player&amount=100'],
      [undefined, json],
    ] as const) {
      const answer = await bet(type, sent);
      expect(answer.status).toBe(415);
      const refusal = (await answer.json()) as { error: string; message: string };
      expect(refusal.error).toBe('unsupported-media-type');
      expect(refusal.message).toContain('Content-Type: application/json');
    }
    // The same command as JSON is read and judged by the table (not a media-type refusal).
    const read = await bet('application/json; charset=utf-8', json);
    expect([200, 409]).toContain(read.status);
    // A table action with no body at all is not a media-type question: it reaches the route.
    const bodyless = await fetch(`${url}/tables/limits-pd/pause`, { method: 'POST' });
    expect(bodyless.status).toBe(401);
  });

  it('answers a route called with a method it does not take 405 with Allow, an unknown path 404', async () => {
    const wrong = await fetch(`${url}/platform/tables/limits-pd/bets`, {
      headers: { 'x-platform-key': 'limits-key' },
    });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(await wrong.json()).toEqual({
      error: 'method-not-allowed',
      message: 'GET is not answered on /platform/tables/limits-pd/bets: use POST',
    });
    const unknown = await fetch(`${url}/platform/tables/limits-pd/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe('not-found');
  });

  it('sees the client behind a trusted proxy (X-Forwarded-For), and ignores the header from anyone else', async () => {
    const via = (client: string) => ({ 'x-forwarded-for': client });
    // Two wrong passwords lock the (dealer, 203.0.113.9) pair: the client behind the proxy.
    for (const guess of ['guess-1', 'guess-2']) {
      const answer = await signInFrom(PROXY, url, 'dealer', guess, via('203.0.113.9'));
      expect(answer.status).toBe(401);
    }
    const locked = await signInFrom(PROXY, url, 'dealer', 'dealer-demo', via('203.0.113.9'));
    expect(locked).toMatchObject({ status: 429, body: { error: 'account-locked' } });
    // Another client behind the same proxy is another address: not locked out.
    expect(
      (await signInFrom(PROXY, url, 'dealer', 'dealer-demo', via('203.0.113.10'))).status,
    ).toBe(200);
    // A peer that is no trusted proxy cannot pick its address: it is its own socket address.
    const spoofed = await signInFrom(
      '127.0.0.17',
      url,
      'dealer',
      'dealer-demo',
      via('203.0.113.9'),
    );
    expect(spoofed.status).toBe(200);
    const logged = service
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"sign-in-refused"'))
      .map((l) => JSON.parse(l) as { address: string; reason: string });
    expect(logged.map((l) => [l.reason, l.address])).toEqual([
      ['wrong-password', '203.0.113.9'],
      ['wrong-password', '203.0.113.9'],
      ['locked-out-now', '203.0.113.9'],
      ['locked-out', '203.0.113.9'],
    ]);
  });
});
