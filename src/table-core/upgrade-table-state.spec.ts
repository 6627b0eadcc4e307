import { PokDengAdapter } from '../games/pok-deng/pok-deng.adapter';
import { settings } from './pok-deng-table.testing';
import { TableMachine } from './table-machine';
import { upgradeTableState } from './upgrade-table-state';
import v1 from './fixtures/table-state-v1.json';

/** States stored by the previous version (phase implied by nullable round / paused). */
describe('upgradeTableState', () => {
  const machine = new TableMachine(settings, new PokDengAdapter({ bettingWindowMs: 15_000 }));
  const ctx = { now: Date.UTC(2026, 10, 29, 13, 0, 0), newId: () => 'new-id' };

  it('declares the phase each old shape implied', () => {
    expect(upgradeTableState(v1.awaitingShoe).phase).toEqual({ kind: 'awaiting-shoe' });
    expect(upgradeTableState(v1.betweenRounds).phase).toEqual({ kind: 'between-rounds' });
    const inRound = upgradeTableState(v1.inRound);
    expect(inRound.phase).toMatchObject({
      kind: 'in-round',
      round: { id: v1.inRound.round!.id, roundNumber: 1, voidRequests: [] },
    });
    expect(inRound).not.toHaveProperty('round');
    expect(inRound).not.toHaveProperty('paused');
    expect(inRound.schema).toBe(2);
  });

  it('keeps a pause with the round it interrupted', () => {
    const paused = upgradeTableState(v1.pausedInRound);
    expect(paused.phase).toMatchObject({
      kind: 'paused',
      pause: { kind: 'supervisor', reason: 'card on the floor', by: 'sup' },
      resumes: { kind: 'in-round', round: { id: v1.pausedInRound.round!.id } },
    });
    // The upgraded state carries on where it stopped: resume, then the round goes on.
    const resumed = machine.step(paused, { type: 'resume', by: 'sup' }, ctx);
    expect(resumed.rejection).toBeUndefined();
    expect(resumed.state.phase.kind).toBe('in-round');
    expect(resumed.state.timers.map((t) => t.name)).toEqual(['betting']);
    expect(machine.expected(resumed.state)?.slot).toBe('player-2/1');
  });

  it('returns a current state as it is', () => {
    const current = upgradeTableState(v1.inRound);
    expect(upgradeTableState(JSON.parse(JSON.stringify(current)))).toEqual(current);
  });
});
