import { VerifyRoundReplay } from '../../src/audit/verify-round-replay.use-case';
import { eventHash, GENESIS_HASH } from '../../src/tables/event-chain';

/** A query function over the studio's database (a pg Pool or a DataSource). */
export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/** Each table's event log is one unbroken hash chain, numbered without gaps; returns its length. */
export async function expectUnbrokenChain(q: Query, tableId: string): Promise<number> {
  const events = await q<{
    event_no: string;
    round_id: string | null;
    type: string;
    visibility: string;
    payload: unknown;
    actor: string | null;
    occurred_at: Date;
    prev_hash: string;
    hash: string;
  }>(`SELECT * FROM round_events WHERE table_id = $1 ORDER BY event_no`, [tableId]);
  let prev = GENESIS_HASH;
  events.forEach((e, i) => {
    expect(Number(e.event_no)).toBe(i + 1);
    expect(e.prev_hash).toBe(prev);
    prev = eventHash(prev, {
      tableId,
      eventNo: Number(e.event_no),
      roundId: e.round_id,
      type: e.type,
      visibility: e.visibility,
      payload: e.payload,
      actor: e.actor,
      occurredAt: new Date(e.occurred_at).toISOString(),
    });
    expect(e.hash).toBe(prev);
  });
  return events.length;
}

/** No bet settled twice; no accepted bet of a finished round left unsettled. */
export async function expectEachBetSettledOnce(q: Query): Promise<void> {
  const [{ twice }] = await q<{ twice: number }>(
    `SELECT count(*)::int AS twice FROM (SELECT bet_id FROM settlements WHERE bet_id IS NOT NULL
      GROUP BY bet_id HAVING count(*) > 1) d`,
  );
  expect(twice).toBe(0);
  const [{ unsettled }] = await q<{ unsettled: number }>(
    `SELECT count(*)::int AS unsettled FROM bets b JOIN rounds r ON r.id = b.round_id
      WHERE r.status IN ('completed','voided') AND b.status = 'accepted'`,
  );
  expect(unsettled).toBe(0);
}

/** Every completed round replays exactly from its stored cards and bets; returns settlements. */
export async function expectCompletedRoundsReplay(q: Query, roundIds: string[]): Promise<number> {
  const verify = new VerifyRoundReplay(q);
  let settlements = 0;
  for (const roundId of roundIds) {
    const verdict = await verify.round(roundId);
    if (verdict.verdict !== 'match') {
      const events = await q<{ type: string; actor: string | null; payload: unknown }>(
        `SELECT type, actor, payload FROM round_events WHERE round_id = $1 ORDER BY event_no`,
        [roundId],
      );
      console.log(
        JSON.stringify(verdict, null, 1).slice(0, 3_000) +
          '\n' +
          events.map((e) => `${e.type} ${JSON.stringify(e.payload).slice(0, 160)}`).join('\n'),
      );
    }
    expect(verdict).toMatchObject({ roundId, verdict: 'match' });
    settlements += verdict.verdict === 'match' ? verdict.settlements : 0;
  }
  return settlements;
}
