import {
  IngestionEffect,
  IngestionInput,
  IngestionRules,
  IngestionState,
  ingest,
  initialIngestionState,
  LineEncoder,
  ScannerReading,
  StudioFramedV1Encoder,
  studioFramedV1Frame,
} from '@studio/scanner-protocol';
import { SerialPortSink, ShoeWriter } from '@studio/virtual-shoe';
import { shuffledShoe, VirtualShoe } from '@studio/virtual-shoe';
import { PtyReader, until } from './support/pty-reader';

jest.setTimeout(60_000);

/**
 * The serial path end to end over real pseudo-terminals (socat): virtual shoe -> pty pair ->
 * serialport -> decoder -> ingestion state machine.
 */

/** The orchestrator's part, reduced to its essence: always expect the next card. */
class SlotFiller {
  state: IngestionState = initialIngestionState(8);
  readonly effects: IngestionEffect[] = [];
  private slot = 0;

  constructor(private readonly rules: IngestionRules) {
    this.step({ type: 'expect-card', slot: 'card-1', at: 0 });
  }

  onReading = (reading: ScannerReading) => {
    const effects = this.step({ type: 'reading', reading });
    if (effects.some((e) => e.type === 'card-accepted')) {
      this.step({ type: 'expect-card', slot: `card-${this.slot + 1}`, at: reading.receivedAt });
    }
  };

  accepted(): string[] {
    return this.effects.flatMap((e) => (e.type === 'card-accepted' ? [e.card] : []));
  }

  private step(input: IngestionInput): IngestionEffect[] {
    const result = ingest(this.state, input, this.rules);
    if ('rejected' in result) throw new Error(result.rejected.message);
    if (input.type === 'expect-card') this.slot += 1;
    this.state = result.state;
    this.effects.push(...result.effects);
    return result.effects;
  }
}

// The shoe is dealt at machine speed, far faster than a dealer: the same card twice in a row (a
// real event in an 8-deck shoe) would fall inside the 300 ms debounce. Frames carry sequence
// numbers, which is what catches genuine repeats here.
const MACHINE_SPEED_RULES: IngestionRules = {
  maxFailedAttempts: 5,
  escalateAfterMs: 20_000,
  debounceMs: 0,
};

describe('scanner adapter over a socat pty pair', () => {
  let reader: PtyReader | undefined;
  const cleanups: Array<() => Promise<unknown>> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    await reader?.close();
    reader = undefined;
  });

  function track<T extends { stop?(): Promise<unknown>; close?(): Promise<unknown> }>(thing: T): T {
    cleanups.push(() => (thing.stop ? thing.stop() : thing.close!()));
    return thing;
  }

  it('delivers a whole 8-deck shoe with 5% misreads: every card once, in order, a rescan per misread', async () => {
    const filler = new SlotFiller(MACHINE_SPEED_RULES);
    reader = await PtyReader.start('studio-framed-v1', filler.onReading);
    const shoe = new VirtualShoe({
      seed: 2026,
      decks: 8,
      encoder: new StudioFramedV1Encoder(),
      misreadRate: 0.05,
    });
    const emissions: string[] = [];
    const writer = track(
      new ShoeWriter({
        shoe,
        sink: new SerialPortSink({ path: reader.shoePath, baudRate: 115200 }),
        intervalMs: 0,
        heartbeatIntervalMs: 0,
        onEmission: (e) => emissions.push(e.kind),
      }),
    );
    for (let i = 0; i < 416; i += 1) await writer.dealNext();
    await until(() => filler.accepted().length === 416, '416 accepted cards');
    await writer.stop();

    const misreads = emissions.filter((k) => k === 'misread').length;
    const rescans = filler.effects.filter((e) => e.type === 'rescan-required');
    expect(filler.accepted()).toEqual(shuffledShoe(2026, 8));
    expect(reader.cards()).toEqual(shuffledShoe(2026, 8));
    expect(misreads).toBeGreaterThan(0);
    expect(rescans).toHaveLength(misreads);
    expect(reader.readings.filter((r) => r.kind === 'invalid')).toEqual([]);
    expect(
      reader.readings.filter((r) => r.sequenceCheck === 'gap' || r.sequenceCheck === 'repeat'),
    ).toEqual([]);
    // Each rescan names the slot that stays open, with a counter starting at 1 for every slot.
    for (const rescan of rescans) {
      if (rescan.type !== 'rescan-required') continue;
      expect(rescan.slot).toMatch(/^card-\d+$/);
      expect(rescan.attempt).toBeGreaterThanOrEqual(1);
    }
    expect(filler.state.counts.every((n) => n === 8)).toBe(true);
  });

  it('survives the pty pair vanishing mid-frame: disconnected, truncated frame recorded, reconnects, reads on', async () => {
    reader = await PtyReader.start('studio-framed-v1');
    const shoe = new VirtualShoe({ seed: 9, decks: 1, encoder: new StudioFramedV1Encoder() });
    const writerFor = () =>
      new ShoeWriter({
        shoe,
        sink: new SerialPortSink({ path: reader!.shoePath, baudRate: 115200 }),
        intervalMs: 0,
        heartbeatIntervalMs: 0,
      });
    let writer = track(writerFor());
    for (let i = 0; i < 20; i += 1) await writer.dealNext();
    await until(() => reader!.cards().length === 20, 'the first 20 cards');

    await writer.stop(); // the shoe end is opened exclusively: release it for the raw writes below
    // Half a frame, then the cable is pulled.
    const half = studioFramedV1Frame(999, 'C:AS').subarray(0, 8);
    const sink = track(new SerialPortSink({ path: reader.shoePath, baudRate: 115200 }));
    await sink.write(half);
    await new Promise((r) => setTimeout(r, 100));
    await reader.unplug();
    await until(() => reader!.adapter.status === 'disconnected', 'disconnected');
    await sink.close().catch(() => undefined);
    expect(reader.readings.at(-1)).toMatchObject({ kind: 'invalid', reason: 'truncated' });
    expect(Buffer.from(reader.readings.at(-1)!.raw)).toEqual(Buffer.from(half));

    await new Promise((r) => setTimeout(r, 300)); // a few failed reopen attempts while unplugged
    await reader.replug();
    await until(() => reader!.adapter.status === 'connected', 'reconnection');
    writer = track(writerFor());
    for (let i = 20; i < 52; i += 1) await writer.dealNext();
    await until(() => reader!.cards().length === 52, 'the remaining 32 cards');
    await writer.stop();

    expect(reader.cards()).toEqual(shuffledShoe(9, 1));
    expect(reader.statuses.map((s) => s.status)).toEqual([
      'connected',
      'disconnected',
      'connected',
    ]);
    expect(reader.adapter.attempts).toBe(0);
  });

  it('keeps reading after random bytes, a bad checksum, an impossible card and a 1 MB line of garbage', async () => {
    reader = await PtyReader.start('studio-framed-v1');
    const sink = track(new SerialPortSink({ path: reader.shoePath, baudRate: 115200 }));
    const good = studioFramedV1Frame(1, 'C:QH');
    const badChecksum = Buffer.from(studioFramedV1Frame(2, 'C:QS'));
    badChecksum[badChecksum.length - 2] ^= 0x01;
    const garbage = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < garbage.length; i += 1) garbage[i] = (i * 131 + 7) & 0xff || 0x41;
    await sink.write(Buffer.from([0xff, 0x00, 0x13, 0x37]));
    await sink.write(badChecksum);
    await sink.write(studioFramedV1Frame(3, 'C:1X'));
    await sink.write(garbage);
    await sink.write(good);
    await until(() => reader!.cards().length === 1, 'the good frame after the garbage', 20_000);
    await sink.close();
    const reasons = new Set(
      reader.readings.flatMap((r) => (r.kind === 'invalid' ? [r.reason] : [])),
    );
    expect([...reasons]).toEqual(
      expect.arrayContaining(['noise', 'bad-checksum', 'impossible-card-code']),
    );
    expect(reader.cards()).toEqual(['QH']);
    expect(reader.readings.every((r) => r.raw.length <= 4096)).toBe(true);
    const total = reader.readings.reduce((n, r) => n + r.raw.length, 0);
    expect(total).toBe(
      4 + badChecksum.length + studioFramedV1Frame(3, 'C:1X').length + garbage.length + good.length,
    );
    expect(reader.adapter.status).toBe('connected');
  });

  it('reads a keyboard-style line reader: card codes per line, anything else unrecognised', async () => {
    reader = await PtyReader.start('line');
    const shoe = new VirtualShoe({
      seed: 5,
      decks: 1,
      encoder: new LineEncoder(),
      misreadRate: 0.1,
    });
    let misreads = 0;
    const writer = track(
      new ShoeWriter({
        shoe,
        sink: new SerialPortSink({ path: reader.shoePath, baudRate: 115200 }),
        intervalMs: 0,
        heartbeatIntervalMs: 0,
        onEmission: (e) => (misreads += e.kind === 'misread' ? 1 : 0),
      }),
    );
    for (let i = 0; i < 52; i += 1) await writer.dealNext();
    await until(() => reader!.cards().length === 52, '52 cards');
    await writer.stop();
    expect(reader.cards()).toEqual(shuffledShoe(5, 1));
    expect(reader.readings.filter((r) => r.kind === 'unrecognised')).toHaveLength(misreads);
  });
});
