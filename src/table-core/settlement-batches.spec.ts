import { shoeReady } from './pok-deng-table.testing';

/** The events a void announces, each as its platform reads it. */
type Refunds = { batch: number; batches: number; settlements: Array<{ platformId?: string }> };

describe("the table: a round's settlements are batched per platform", () => {
  it('numbers each platform its own batches, each batch of one platform only', () => {
    const t = shoeReady();
    const players = [
      ...Array.from({ length: 501 }, (_, i) => `casino-a:a${i}`),
      'casino-b:b0',
      'alice',
      'casino-b:b1',
    ];
    // Interleaved, as bets arrive: one platform's bets are not together in the round's order.
    const order = [players[0], players[501], players[502], ...players.slice(1, 501), players[503]];
    order.forEach((playerId, i) => {
      const placed = t.step({
        type: 'bet',
        bet: {
          betId: `b-${i}`,
          commandId: `c-${i}`,
          playerId,
          betType: 'player',
          spot: '1',
          amount: 10,
        },
      });
      expect(placed.rejection).toBeUndefined();
    });
    const voided = t.step({ type: 'void', by: 'sup', reason: 'test' });
    const refunds = voided.writes.events
      .filter((e) => e.type === 'BetsRefunded')
      .map((e) => e.payload as unknown as Refunds);
    const platformOf = (r: Refunds) => [
      ...new Set(r.settlements.map((s) => s.platformId ?? 'default')),
    ];
    expect(refunds.map((r) => [platformOf(r), r.batch, r.batches, r.settlements.length])).toEqual([
      [['casino-a'], 1, 2, 500],
      [['casino-a'], 2, 2, 1],
      [['casino-b'], 1, 1, 2],
      [['default'], 1, 1, 1],
    ]);
  });
});
