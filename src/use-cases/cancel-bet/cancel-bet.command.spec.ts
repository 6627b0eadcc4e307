import { isRejection } from '../common/table-command';
import { CancelBetCommand, resolveCancellations } from './cancel-bet.command';
import type { BetReference, PlacedBets } from './placed-bets.port';

const fields = { tableId: 't1', commandId: 'c-1', platformId: 'casino-a', playerId: 'alice' };

describe('CancelBetCommand', () => {
  it('names its bet by betId or by betCommandId, exactly one of them', () => {
    for (const bad of [{}, { betId: 'b-1', betCommandId: 'x' }, { betId: '' }]) {
      const command = CancelBetCommand.create({ ...fields, ...bad });
      expect(isRejection(command) && command.code).toBe('invalid-command');
    }
    expect(isRejection(CancelBetCommand.create({ ...fields, platformId: 'a:b', betId: 'b' }))).toBe(
      true,
    );
  });

  it("looks the bet up as the platform's own player's, and carries what it found to the table", async () => {
    const asked: Array<[string, string, BetReference]> = [];
    const bets: PlacedBets = {
      find: async (tableId, player, reference) => {
        asked.push([tableId, player, reference]);
        return null;
      },
    };
    const command = CancelBetCommand.create({ ...fields, betCommandId: 'bet-cmd' });
    if (isRejection(command)) throw new Error(command.message);
    expect(() => command.toItem()).toThrow(/before resolve/);
    await resolveCancellations([command], bets);
    // The PlaceBet's id and the cancellation's own as the platform's command keys; the reference
    // in its answer as the platform named it.
    expect(asked).toEqual([['t1', 'casino-a:alice', { betCommandId: 'casino-a:bet-cmd' }]]);
    const { item } = command.toItem();
    expect(item.input).toEqual({
      type: 'cancel-bet',
      cancel: {
        commandId: 'casino-a:c-1',
        playerId: 'casino-a:alice',
        reference: 'bet-cmd',
        bet: null,
      },
    });
    expect(item.meta).toMatchObject({ kind: 'cancel-bet', commandId: 'casino-a:c-1' });
  });

  it('tells a repeat from another cancellation under the same command id (fingerprint)', async () => {
    const none: PlacedBets = { find: async () => null };
    const print = async (betId: string) => {
      const c = CancelBetCommand.create({ ...fields, betId }) as CancelBetCommand;
      await c.resolve(none);
      return c.toItem().item.meta.fingerprint;
    };
    expect(await print('b-1')).toBe(await print('b-1'));
    expect(await print('b-1')).not.toBe(await print('b-2'));
  });
});
