import type { TableDefinition } from '../config/tables-config';
import { emptyWrites, MachineOutcome, TableWrites } from '../table-core/table-machine';
import { formatMinor, RoundLogListener } from './round-log.listener';

const TABLES = [
  { id: 'pokdeng-1', name: 'Pok Deng 1', game: 'pok-deng', currency: 'THB' },
] as TableDefinition[];

function outcome(writes: Partial<TableWrites>): MachineOutcome {
  return { state: {} as MachineOutcome['state'], writes: { ...emptyWrites(), ...writes } };
}

function settlement(playerId: string, stake: number, net: number, roundId = 'r-1') {
  return {
    roundId,
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
  it('tells each currency of a round on its own, never one sum of two currencies', () => {
    const { lines, listener } = listen();
    listener.onTransition(
      'pokdeng-1',
      outcome({ newRound: { id: 'r-1', shoeId: 's', shoeNumber: 3, roundNumber: 12 } }),
    );
    listener.onTransition(
      'pokdeng-1',
      outcome({
        roundStatus: { id: 'r-1', status: 'completed', phase: 'settled', ended: true },
        settlements: [
          { ...settlement('p1', 10_000, 9_500), currency: 'THB' },
          { ...settlement('p2', 2_000, -2_000), currency: 'EUR' },
        ],
      }),
    );
    expect(lines).toEqual([
      [
        'info',
        'Pok Deng 1 (pokdeng-1): round 12 of shoe 3 completed: 2 bets by 2 players, staked 100.00 THB, players net 95.00 THB; staked 20.00 EUR, players net -20.00 EUR [round r-1]',
      ],
    ]);
  });

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
      [
        'info',
        'Pok Deng 1 (pokdeng-1): a round started before this service took the table voided (card dropped): no bets [round r-2]',
      ],
    ]);
  });

  it('numbers a round from its end event, also one started before a restart', () => {
    const { lines, listener } = listen();
    listener.onTransition(
      'pokdeng-1',
      outcome({
        events: [
          {
            type: 'RoundCompleted',
            visibility: 'public',
            payload: { shoeNumber: 2, roundNumber: 7, status: 'completed' },
            roundId: 'r-9',
          },
        ],
        roundStatus: { id: 'r-9', status: 'completed', phase: 'settled', ended: true },
        settlements: [settlement('p1', 1_000, -1_000, 'r-9')],
      }),
    );
    expect(lines).toEqual([
      [
        'info',
        'Pok Deng 1 (pokdeng-1): round 7 of shoe 2 completed: 1 bet by 1 player, staked 10.00 THB, players net -10.00 THB [round r-9]',
      ],
    ]);
  });

  it('tells a void in one line: the round, who voided it, why, and the refunds', () => {
    const { lines, listener } = listen();
    const voided = (approval?: { requestId: string; approvedBy: string }) =>
      outcome({
        events: [
          {
            type: 'RoundEnded',
            visibility: 'public',
            payload: { shoeNumber: 1, roundNumber: 5, status: 'voided' },
            roundId: 'r-5',
          },
        ],
        supervisorAction: {
          action: 'void',
          reason: 'Card dropped on the floor',
          actor: 'supervisor',
          roundId: 'r-5',
          details: {},
          ...(approval ? { approval } : {}),
        },
        roundStatus: {
          id: 'r-5',
          status: 'voided',
          phase: 'voided',
          ended: true,
          voidReason: 'Card dropped on the floor',
        },
        settlements: [settlement('p1', 5_000, 0, 'r-5'), settlement('p2', 2_500, 0, 'r-5')],
      });
    listener.onTransition('pokdeng-1', voided());
    listener.onTransition(
      'pokdeng-1',
      outcome({
        supervisorAction: {
          action: 'void',
          reason: 'Wrong shoe',
          actor: 'alice',
          roundId: 'r-5',
          details: {},
          pendingRequestId: 'q-1',
        },
      }),
    );
    listener.onTransition('pokdeng-1', voided({ requestId: 'q-1', approvedBy: 'bob' }));
    expect(lines).toEqual([
      [
        'info',
        'Pok Deng 1 (pokdeng-1): round 5 of shoe 1 voided by supervisor "supervisor" (Card dropped on the floor): 2 bets by 2 players refunded, 75.00 THB [round r-5]',
      ],
      [
        'info',
        'Pok Deng 1 (pokdeng-1): supervisor "alice" asked to void the round: Wrong shoe (a second supervisor must approve it) [round r-5]',
      ],
      [
        'info',
        'Pok Deng 1 (pokdeng-1): round 5 of shoe 1 voided by supervisor "supervisor", approved by supervisor "bob" (Card dropped on the floor): 2 bets by 2 players refunded, 75.00 THB [round r-5]',
      ],
    ]);
  });

  it('warns on a supervisor alert that pauses nothing, never naming a card', () => {
    const { lines, listener } = listen();
    listener.onTransition(
      'pokdeng-1',
      outcome({
        events: [
          {
            type: 'SupervisorAlert',
            visibility: 'public',
            payload: {
              kind: 'scanner-sequence',
              reason: 'repeated-with-other-content',
              sequence: 12,
              previousSequence: 12,
            },
            roundId: 'r-4',
          },
          {
            type: 'SupervisorAlert',
            visibility: 'public',
            payload: { kind: 'composition', message: 'A 9th copy of a card in a 8-deck shoe' },
            roundId: 'r-4',
          },
          {
            type: 'SupervisorAlert',
            visibility: 'public',
            payload: { kind: 'rescan-limit', slot: 'player/1', failedAttempts: 5 },
            roundId: 'r-4',
          },
        ],
      }),
    );
    expect(lines).toEqual([
      [
        'warn',
        'Pok Deng 1 (pokdeng-1): supervisor alert: scanner frame 12 repeated with other content (previous 12): not applied, kept for review [round r-4]',
      ],
      [
        'warn',
        'Pok Deng 1 (pokdeng-1): supervisor alert: card composition: A 9th copy of a card in a 8-deck shoe [round r-4]',
      ],
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
    listener.onTransition(
      'pokdeng-1',
      outcome({
        supervisorAction: {
          action: 'pause',
          reason: 'Dealer change',
          actor: 'supervisor',
          roundId: null,
          details: {},
        },
      }),
    );
    expect(lines).toEqual([
      [
        'warn',
        'Pok Deng 1 (pokdeng-1): paused automatically after a restart: The service restarted [round r-3]',
      ],
      ['info', 'Pok Deng 1 (pokdeng-1): supervisor "alice" resumed the round [round r-3]'],
      ['info', 'Pok Deng 1 (pokdeng-1): supervisor "supervisor" paused the table: Dealer change'],
    ]);
  });

  it('formats minor units', () => {
    expect(formatMinor(-125_050, 'THB')).toBe('-1,250.50 THB');
    expect(formatMinor(7, '')).toBe('0.07');
  });
});
