import fc from 'fast-check';
import { createGameAdapter } from '../../games/game-registry';
import {
  CommandInput,
  initialTableState,
  roundOf,
  TableMachine,
  TableState,
} from '../../table-core/table-machine';
import { tableRunSettings } from '../../tables/table-settings';
import { applyStatePatch, diffState, StatePatch } from './state-delta';

/** As stored and read back: the patch travels as JSON, the base was read from JSON. */
function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function expectRecovers(before: unknown, after: unknown): StatePatch | undefined {
  const patch = diffState(before, after);
  const rebuilt =
    patch === undefined ? before : applyStatePatch(roundTrip(before), roundTrip(patch));
  expect(roundTrip(rebuilt)).toEqual(roundTrip(after));
  return patch;
}

describe('state deltas', () => {
  it('rebuild any JSON value from the one before and the patch', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(json, json, (a, b) => {
        expectRecovers(a, b);
      }),
      { numRuns: 500 },
    );
  });

  it('rebuild edits of a value: entries changed, appended, cut, keys added and deleted', () => {
    const base = fc.array(fc.record({ n: fc.integer(), tag: fc.option(fc.string()) }), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(base, fc.array(fc.nat(40)), fc.nat(40), (rows, edits, cut) => {
        const next = rows.map((r) => ({ ...r }));
        for (const i of edits) {
          if (i < next.length) next[i] = { ...next[i], n: next[i].n + 1 };
          else next.push({ n: i, tag: null });
        }
        const after = { rows: next.slice(0, cut), extra: edits.length > 3 ? 1 : undefined };
        expectRecovers({ rows, gone: true }, after);
      }),
      { numRuns: 300 },
    );
  });

  it('equal values need no patch; a changed primitive column stores only its changes', () => {
    expect(diffState({ a: [1, 2, 3] }, { a: [1, 2, 3] })).toBeUndefined();
    const column = Array.from({ length: 1000 }, () => -1);
    const next = column.slice();
    next[7] = 2;
    next[900] = 0;
    expect(diffState({ pending: column }, { pending: next })).toEqual({
      o: { pending: { p: [7, 2, 900, 0] } },
    });
  });

  it('an Infinite Blackjack window: snapshot plus each batch delta is the state as stored whole', () => {
    const settings = tableRunSettings({ id: 'ibj-1', game: 'infinite-blackjack', currency: 'EUR' });
    const machine = new TableMachine(settings, createGameAdapter(settings)!);
    let ids = 0;
    let now = Date.UTC(2026, 10, 29, 12);
    const ctx = () => ({ now, newId: () => `id-${++ids}` });
    let state: TableState = machine.step(
      initialTableState(settings, 8),
      { type: 'start' },
      ctx(),
    ).state;
    const snapshot = roundTrip(state);
    let rebuilt: unknown = snapshot;
    const sizes: number[] = [];
    const step = (next: TableState) => {
      const patch = diffState(state, next);
      if (patch) {
        sizes.push(JSON.stringify(patch).length);
        rebuilt = applyStatePatch(rebuilt, roundTrip(patch));
      }
      state = next;
      expect(rebuilt).toEqual(roundTrip(state));
    };
    let seq = 0;
    const read = (code: string) => {
      now += 500;
      seq += 1;
      const input = {
        type: 'reading',
        readingId: String(seq),
        reading: {
          kind: 'card',
          card: { rank: code[0], suit: code[1] },
          code,
          raw: new Uint8Array(),
          receivedAt: now,
          sequence: seq,
        },
      } as unknown as Parameters<TableMachine['step']>[1];
      step(machine.step(state, input, ctx()).state);
    };
    const burn = ['2C', '3D', '4H', '5S', '6C', '7D', '8H', '9S', 'TC', 'JD', 'QH'];
    while (machine.expected(state)?.slot.startsWith('shoe-burn')) read(burn.shift()!);
    for (const t of [...state.timers]) {
      now = Math.max(now, t.dueAt);
      step(machine.step(state, { type: 'timer', name: t.name, token: t.token }, ctx()).state);
    }
    expect(roundOf(state)?.roundNumber).toBe(1);
    const batch = (inputs: CommandInput[]) => {
      for (let done = 0; done < inputs.length;) {
        const out = machine.stepCommands(state, inputs.slice(done), ctx());
        done += out.results.length;
        step(out.outcome.state);
      }
    };
    const players = Array.from({ length: 2000 }, (_, i) => `p${i}`);
    for (let i = 0; i < players.length; i += 500) {
      batch(
        players.slice(i, i + 500).map((playerId, k) => ({
          type: 'bet',
          bet: { betId: `b${i + k}`, playerId, betType: 'main', amount: 1_000 },
        })),
      );
    }
    step(machine.step(state, { type: 'close-betting', by: 'test' }, ctx()).state);
    for (const card of ['9H', '7S', '5D', '8C']) read(card);
    for (let i = 0; i < players.length; i += 500) {
      batch(
        players.slice(i, i + 500).map((playerId, k) => ({
          type: 'decide',
          decision: { playerId, action: k % 2 === 0 ? 'stand' : 'hit' },
        })),
      );
    }
    const engine = roundOf(state)!.engine as { players: { pending: number[] } };
    expect(engine.players.pending.filter((p) => p >= 0)).toHaveLength(players.length);
    // A batch's delta is in proportion to its commands, a small part of the whole state.
    const whole = JSON.stringify(state).length;
    expect(Math.max(...sizes.slice(-4))).toBeLessThan(whole / 3);
  });
});
