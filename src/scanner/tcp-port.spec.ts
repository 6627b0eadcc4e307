import { createServer, Server } from 'node:net';
import { isTcpPath, parseTcpAddress, TcpPort } from './tcp-port';

describe('tcp:// scanner addresses', () => {
  it.each([
    ['tcp://10.0.4.21:4001', { host: '10.0.4.21', port: 4001 }],
    ['tcp://shoe-7.studio.lan:1', { host: 'shoe-7.studio.lan', port: 1 }],
    ['TCP://[fd00::7]:65535', { host: 'fd00::7', port: 65535 }],
  ])('parses %s', (path, address) => {
    expect(isTcpPath(path)).toBe(true);
    expect(parseTcpAddress(path)).toEqual(address);
  });

  it.each([
    ['tcp://10.0.4.21', 'must be tcp://host:port'],
    ['tcp://:4001', 'must be tcp://host:port'],
    ['tcp://host:port', 'must be tcp://host:port'],
    ['tcp://host:4001/ttyS0', 'must be tcp://host:port'],
    ['tcp://host:0', 'needs a TCP port from 1 to 65535'],
    ['tcp://host:99999', 'needs a TCP port from 1 to 65535'],
    ['/dev/ttyUSB0', 'does not start with tcp://'],
  ])('refuses %s', (path, message) => {
    expect(() => parseTcpAddress(path)).toThrow(message);
  });

  it('treats device paths as serial', () => {
    expect(isTcpPath('/dev/ttyUSB0')).toBe(false);
    expect(isTcpPath('COM3')).toBe(false);
  });
});

describe('TcpPort (a real loopback socket)', () => {
  let server: Server;
  let port: number;

  beforeEach(async () => {
    server = createServer((socket) => socket.end(Buffer.from('hello')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('opens, delivers data and reports the close the server caused', async () => {
    const tcp = new TcpPort({ host: '127.0.0.1', port });
    const data: Buffer[] = [];
    const closed = new Promise<Error | null | undefined>((resolve) => tcp.on('close', resolve));
    tcp.on('data', (chunk: Buffer) => data.push(chunk));
    const opened = await new Promise<Error | null>((resolve) => tcp.open(resolve));
    expect(opened).toBeNull();
    await closed;
    expect(Buffer.concat(data).toString()).toBe('hello');
    expect(tcp.isOpen).toBe(false);
  });

  it('reports a refused connection through the open callback only', async () => {
    await new Promise((resolve) => server.close(resolve));
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const free = port;
    const tcp = new TcpPort({ host: '127.0.0.1', port: free });
    const events: string[] = [];
    tcp.on('close', () => events.push('close'));
    tcp.on('error', () => events.push('error'));
    const error = await new Promise<Error | null>((resolve) => tcp.open(resolve));
    expect(error?.message).toMatch(/ECONNREFUSED/);
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([]);
    expect(tcp.isOpen).toBe(false);
  });
});
