import type { TableDefinition } from '../config/tables-config';
import { emptyWrites, MachineOutcome, TableWrites } from '../table-core/table-machine';
import { formatMinor, RoundLogListener } from './round-log.listener';

const TABLES = [
  { id: 'pokdeng-1', name: 'Pok Deng 1', game: 'pok-deng', currency: 'THB' },
] as TableDefinition[];

function outcome(writes: Partial<TableWrites>): MachineOutcome {
  return { state: {} as MachineOutcome['state'], writes: { ...emptyWrites(), ...writes } };
}

function settlement(playerId: string, stake: number, net: number) {
  return {
    roundId: 'r-1',
    betId: `b-${playerId}`,
    playerId,
    betType: 'player',
    spot: '1',
    stake,
    returned: stake + net,
    net,
    outcome: 'x',
    roundedDown: '0',
  };
}

function listen() {
  const lines: Array<[string, string]> = [];
  const listener = new RoundLogListener(TABLES, {
    log: (m) => lines.push(['info', m]),
    warn: (m) => lines.push(['warn', m]),
  });
  return { lines, listener };
}

describe('RoundLogListener', () => {
  it('writes one info line per completed round with the table, round and outcome summary', () => {
    const { lines, listener } = listen();
    listener.onTransition(
      'pokdeng-1',
      outcome({ newRound: { id: 'r-1', shoeId: 's', shoeNumber: 3, roundNumber: 12 } }),
    );
    listener.onTransition('pokdeng-1', outcome({ events: [] }));
    listener.onTransition(
      'pokdeng-1',
      outcome({
        roundStatus: { id: 'r-1', status: 'completed', phase: 'settled', ended: true },
        settlements: [
          settlement('p1', 10_000, 9_500),
          settlement('p1', 2_000, -2_000),
          settlement('p2', 5_000, -5_000),
        ],
      }),
    );
    expect(lines).toEqual([
      [
        'info',
        'Pok Deng 1 (pokdeng-1): round 12 of shoe 3 completed: 3 bets by 2 players, staked 170.00 THB, players net 25.00 THB [round r-1]',
      ],
    ]);
  });

  it('names a voided round and its reason, and a round without bets', () => {
    const { lines, listener } = listen();
    listener.onTransition(
      'pokdeng-1',
      outcome({
        roundStatus: {
          id: 'r-2',
          status: 'voided',
          phase: 'voided',
          ended: true,
          voidReason: 'card dropped',
        },
      }),
    );
    expect(lines).toEqual([
      ['info', 'Pok Deng 1 (pokdeng-1): round voided (card dropped): no bets [round r-2]'],
    ]);
  });

  it('warns on an automatic pause and informs on a supervisor action, never on the system one', () => {
    const { lines, listener } = listen();
    listener.onTransition(
      'pokdeng-1',
      outcome({
        events: [
          {
            type: 'RoundPaused',
            visibility: 'public',
            payload: { kind: 'supervisor', reason: 'The service restarted' },
            roundId: 'r-3',
            actor: 'system',
          },
        ],
        supervisorAction: {
          action: 'pause',
          reason: 'The service restarted',
          actor: 'system',
          roundId: 'r-3',
          details: {},
        },
      }),
    );
    listener.onTransition(
      'pokdeng-1',
      outcome({
        supervisorAction: {
          action: 'resume',
          reason: null,
          actor: 'alice',
          roundId: 'r-3',
          details: {},
        },
      }),
    );
    expect(lines).toEqual([
      [
        'warn',
        'Pok Deng 1 (pokdeng-1): paused automatically after a restart: The service restarted [round r-3]',
      ],
      ['info', 'Pok Deng 1 (pokdeng-1): supervisor alice resume [round r-3]'],
    ]);
  });

  it('formats minor units', () => {
    expect(formatMinor(-125_050, 'THB')).toBe('-1,250.50 THB');
    expect(formatMinor(7, '')).toBe('0.07');
  });
});
