import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { EVENT_VISIBILITY, sharedTopicOmits } from '@studio/contracts';
import {
  checkCommand,
  checkCommandResult,
  checkEvent,
  checkSharedEvent,
  EventOrder,
  SHARED_TOPIC_OMITS,
  TableEvent,
  v2Topics,
} from './index';

const bet = {
  commandId: 'c-1',
  type: 'PlaceBet',
  schemaVersion: 1,
  tableId: 'pd-1',
  playerId: 'p-1',
  betType: 'player',
  amount: 100,
};

describe('@studio/platform-sdk', () => {
  it('has types and schema copies generated from the current contract files', () => {
    const script = join(__dirname, '..', 'scripts', 'generate-types.js');
    // Exits 1 (and execFileSync throws) when a generated file differs from what the schemas give.
    expect(execFileSync(process.execPath, [script, '--check'], { encoding: 'utf8' })).toBe(
      'current\n',
    );
  });

  it('checks commands, answers and events against the shipped schemas', () => {
    expect(checkCommand(bet)).toEqual({ ok: true, value: bet });
    const refused = checkCommand({ ...bet, amount: 10.5 });
    expect(refused).toMatchObject({ ok: false, violations: [{ path: '/amount' }] });
    expect(checkCommand({ ...bet, type: 'Nope' })).toMatchObject({ ok: false });
    expect(checkCommandResult({ commandId: 'c-1' })).toMatchObject({ ok: false });
    expect(checkEvent({ type: 'RoundStarted' })).toMatchObject({ ok: false });
  });

  it('delivers a table’s events once, in order, and reports gaps and chain inconsistencies', () => {
    const order = new EventOrder();
    const event = (seq: number, chain?: { eventNo: number; hash: string }) =>
      ({
        tableId: 't',
        seq,
        type: 'RoundStarted',
        ...(chain ? { chain } : {}),
      }) as unknown as TableEvent;
    const h = (c: string) => c.repeat(64);
    expect(order.accept(event(1))).toEqual({ deliver: true, problems: [] });
    expect(order.accept(event(1))).toEqual({ deliver: false, problems: [] });
    expect(order.accept(event(2, { eventNo: 2, hash: h('a') })).problems).toEqual([]);
    const gap = order.accept(event(4, { eventNo: 4, hash: h('b') }));
    expect(gap.problems.map((p) => p.kind)).toEqual(['gap']);
    expect(
      order.accept(event(5, { eventNo: 3, hash: h('c') })).problems.map((p) => p.kind),
    ).toEqual(['chain-backwards']);
    expect(
      order.accept(event(6, { eventNo: 4, hash: h('d') })).problems.map((p) => p.kind),
    ).toEqual(['chain-mismatch']);
  });

  it('reads v2 events from the shared topic beside the platform’s own', () => {
    expect(v2Topics('casino-a', 'p.')).toEqual({
      commands: 'p.studio.platform.casino-a.commands.v2',
      results: 'p.studio.platform.casino-a.results.v2',
      events: 'p.studio.platform.casino-a.events.v2',
      sharedEvents: 'p.studio.table-events.v2',
    });
  });

  it('knows what the shared topic leaves out, as the contract’s visibility table says', () => {
    const omitted = Object.fromEntries(
      Object.keys(EVENT_VISIBILITY)
        .map((type) => [type, [...sharedTopicOmits(type)]])
        .filter(([, fields]) => fields.length > 0),
    );
    expect(SHARED_TOPIC_OMITS).toEqual(omitted);
  });

  it('accepts a shared-topic event without its players, and nothing else missing', () => {
    // BetsSettled as studio.table-events.v2 carries it (a real message, its seq and ids aside).
    const shared = {
      eventId: '58e7f47d-182f-4475-b583-4b3970a68cc2',
      type: 'BetsSettled',
      schemaVersion: 1,
      tableId: 'ibj-1',
      roundId: 'f1745c33-9fd4-49fa-8b06-45082a90b5ba',
      seq: 90,
      occurredAt: '2026-12-05T03:39:42.760Z',
      payload: {},
    };
    expect(checkEvent(shared)).toMatchObject({ ok: false });
    expect(checkSharedEvent(shared)).toEqual({ ok: true, value: shared });
    const { occurredAt: _, ...noTime } = shared;
    expect(checkSharedEvent(noTime)).toMatchObject({ ok: false, violations: [{ path: '' }] });
    const started = { ...shared, type: 'RoundStarted' };
    expect(checkSharedEvent(started)).toMatchObject({ ok: false });
  });

  it('orders each topic on its own, without gaps, when a table’s events come on two', () => {
    const order = new EventOrder({ gaps: false });
    const event = (seq: number) => ({ tableId: 't', seq, type: 'X' }) as unknown as TableEvent;
    expect(order.accept(event(5), 'shared')).toEqual({ deliver: true, problems: [] });
    // The private topic's event 3 is read after the shared one's 5: still delivered.
    expect(order.accept(event(3), 'mine')).toEqual({ deliver: true, problems: [] });
    expect(order.accept(event(3), 'mine')).toEqual({ deliver: false, problems: [] });
    expect(order.accept(event(9), 'shared')).toEqual({ deliver: true, problems: [] });
  });
});
