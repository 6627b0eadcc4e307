import type { HistoryQuery } from '../../history/reader/history-query';
import { AuditRequestError } from '../audit-query';
import { VerifyRoundReplay } from './verify-round-replay.use-case';

/** A database with `rounds` rounds in any range and no round rows to replay. */
function history(rounds: number): { q: HistoryQuery; sql: string[] } {
  const sql: string[] = [];
  const q = (async (text: string) => {
    sql.push(text);
    return /count\(\*\)/.test(text) ? [{ n: rounds }] : [];
  }) as HistoryQuery;
  return { q, sql };
}

describe('replay range cap', () => {
  const from = new Date('2026-11-01T00:00:00Z');
  const to = new Date('2026-11-02T00:00:00Z');

  it('refuses a range holding more rounds than one call verifies, before replaying any', async () => {
    const { q, sql } = history(2_001);
    const refusal = new VerifyRoundReplay(q).range(from, to, undefined, 2_000);
    await expect(refusal).rejects.toThrow(AuditRequestError);
    await expect(refusal).rejects.toMatchObject({
      code: 'range-too-large',
      message:
        '2001 rounds started in that range; a replay verifies at most 2000 per call, split the range',
    });
    expect(sql).toHaveLength(1);
  });

  it('verifies a range within the cap, and any range when no cap is given (the CLI)', async () => {
    const within = history(2_000);
    await expect(
      new VerifyRoundReplay(within.q).range(from, to, 't', 2_000),
    ).resolves.toMatchObject({ rounds: 0, failed: [] });
    const uncapped = history(1_000_000);
    await new VerifyRoundReplay(uncapped.q).range(from, to);
    expect(uncapped.sql.some((s) => /count\(\*\)/.test(s))).toBe(false);
  });
});
