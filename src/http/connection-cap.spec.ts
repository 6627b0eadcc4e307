import { createServer, Server } from 'node:http';
import { connect, Socket } from 'node:net';
import { clientAddress, ConnectionCap } from './connection-cap';

/** A real HTTP server on loopback with the cap attached; sockets from chosen loopback addresses. */
async function serve(cap: ConnectionCap): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end('ok'));
  cap.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

function open(port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Everything the server sends until it closes the socket. */
function answer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    socket.on('close', () => resolve(text));
  });
}

const until = async (probe: () => boolean) => {
  for (let i = 0; i < 100 && !probe(); i += 1) await new Promise((r) => setTimeout(r, 10));
};

describe('connection cap per client address', () => {
  const sockets: Socket[] = [];
  let server: Server | undefined;
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await new Promise((r) => server?.close(r));
  });

  it('refuses the connection over the cap with a 503 before any request on it is handled, per address', async () => {
    const refused: string[] = [];
    const cap = new ConnectionCap(
      2,
      () => false,
      (address) => refused.push(address),
    );
    const served = await serve(cap);
    server = served.server;
    sockets.push(await open(served.port, '127.0.0.21'), await open(served.port, '127.0.0.21'));
    await until(() => cap.openFrom('127.0.0.21') === 2);
    const third = await open(served.port, '127.0.0.21');
    const text = answer(third);
    third.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await text).toMatch(
      /^HTTP\/1\.1 503 Service Unavailable\r\n[\s\S]*"error":"too-many-connections"/,
    );
    expect(await text).not.toContain('ok');
    expect(refused).toEqual(['127.0.0.21']);
    expect(cap.refused).toBe(1);
    // Another address is not affected, and a closed connection frees its place.
    const other = await open(served.port, '127.0.0.22');
    sockets.push(other);
    await until(() => cap.openFrom('127.0.0.22') === 1);
    sockets.shift()!.destroy();
    await until(() => cap.openFrom('127.0.0.21') === 1);
    const again = await open(served.port, '127.0.0.21');
    const ok = answer(again);
    again.end('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await ok).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/);
  });

  it('does not count connections from exempt addresses (trusted proxies)', async () => {
    const cap = new ConnectionCap(
      1,
      (address) => address === '127.0.0.23',
      () => undefined,
    );
    const served = await serve(cap);
    server = served.server;
    for (let i = 0; i < 3; i += 1) sockets.push(await open(served.port, '127.0.0.23'));
    await new Promise((r) => setTimeout(r, 50));
    expect(cap.openFrom('127.0.0.23')).toBe(0);
    expect(cap.refused).toBe(0);
  });

  it('counts an IPv4 client of a dual-stack socket by its IPv4 address', () => {
    expect(clientAddress({ remoteAddress: '::ffff:10.1.2.3' })).toBe('10.1.2.3');
    expect(clientAddress({ remoteAddress: '::1' })).toBe('::1');
  });
});
