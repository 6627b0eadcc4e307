import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  LeaseLostError,
  TableLease,
  TableLeaseRepository,
} from '../../src/database/table-lease.repository';
import { historyQueryOf } from '../../src/history/reader/history-query';
import {
  CommandRecord,
  CommandsAnsweredBeforeError,
} from '../../src/history/writer/processed-commands.repository';
import { ROWS_PER_STATEMENT } from '../../src/history/writer/sql-chunks';
import { SupervisorActionsRepository } from '../../src/history/writer/supervisor-actions.repository';
import {
  SETTLEMENTS_PER_CALL,
  VoidRequestNotPendingError,
} from '../../src/history/writer/transition-call.repository';
import {
  createTransitionWriter,
  TransitionWriter,
} from '../../src/history/writer/transition-writer';
import {
  emptyWrites,
  MachineOutcome,
  TableState,
  TableWrites,
} from '../../src/table-core/table-machine';
import { cardOutcome, cardReading } from '../support/card-transition';
import { expectUnbrokenChain } from '../support/history-checks';
import { createTestDatabase, insertStudioTables, TestDatabase } from '../support/test-database';

jest.setTimeout(120_000);

const TABLE = { id: 'writer-1', shoe: randomUUID(), round: randomUUID() };
const BETS = 2 * SETTLEMENTS_PER_CALL + 500;

/**
 * The one writer for every kind of transition, on the real PostgreSQL: what the consoles do (a
 * supervisor's action, a void request and its approval, a card correction) and a round end
 * settling more bets than one call carries go through the same transition call as a card
 * reading, each all-or-nothing, refused by the same checks.
 */
describe('one writer for every transition', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let writer: TransitionWriter;
  let supervisorActions: SupervisorActionsRepository;
  let lease: TableLease;
  let version = 0;
  let previous: TableState | undefined;
  let n = 0;

  /** A transition of the test table with these writes (and an event of its own). */
  function outcome(writes: Partial<TableWrites>): MachineOutcome {
    n += 1;
    return {
      state: { tableId: TABLE.id, step: n } as unknown as TableState,
      writes: {
        ...emptyWrites(),
        events: [{ type: 'Step', visibility: 'public', payload: { n }, roundId: TABLE.round }],
        ...writes,
      },
    };
  }

  async function commit(
    next: MachineOutcome,
    extra: {
      as?: TableLease;
      commands?: CommandRecord[];
      reading?: boolean;
      lookUpAnswers?: boolean;
    } = {},
  ): Promise<void> {
    const committed = await writer.commit(next, {
      lease: extra.as ?? lease,
      expectedVersion: version,
      previous,
      occurredAt: new Date(Date.UTC(2026, 11, 1, 9, 0, n)),
      newId: () => randomUUID(),
      commands: extra.commands,
      reading: extra.reading ? cardReading(TABLE, n) : undefined,
      lookUpAnswers: extra.lookUpAnswers,
    });
    version = committed;
    previous = next.state;
  }

  const state = async () =>
    (
      await ds.query(
        `SELECT (SELECT version FROM table_state WHERE table_id = $1)::int AS version,
                (SELECT count(*) FROM round_events WHERE table_id = $1)::int AS events,
                (SELECT count(*) FROM outbox WHERE table_id = $1)::int AS outbox,
                (SELECT count(*) FROM settlements)::int AS settlements,
                (SELECT count(*) FROM bets WHERE status = 'accepted')::int AS open_bets`,
        [TABLE.id],
      )
    )[0];

  /** Runs `work` and tells how many calls and transactions it took. */
  async function counted(work: () => Promise<void>) {
    const queries = jest.spyOn(ds, 'query');
    const transactions = jest.spyOn(ds, 'transaction');
    try {
      await work();
      return {
        // The functions called (a read of the chain's head, after a failure, is no write).
        calls: queries.mock.calls.flatMap(([sql]) => /studio_\w+/.exec(sql)?.[0] ?? []),
        transactions: transactions.mock.calls.length,
      };
    } finally {
      queries.mockRestore();
      transactions.mockRestore();
    }
  }

  beforeAll(async () => {
    db = await createTestDatabase('writer');
    ds = await db.migrated();
    await insertStudioTables(ds, [TABLE.id]);
    lease = (await new TableLeaseRepository(ds, 60_000).tryAcquire(TABLE.id, 'owner-a'))!;
    writer = createTransitionWriter(ds, 'test');
    supervisorActions = new SupervisorActionsRepository(ds);
    // The table's first state: a card reading that opens the shoe and the round.
    n = 1;
    const first = cardOutcome(TABLE, 1, {
      newShoe: { id: TABLE.shoe, shoeNumber: 1, deckCount: 8 },
      newRound: { id: TABLE.round, shoeId: TABLE.shoe, shoeNumber: 1, roundNumber: 1 },
      cards: [
        {
          slot: 'd1',
          card: 'QS',
          faceDown: true,
          roundId: TABLE.round,
          shoeId: TABLE.shoe,
          readingId: null,
        },
      ],
      readingOutcome: undefined,
    });
    await commit(first, { reading: true });
  });

  afterAll(() => db.drop());

  it('corrects a face-down card: a new row, the corrected one kept pointing at it', async () => {
    const correction = outcome({
      corrections: [{ slot: 'd1', roundId: TABLE.round, card: 'KH', reason: 'misread' }],
      supervisorAction: {
        action: 'correct-card',
        reason: 'misread',
        actor: 'sup-1',
        roundId: TABLE.round,
        details: { slot: 'd1' },
      },
    });
    expect(await counted(() => commit(correction))).toEqual({
      calls: ['studio_commit_transition'],
      transactions: 0,
    });
    await commit(outcome({ reveals: [{ roundId: TABLE.round, slot: 'd1' }] }));

    const cards = await ds.query(
      `SELECT id::int, card, face_down, corrected_by_id::int, correction_reason, revealed_at IS NOT NULL AS revealed
         FROM round_cards WHERE round_id = $1 AND slot = 'd1' ORDER BY id`,
      [TABLE.round],
    );
    expect(cards).toEqual([
      {
        id: cards[0].id,
        card: 'QS',
        face_down: true,
        corrected_by_id: cards[1].id,
        correction_reason: null,
        revealed: false,
      },
      {
        id: cards[1].id,
        card: 'KH',
        face_down: true,
        corrected_by_id: null,
        correction_reason: 'misread',
        revealed: true,
      },
    ]);
    const [action] = await ds.query(
      `SELECT action, status, actor_name, details FROM supervisor_actions WHERE action = 'correct-card'`,
    );
    expect(action).toEqual({
      action: 'correct-card',
      status: 'applied',
      actor_name: 'sup-1',
      details: { slot: 'd1' },
    });
  });

  it('refuses to correct a slot with no card, leaving nothing', async () => {
    const before = await state();
    await expect(
      commit(
        outcome({ corrections: [{ slot: 'p9', roundId: TABLE.round, card: 'KH', reason: 'x' }] }),
      ),
    ).rejects.toThrow('has no card in slot p9');
    expect(await state()).toEqual(before);
  });

  it('stores a void request pending, approves it once, and refuses a second approval', async () => {
    const requestId = await supervisorActions.newRequestId();
    const request = {
      action: 'void',
      reason: 'dealer error',
      actor: 'sup-1',
      roundId: TABLE.round,
      details: {},
    };
    await commit(outcome({ supervisorAction: { ...request, pendingRequestId: requestId } }));
    expect(await supervisorActions.findVoidRequest(TABLE.id, requestId)).toEqual({
      requestId,
      status: 'pending-approval',
    });
    const approval = { ...request, approval: { requestId, approvedBy: 'sup-2' } };
    await commit(outcome({ supervisorAction: approval }));
    expect(await supervisorActions.findVoidRequest(TABLE.id, requestId)).toEqual({
      requestId,
      status: 'applied',
    });

    const before = await state();
    await expect(commit(outcome({ supervisorAction: approval }))).rejects.toBeInstanceOf(
      VoidRequestNotPendingError,
    );
    expect(await state()).toEqual(before);
  });

  it('settles a round beyond one call in one transaction, all or nothing', async () => {
    const bets = Array.from({ length: BETS }, (_, i) => ({
      betId: `bet-${i}`,
      playerId: `player-${i}`,
      commandId: `command-${i}`,
      betType: 'main',
      spot: null,
      amount: 100,
      deducted: 100,
      roundId: TABLE.round,
    }));
    await commit(outcome({ bets }), {
      commands: bets.map((b) => ({
        commandId: b.commandId,
        kind: 'place-bet',
        result: { accepted: true, betId: b.betId },
      })),
    });
    const pending = await supervisorActions.newRequestId();
    await commit(
      outcome({
        supervisorAction: {
          action: 'void',
          reason: 'late',
          actor: 'sup-1',
          roundId: TABLE.round,
          details: {},
          pendingRequestId: pending,
        },
      }),
    );
    const roundEnd = (returned: (i: number) => number) =>
      outcome({
        roundStatus: { id: TABLE.round, status: 'completed', phase: 'settled', ended: true },
        settlements: bets.map((b, i) => ({
          betId: b.betId,
          playerId: b.playerId,
          betType: 'main',
          spot: null,
          stake: 100,
          returned: returned(i),
          net: returned(i) - 100,
          outcome: returned(i) > 0 ? 'win' : 'lose',
          roundedDown: '0',
          roundId: TABLE.round,
        })),
      });
    const before = await state();
    expect(before).toMatchObject({ settlements: 0, open_bets: BETS });

    // Refused by the fence: nothing of any chunk.
    await expect(
      commit(
        roundEnd(() => 200),
        { as: { ...lease, epoch: lease.epoch + 1 } },
      ),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await state()).toEqual(before);
    // A row the database refuses in the last chunk takes the first ones and the call with it.
    await expect(commit(roundEnd((i) => (i === BETS - 1 ? -1 : 200)))).rejects.toThrow(
      'settlements_returned_check',
    );
    expect(await state()).toEqual(before);

    expect(await counted(() => commit(roundEnd((i) => (i % 2 ? 200 : 0))))).toEqual({
      calls: [
        'studio_commit_transition',
        ...Array.from({ length: 2 }, () => 'studio_write_settlements'),
      ],
      transactions: 1,
    });
    expect(await state()).toMatchObject({ settlements: BETS, open_bets: 0 });
    const [round] = await ds.query(`SELECT status, ended_at IS NOT NULL AS ended FROM rounds`);
    expect(round).toEqual({ status: 'completed', ended: true });
    // The request still pending when its round ended lapsed with it.
    expect(await supervisorActions.findVoidRequest(TABLE.id, pending)).toEqual({
      requestId: pending,
      status: 'lapsed',
    });
    expect(await expectUnbrokenChain(historyQueryOf(ds), TABLE.id)).toBe((await state()).events);
  });

  /**
   * A batch whose command ids were not looked up before it was stepped (an HTTP request's): the
   * commit looks them up itself, in its one statement, and writes nothing when one was answered
   * before, so no command is applied twice and the runtime can answer it from what is stored.
   */
  describe('commands looked up by their own commit', () => {
    const answer = (commandId: string, note: string): CommandRecord => ({
      commandId,
      kind: 'refused',
      result: { accepted: false, code: 'x', message: note },
    });
    const stored = async (ids: string[]) =>
      (
        await ds.query(
          `SELECT command_id FROM processed_commands WHERE command_id = ANY($1) ORDER BY 1`,
          [ids],
        )
      ).map((r: { command_id: string }) => r.command_id);
    const rejection = (work: Promise<void>) =>
      work.then(
        () => undefined,
        (error: unknown) => error,
      );

    it('commits when none was answered before, and refuses whole when one was', async () => {
      await commit(outcome({}), {
        commands: [answer('lk-1', 'first'), answer('lk-2', 'first')],
        lookUpAnswers: true,
      });
      expect(await stored(['lk-1', 'lk-2'])).toEqual(['lk-1', 'lk-2']);

      const before = await state();
      const error = await rejection(
        commit(
          outcome({
            bets: [
              {
                betId: 'lk-bet',
                playerId: 'player-lk',
                commandId: 'lk-1',
                betType: 'main',
                spot: null,
                amount: 100,
                deducted: 100,
                roundId: TABLE.round,
              },
            ],
          }),
          { commands: [answer('lk-3', 'second'), answer('lk-1', 'second')], lookUpAnswers: true },
        ),
      );
      expect(error).toBeInstanceOf(CommandsAnsweredBeforeError);
      expect((error as CommandsAnsweredBeforeError).answers).toEqual(
        new Map([['lk-1', answer('lk-1', 'first').result]]),
      );
      expect(await state()).toEqual(before);
      expect(await stored(['lk-3'])).toEqual([]);
      const [bet] = await ds.query(`SELECT count(*)::int AS n FROM bets WHERE id = 'lk-bet'`);
      expect(bet.n).toBe(0);

      // The chain's head stayed where it was: the next commit follows on.
      await commit(outcome({}), { commands: [answer('lk-3', 'second')], lookUpAnswers: true });
      expect(await stored(['lk-3'])).toEqual(['lk-3']);
      expect(await expectUnbrokenChain(historyQueryOf(ds), TABLE.id)).toBe((await state()).events);
    });

    it('records answers alone unless one was answered before, across statements too', async () => {
      const at = new Date(Date.UTC(2026, 11, 1, 10));
      const error = await rejection(
        writer.recordCommands(TABLE.id, [answer('lk-4', 'x'), answer('lk-2', 'x')], at, true),
      );
      expect((error as CommandsAnsweredBeforeError).answers).toEqual(
        new Map([['lk-2', answer('lk-2', 'first').result]]),
      );
      expect(await stored(['lk-4'])).toEqual([]);

      // More than one statement carries: the last one finds lk-1 and the first one rolls back.
      const many = Array.from({ length: ROWS_PER_STATEMENT }, (_, i) =>
        answer(`lk-many-${i}`, 'x'),
      );
      const chunked = await rejection(
        writer.recordCommands(TABLE.id, [...many, answer('lk-1', 'x')], at, true),
      );
      expect(chunked).toBeInstanceOf(CommandsAnsweredBeforeError);
      expect(await stored(['lk-many-0', `lk-many-${ROWS_PER_STATEMENT - 1}`])).toEqual([]);

      await writer.recordCommands(TABLE.id, [...many, answer('lk-4', 'x')], at, true);
      expect(await stored(['lk-4', 'lk-many-0'])).toEqual(['lk-4', 'lk-many-0']);
      // Without lookUpAnswers, a repeat keeps the answer stored first and rejects nothing.
      await writer.recordCommands(TABLE.id, [answer('lk-4', 'changed')], at);
      const [kept] = await ds.query(
        `SELECT result FROM processed_commands WHERE command_id = 'lk-4'`,
      );
      expect(kept.result).toEqual(answer('lk-4', 'x').result);
    });
  });
});
