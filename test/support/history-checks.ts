import { VerifyRoundReplay } from '../../src/audit/verify-round-replay/verify-round-replay.use-case';
import { ChainWalker } from '../../src/audit/event-chain-walk';
import { RoundEventsReader } from '../../src/history/reader/round-events.reader';

/** A query function over the studio's database (a pg Pool or a DataSource). */
export type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/**
 * Each table's event log is one unbroken hash chain, numbered without gaps (checked by the
 * auditors' own chain walk, page by page); returns its length.
 */
export async function expectUnbrokenChain(q: Query, tableId: string): Promise<number> {
  const reader = new RoundEventsReader(q);
  const walker = new ChainWalker(tableId);
  for (let last = 0; ;) {
    const page = await reader.chainPage(tableId, last, 5_000);
    if (page.length === 0) return walker.checked;
    expect(walker.walk(page)).toBeUndefined();
    last = page[page.length - 1].eventNo;
  }
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
