import { connect, Socket } from 'node:net';
import { TcpShoeServer } from './tcp-shoe-server';

/** A client of the shoe server that collects what it receives. */
async function client(port: number): Promise<{ socket: Socket; received: () => string }> {
  const chunks: Buffer[] = [];
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => Buffer.concat(chunks).toString('latin1') };
}

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('TcpShoeServer (the virtual shoe as a raw-TCP device server, real loopback sockets)', () => {
  let server: TcpShoeServer;
  const sockets: Socket[] = [];

  afterEach(async () => {
    sockets.splice(0).forEach((s) => s.destroy());
    await server.close();
  });

  it('sends every write to every connected client, from the moment it connects', async () => {
    server = await TcpShoeServer.listen({ port: 0 });
    const a = await client(server.port);
    sockets.push(a.socket);
    await until(() => server.clientCount === 1);
    await server.write(Buffer.from('one;'));
    const b = await client(server.port);
    sockets.push(b.socket);
    await until(() => server.clientCount === 2);
    await server.write(Buffer.from('two;'));
    await until(() => a.received() === 'one;two;' && b.received() === 'two;');
  });

  it('holds writes while no client is connected and hands the newest ones to the next client', async () => {
    server = await TcpShoeServer.listen({ port: 0, holdWrites: 2 });
    for (const w of ['1;', '2;', '3;']) await server.write(Buffer.from(w));
    const a = await client(server.port);
    sockets.push(a.socket);
    await until(() => server.clientCount === 1);
    await server.write(Buffer.from('4;'));
    await until(() => a.received() === '2;3;4;');

    server.dropClients();
    await until(() => a.socket.destroyed || a.socket.readableEnded);
    await server.write(Buffer.from('5;'));
    const b = await client(server.port);
    sockets.push(b.socket);
    await until(() => b.received() === '5;');
  });

  it('drops writes without a client when holding is off, and refuses writes once closed', async () => {
    server = await TcpShoeServer.listen({ port: 0, holdWrites: 0 });
    await server.write(Buffer.from('lost;'));
    const a = await client(server.port);
    sockets.push(a.socket);
    await until(() => server.clientCount === 1);
    await server.write(Buffer.from('kept;'));
    await until(() => a.received() === 'kept;');
    await server.close();
    await expect(server.write(Buffer.from('x'))).rejects.toThrow('closed');
  });
});
