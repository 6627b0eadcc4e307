import { PauseRound } from '../pause-round/pause-round.use-case';
import { PlaceBet } from '../place-bet/place-bet.use-case';
import { PlaceBetCommand } from '../place-bet/place-bet.command';
import { PauseRoundCommand } from '../pause-round/pause-round.command';
import { VoidRound } from '../void-round/void-round.use-case';
import type { CommandForwarding, Tables, VoidRequests } from './tables.port';

/** A registry that drives no table here, with a relay to the instance that does. */
function elsewhere(code: 'table-not-driven-here' | 'unknown-table') {
  const relay = { relay: jest.fn().mockResolvedValue({ accepted: true, reply: { paused: true } }) };
  const registry = {
    get: () => ({ ok: false, code, message: `table t1: ${code}` }),
    relay,
  } as unknown as Tables;
  return { registry, relay };
}

describe('a table command for a table driven by another instance', () => {
  const pause = PauseRoundCommand.create({ tableId: 't1', by: 'sup', reason: 'camera' });

  it('passes a supervisor action to the owner and answers with the owner’s answer', async () => {
    const { registry, relay } = elsewhere('table-not-driven-here');
    const answer = await new PauseRound(registry).execute(pause as PauseRoundCommand);
    expect(answer).toEqual({ accepted: true, reply: { paused: true } });
    expect(relay.relay).toHaveBeenCalledWith('t1', { type: 'pause', by: 'sup', reason: 'camera' });
  });

  it('relays a void request (second-supervisor approval) with the id the shared database gave it', async () => {
    const { registry, relay } = elsewhere('table-not-driven-here');
    const requests = { newRequestId: async () => '41' } as unknown as VoidRequests;
    await new VoidRound(registry, requests, true).execute({
      tableId: 't1',
      by: 'sup',
      reason: 'misdeal',
    });
    expect(relay.relay).toHaveBeenCalledWith('t1', {
      type: 'request-void',
      requestId: '41',
      by: 'sup',
      reason: 'misdeal',
    });
  });

  it('does not relay a table no one is configured to drive, nor a platform command', async () => {
    const unknown = elsewhere('unknown-table');
    expect(
      await new PauseRound(unknown.registry).execute(pause as PauseRoundCommand),
    ).toMatchObject({ accepted: false, code: 'unknown-table' });
    const other = elsewhere('table-not-driven-here');
    const inbox: CommandForwarding = {
      waiting: () => false,
      forward: jest.fn().mockResolvedValue({ accepted: true, reply: { betId: 'b1' } }),
    };
    const command = PlaceBetCommand.create({
      tableId: 't1',
      commandId: 'c1',
      platformId: 'default',
      playerId: 'p1',
      betType: 'main',
      amount: 100,
    }) as PlaceBetCommand;
    const bet = await new PlaceBet(other.registry, { newId: () => 'b1' }, inbox).execute(command);
    // A platform command goes to the owner through the table's inbox, not the supervisors' relay.
    expect(bet).toEqual({ accepted: true, reply: { betId: 'b1' } });
    expect(inbox.forward).toHaveBeenCalledWith('t1', { kind: 'bet', command: command.fields });
    expect(unknown.relay.relay).not.toHaveBeenCalled();
    expect(other.relay.relay).not.toHaveBeenCalled();
  });
});
