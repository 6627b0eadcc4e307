import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { checkCommand, checkCommandResult, checkEvent, EventOrder, TableEvent } from './index';

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
});
