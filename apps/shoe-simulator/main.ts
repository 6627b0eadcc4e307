import { WIRE_FORMAT_NAMES, wireFormat } from '@studio/scanner-protocol';
import { parseArgs } from 'node:util';
import { PtyPair } from '@studio/virtual-shoe';
import { ByteSink, SerialPortSink, ShoeWriter, TcpShoeServer } from '@studio/virtual-shoe';
import { VirtualShoe } from '@studio/virtual-shoe';

const USAGE = `Virtual card shoe: writes scanner frames to a serial device.

  npm run shoe:simulate -- --path /dev/pts/7 [options]      write to an existing device
  npm run shoe:simulate -- --pty .tmp/shoe [options]        make a socat pty pair; point a table's
                                                            "scanner.path" at .tmp/shoe/reader
  npm run shoe:simulate -- --tcp-port 4001 [--tcp-host 0.0.0.0] [options]
                                                            a serial device server in raw TCP
                                                            mode: "scanner.path" tcp://host:4001
Options:
  --format F            ${WIRE_FORMAT_NAMES.join(' | ')} (default studio-framed-v1)
  --seed N              shuffle seed (default 1)           --decks N       decks (default 8)
  --interval-ms N       time between cards (default 1500; 0 = on demand: Enter deals a card)
  --cards N             stop after N cards (default: run until stopped)
  --misread-rate R      share of scans the reader fails (default 0.05)
  --noise-rate R        share of cards preceded by line noise (default 0)
  --duplicate-rate R    share of card frames sent twice (default 0)
  --heartbeat-ms N      heartbeat period, framed format only (default 1000; 0 = none)
  --disconnect-every N  with --pty: tear the pty pair down every N cards ...
  --disconnect-ms N     ... and recreate it N ms later (default 2000)
  --baud N              baud rate (default 9600)`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      path: { type: 'string' },
      pty: { type: 'string' },
      'tcp-port': { type: 'string' },
      'tcp-host': { type: 'string', default: '127.0.0.1' },
      format: { type: 'string', default: 'studio-framed-v1' },
      seed: { type: 'string', default: '1' },
      decks: { type: 'string', default: '8' },
      'interval-ms': { type: 'string', default: '1500' },
      cards: { type: 'string' },
      'misread-rate': { type: 'string', default: '0.05' },
      'noise-rate': { type: 'string', default: '0' },
      'duplicate-rate': { type: 'string', default: '0' },
      'heartbeat-ms': { type: 'string', default: '1000' },
      'disconnect-every': { type: 'string' },
      'disconnect-ms': { type: 'string', default: '2000' },
      baud: { type: 'string', default: '9600' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || (!values.path && !values.pty && !values['tcp-port'])) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 64);
  }
  const format = wireFormat(values.format!);
  if (!format?.createEncoder) fail(`--format must be one of ${WIRE_FORMAT_NAMES.join(', ')}`);
  const number = (name: keyof typeof values, min: number, max: number): number => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < min || n > max)
      fail(`--${name} must be a number from ${min} to ${max}`);
    return n;
  };
  const intervalMs = number('interval-ms', 0, 3_600_000);
  const maxCards = values.cards ? number('cards', 1, 1e9) : Infinity;
  const disconnectEvery = values['disconnect-every']
    ? number('disconnect-every', 1, 1e9)
    : undefined;
  const baudRate = number('baud', 50, 4_000_000);

  let pty: PtyPair | undefined;
  if (values.pty) {
    pty = await PtyPair.start(values.pty);
    console.log(`pty pair ready: the shoe writes ${pty.shoePath}; readers open ${pty.readerPath}`);
  }
  let tcp: TcpShoeServer | undefined;
  if (values['tcp-port']) {
    tcp = await TcpShoeServer.listen({
      host: values['tcp-host'],
      port: number('tcp-port', 0, 65535),
    });
    console.log(`shoe server ready: tables read tcp://${tcp.host}:${tcp.port}`);
  }
  const sink: ByteSink =
    tcp ?? new SerialPortSink({ path: pty?.shoePath ?? values.path!, baudRate });
  const shoe = new VirtualShoe({
    seed: number('seed', 0, 2 ** 32 - 1),
    decks: number('decks', 1, 16),
    encoder: format!.createEncoder!(),
    misreadRate: number('misread-rate', 0, 0.99),
    noiseRate: number('noise-rate', 0, 0.99),
    duplicateRate: number('duplicate-rate', 0, 0.99),
  });
  let dealt = 0;
  const writer = new ShoeWriter({
    shoe,
    sink,
    intervalMs: 0, // paced below, so that --cards and --disconnect-every count exactly
    heartbeatIntervalMs: number('heartbeat-ms', 0, 600_000),
    onEmission: (e) => {
      if (e.kind !== 'heartbeat') console.log(`${e.kind.padEnd(9)} ${e.card ?? ''}`.trimEnd());
    },
    onError: (error) => console.error(`write failed: ${(error as Error).message}`),
  });
  writer.start();

  const stop = async (code = 0) => {
    await writer.stop();
    await pty?.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());

  const dealOne = async () => {
    await writer.dealNext();
    dealt += 1;
    if (dealt >= maxCards) await stop();
    if (pty && disconnectEvery && dealt % disconnectEvery === 0) {
      console.log('disconnect: tearing the pty pair down');
      await pty.stop();
      await new Promise((r) => setTimeout(r, number('disconnect-ms', 0, 600_000)));
      pty = await PtyPair.start(values.pty!);
      console.log('reconnect: pty pair recreated');
    }
  };
  if (intervalMs === 0) {
    console.log('on demand: press Enter to deal a card');
    process.stdin.on('data', () => void dealOne());
  } else {
    for (;;) {
      await dealOne();
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}

function fail(message: string): never {
  console.error(message);
  process.exit(64);
}

void main();
