import { cardIndex, parseCardCode } from '@studio/cards';
import {
  DEFAULT_INGESTION_RULES,
  ingest,
  IngestionInput,
  IngestionResult,
  IngestionState,
  initialIngestionState,
} from './ingestion';
import type { CardCode } from '@studio/cards';
import type { ScannerReading } from './reading';

const T0 = 1_764_400_000_000;
const raw = new Uint8Array(0);

const cardAt = (code: CardCode, at: number, sequence?: number): ScannerReading => ({
  kind: 'card',
  code,
  card: parseCardCode(code)!,
  raw,
  receivedAt: at,
  ...(sequence !== undefined ? { sequence } : {}),
});
const misreadAt = (at: number, sequence?: number): ScannerReading => ({
  kind: 'unrecognised',
  code: 'NOREAD',
  reason: 'reader-reported',
  raw,
  receivedAt: at,
  ...(sequence !== undefined ? { sequence } : {}),
});

function ok(result: IngestionResult): Extract<IngestionResult, { state: unknown }> {
  if ('rejected' in result) throw new Error(`rejected: ${result.rejected.message}`);
  return result;
}

function run(state: IngestionState, inputs: IngestionInput[]) {
  const steps: Array<Extract<IngestionResult, { state: unknown }>> = [];
  for (const input of inputs) {
    const step = ok(ingest(state, input));
    steps.push(step);
    state = step.state;
  }
  return { state, steps };
}

describe('ingestion (games.md 0, "Card readings and rescans")', () => {
  it("says why a card must be rescanned without the reader's text: it may name the face-down card", () => {
    // A line reader sends "whatever it made of the card" ("AS?", "10Q"); a framed reader's U
    // frame may carry any token. The rescan's reason goes out in a public event (every platform,
    // the dealer's screen) while the slot may be a face-down one: only the documented unreadable
    // codes are named, anything else by the kind of failure.
    const unreadable = (code: string, reason: 'reader-reported' | 'unknown-card-code') =>
      ({ kind: 'unrecognised', code, reason, raw, receivedAt: T0 + 10 }) as ScannerReading;
    const reasons = [
      unreadable('AS?', 'unknown-card-code'),
      unreadable('10Q', 'unknown-card-code'),
      unreadable('QH-LOW', 'reader-reported'),
      unreadable('PARTIAL', 'reader-reported'),
    ].map((reading) => {
      const { steps } = run(initialIngestionState(8), [
        { type: 'expect-card', slot: 'r1/player-1/1', at: T0 },
        { type: 'reading', reading },
      ]);
      return steps[1].effects.map((e) => (e.type === 'rescan-required' ? e.reason : e.type));
    });
    expect(reasons).toEqual([
      ['unrecognised: unknown-card-code'],
      ['unrecognised: unknown-card-code'],
      ['unrecognised: reader-reported'],
      ['unrecognised: PARTIAL'],
    ]);
  });

  it('uses the games.md defaults: 5 attempts, 20 s, debounce 300 ms', () => {
    expect(DEFAULT_INGESTION_RULES).toEqual({
      maxFailedAttempts: 5,
      escalateAfterMs: 20_000,
      debounceMs: 300,
    });
  });

  it('fills the expected slot with a card and closes it', () => {
    const { state, steps } = run(initialIngestionState(8), [
      { type: 'expect-card', slot: 'r1/player/1', at: T0 },
      { type: 'reading', reading: cardAt('AS', T0 + 10, 1) },
    ]);
    expect(steps[1].disposition).toBe('applied');
    expect(steps[1].effects).toEqual([
      { type: 'card-accepted', slot: 'r1/player/1', card: 'AS', sequence: 1 },
    ]);
    expect(state.slot).toBeNull();
    expect(state.counts[cardIndex(parseCardCode('AS')!)]).toBe(1);
  });

  it('keeps the slot open on a misread and counts attempts; the rescanned card then fills it', () => {
    const { state, steps } = run(initialIngestionState(8), [
      { type: 'expect-card', slot: 's', at: T0 },
      { type: 'reading', reading: misreadAt(T0 + 1000, 1) },
      {
        type: 'reading',
        reading: {
          kind: 'invalid',
          reason: 'bad-checksum',
          detail: '',
          raw,
          receivedAt: T0 + 2000,
        },
      },
      { type: 'reading', reading: cardAt('9H', T0 + 3000, 3) },
    ]);
    expect(steps.slice(1).map((s) => s.disposition)).toEqual([
      'rescan-required',
      'rescan-required',
      'applied',
    ]);
    expect(steps[1].effects).toEqual([
      { type: 'rescan-required', slot: 's', attempt: 1, reason: 'unrecognised: NOREAD' },
    ]);
    expect(steps[2].effects).toEqual([
      { type: 'rescan-required', slot: 's', attempt: 2, reason: 'invalid: bad-checksum' },
    ]);
    expect(steps[3].effects[0]).toMatchObject({ type: 'card-accepted', card: '9H' });
    expect(state.slot).toBeNull();
  });

  it('escalates to a supervisor on the 5th failed attempt, once', () => {
    const inputs: IngestionInput[] = [{ type: 'expect-card', slot: 's', at: T0 }];
    for (let i = 1; i <= 6; i += 1)
      inputs.push({ type: 'reading', reading: misreadAt(T0 + i * 1000, i) });
    const { steps } = run(initialIngestionState(8), inputs);
    const escalations = steps.flatMap((s) =>
      s.effects.filter((e) => e.type === 'escalate-to-supervisor'),
    );
    expect(escalations).toEqual([
      {
        type: 'escalate-to-supervisor',
        slot: 's',
        failedAttempts: 5,
        elapsedMs: 4000,
        trigger: 'attempts',
      },
    ]);
    expect(steps[6].effects).toEqual([
      { type: 'rescan-required', slot: 's', attempt: 6, reason: 'unrecognised: NOREAD' },
    ]);
  });

  it('escalates 20 s after the first failed attempt, on a tick', () => {
    const { steps } = run(initialIngestionState(8), [
      { type: 'expect-card', slot: 's', at: T0 },
      { type: 'reading', reading: misreadAt(T0 + 5_000, 1) },
      { type: 'tick', at: T0 + 24_999 },
      { type: 'tick', at: T0 + 25_000 },
      { type: 'tick', at: T0 + 26_000 },
    ]);
    expect(steps[2].effects).toEqual([]);
    expect(steps[3].effects).toEqual([
      {
        type: 'escalate-to-supervisor',
        slot: 's',
        failedAttempts: 1,
        elapsedMs: 20_000,
        trigger: 'time',
      },
    ]);
    expect(steps[4].effects).toEqual([]);
  });

  it('after the supervisor resolves, attempts count from zero again', () => {
    const inputs: IngestionInput[] = [{ type: 'expect-card', slot: 's', at: T0 }];
    for (let i = 1; i <= 5; i += 1) inputs.push({ type: 'reading', reading: misreadAt(T0 + i, i) });
    inputs.push(
      { type: 'supervisor-resolved' },
      { type: 'reading', reading: misreadAt(T0 + 10, 6) },
    );
    const { steps } = run(initialIngestionState(8), inputs);
    expect(steps.at(-1)!.effects).toEqual([
      { type: 'rescan-required', slot: 's', attempt: 1, reason: 'unrecognised: NOREAD' },
    ]);
  });

  it('does not apply the same frame twice (same device sequence number), whatever the time', () => {
    const { state, steps } = run(initialIngestionState(8), [
      { type: 'expect-card', slot: 'a', at: T0 },
      { type: 'reading', reading: cardAt('KD', T0, 17) },
      { type: 'expect-card', slot: 'b', at: T0 + 1 },
      { type: 'reading', reading: cardAt('KD', T0 + 5_000, 17) },
    ]);
    expect(steps[3].disposition).toBe('duplicate');
    expect(steps[3].effects).toEqual([
      { type: 'duplicate-ignored', basis: 'sequence', sequence: 17, card: 'KD' },
    ]);
    expect(state.slot?.id).toBe('b');
    expect(state.counts[cardIndex(parseCardCode('KD')!)]).toBe(1);
  });

  it('debounces the same card within 300 ms but accepts it at 301 ms', () => {
    const { steps } = run(initialIngestionState(8), [
      { type: 'expect-card', slot: 'a', at: T0 },
      { type: 'reading', reading: cardAt('5C', T0) },
      { type: 'expect-card', slot: 'b', at: T0 },
      { type: 'reading', reading: cardAt('5C', T0 + 300) },
      { type: 'reading', reading: cardAt('5C', T0 + 601) },
    ]);
    expect(steps[3]).toMatchObject({
      disposition: 'duplicate',
      effects: [{ type: 'duplicate-ignored', basis: 'debounce', card: '5C' }],
    });
    // The ignored repeat does not extend the window: 601 ms after the applied reading.
    expect(steps[4].disposition).toBe('applied');
  });

  it('rejects a ninth ace of spades in an 8-deck shoe as an integrity error and keeps the slot', () => {
    const inputs: IngestionInput[] = [];
    for (let i = 0; i < 9; i += 1) {
      inputs.push({ type: 'expect-card', slot: `s${i}`, at: T0 + i * 1000 });
      inputs.push({ type: 'reading', reading: cardAt('AS', T0 + i * 1000 + 500, i) });
    }
    const { state, steps } = run(initialIngestionState(8), inputs);
    const last = steps.at(-1)!;
    expect(last.disposition).toBe('integrity-error');
    expect(last.effects).toEqual([{ type: 'integrity-error', card: 'AS', seen: 8, allowed: 8 }]);
    expect(state.slot?.id).toBe('s8');
    expect(state.counts[cardIndex(parseCardCode('AS')!)]).toBe(8);
  });

  it('records a card that arrives when no card is expected, without applying it', () => {
    const step = ok(
      ingest(initialIngestionState(8), { type: 'reading', reading: cardAt('2H', T0) }),
    );
    expect(step.disposition).toBe('not-expected');
    expect(step.effects).toEqual([{ type: 'card-not-expected', card: '2H' }]);
    expect(step.state.counts.every((c) => c === 0)).toBe(true);
  });

  it('records heartbeats and flags a sequence gap', () => {
    const step = ok(
      ingest(initialIngestionState(8), {
        type: 'reading',
        reading: {
          kind: 'heartbeat',
          raw,
          receivedAt: T0,
          sequence: 9,
          sequenceCheck: 'gap',
          missedFrames: 3,
        },
      }),
    );
    expect(step.disposition).toBe('recorded');
    expect(step.effects).toEqual([{ type: 'sequence-gap', missedFrames: 3, sequence: 9 }]);
  });

  it('rejects illegal inputs with a typed rejection instead of throwing', () => {
    const open = ok(
      ingest(initialIngestionState(8), { type: 'expect-card', slot: 'a', at: T0 }),
    ).state;
    expect(ingest(open, { type: 'expect-card', slot: 'b', at: T0 })).toEqual({
      rejected: { code: 'slot-already-open', message: 'slot a still expects a card' },
    });
    expect(ingest(initialIngestionState(8), { type: 'withdraw-expectation' })).toMatchObject({
      rejected: { code: 'no-slot-open' },
    });
    expect(ingest(open, { type: 'new-shoe', deckCount: 0 })).toMatchObject({
      rejected: { code: 'bad-deck-count' },
    });
    expect(ingest(open, { type: 'supervisor-resolved' })).toMatchObject({
      rejected: { code: 'not-escalated' },
    });
  });

  it("records the line's noise without asking for a rescan, however much of it comes", () => {
    const noise = (at: number, reason: 'noise' | 'blank-line'): ScannerReading => ({
      kind: 'invalid',
      reason,
      detail: 'bytes outside a frame',
      raw: new Uint8Array([13, 10]),
      receivedAt: at,
    });
    const { state, steps } = run(initialIngestionState(8), [
      { type: 'expect-card', slot: 'a', at: T0 },
      ...[1, 2, 3, 4, 5, 6].map((i) => ({
        type: 'reading' as const,
        reading: noise(T0 + i * 400, i % 2 ? 'noise' : 'blank-line'),
      })),
      { type: 'reading', reading: cardAt('6D', T0 + 30_000) },
    ]);
    expect(steps.slice(1, 7).map((s) => s.disposition)).toEqual(Array(6).fill('recorded'));
    expect(steps.flatMap((s) => s.effects).map((e) => e.type)).not.toContain('rescan-required');
    expect(steps[7].disposition).toBe('applied');
    expect(state.slot).toBeNull();
  });

  it('keeps its state plain JSON', () => {
    const { state } = run(initialIngestionState(8), [
      { type: 'expect-card', slot: 'a', at: T0 },
      { type: 'reading', reading: misreadAt(T0 + 1, 1) },
    ]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  describe('device sequence numbers that cannot be trusted', () => {
    const framed = (
      reading: ScannerReading,
      sequenceCheck: NonNullable<ScannerReading['sequenceCheck']>,
    ): ScannerReading => ({ ...reading, sequenceCheck });

    it('holds a repeated number carrying another card: not applied, slot open, alert', () => {
      const { state, steps } = run(initialIngestionState(8), [
        { type: 'expect-card', slot: 'a', at: T0 },
        { type: 'reading', reading: framed(cardAt('KD', T0, 17), 'next') },
        { type: 'expect-card', slot: 'b', at: T0 + 1 },
        { type: 'reading', reading: framed(cardAt('2H', T0 + 2_000, 17), 'repeat') },
      ]);
      expect(steps[3].disposition).toBe('held');
      expect(steps[3].effects).toEqual([
        {
          type: 'sequence-conflict',
          reason: 'repeated-with-other-content',
          sequence: 17,
          previousSequence: 17,
          card: '2H',
        },
      ]);
      expect(state.slot?.id).toBe('b');
      expect(state.counts[cardIndex(parseCardCode('2H')!)]).toBe(0);
    });

    it('still drops a true repeat (same number, same card) silently', () => {
      const { state, steps } = run(initialIngestionState(8), [
        { type: 'expect-card', slot: 'a', at: T0 },
        { type: 'reading', reading: framed(cardAt('KD', T0, 17), 'next') },
        { type: 'expect-card', slot: 'b', at: T0 + 1 },
        { type: 'reading', reading: framed(cardAt('KD', T0 + 2_000, 17), 'repeat') },
      ]);
      expect(steps[3].disposition).toBe('duplicate');
      expect(steps[3].effects).toEqual([
        { type: 'duplicate-ignored', basis: 'sequence', sequence: 17, card: 'KD' },
      ]);
      expect(state.slot?.id).toBe('b');
    });

    it("drops the last frame sent again as a new connection's first (reconnect, restart)", () => {
      const { state, steps } = run(initialIngestionState(8), [
        { type: 'expect-card', slot: 'a', at: T0 },
        { type: 'reading', reading: framed(cardAt('9D', T0, 30_316), 'next') },
        { type: 'expect-card', slot: 'b', at: T0 + 1 },
        // The line dropped; the reader sends its last frame again on the new connection.
        { type: 'reading', reading: framed(cardAt('9D', T0 + 5_000, 30_316), 'first') },
        // A new connection's first frame that is a new card is applied.
        { type: 'reading', reading: framed(cardAt('4C', T0 + 6_000, 30_317), 'first') },
      ]);
      expect(steps[3].disposition).toBe('duplicate');
      expect(steps[4].disposition).toBe('applied');
      expect(state.counts[cardIndex(parseCardCode('9D')!)]).toBe(1);
      expect(state.counts[cardIndex(parseCardCode('4C')!)]).toBe(1);
    });

    it('holds a card whose number went backwards, then applies the next good one', () => {
      const { state, steps } = run(initialIngestionState(8), [
        { type: 'expect-card', slot: 'a', at: T0 },
        { type: 'reading', reading: framed(cardAt('KD', T0, 500), 'next') },
        { type: 'expect-card', slot: 'b', at: T0 + 1 },
        { type: 'reading', reading: framed(cardAt('9C', T0 + 1_000, 3), 'backwards') },
        { type: 'reading', reading: framed(cardAt('9C', T0 + 2_000, 4), 'next') },
      ]);
      expect(steps[3].disposition).toBe('held');
      expect(steps[3].effects).toEqual([
        {
          type: 'sequence-conflict',
          reason: 'backwards',
          sequence: 3,
          previousSequence: 500,
          card: '9C',
        },
      ]);
      // The held frame started no debounce window: the rescan 1 s later fills the slot.
      expect(steps[4].disposition).toBe('applied');
      expect(state.slot).toBeNull();
      expect(state.counts[cardIndex(parseCardCode('9C')!)]).toBe(1);
    });

    it('does not take a repeated number for a conflict after a restart of a stored state', () => {
      // Stored before lastContent existed: nothing to compare, so a repeat stays a duplicate.
      const stored = { ...initialIngestionState(8), lastSequence: 9 } as IngestionState;
      delete stored.lastContent;
      const step = ok(
        ingest(stored, { type: 'reading', reading: framed(misreadAt(T0, 9), 'repeat') }),
      );
      expect(step.disposition).toBe('duplicate');
    });
  });
});
