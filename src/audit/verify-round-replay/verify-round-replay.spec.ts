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

describe('a voided round', () => {
  const roundId = '77be9008-536e-47d8-ae72-c55468d0bb70';
  /**
   * A voided Pok Deng round with one bet, refunded as `returned` says. With `edited`, a round of
   * `game` whose rows were edited after: a decision added, a card turned face up, a reading's
   * outcome rewritten.
   */
  function voided(returned: number, edited?: { game: string }): HistoryQuery {
    return (async (text: string) => {
      if (edited && /FROM decisions WHERE round_id/.test(text)) {
        return [
          {
            player_id: 'alice',
            hand: null,
            action: 'hit',
            automatic: false,
            command_id: null,
            decided_at: new Date('2026-12-04T19:22:28.500Z'),
            decision_window: 1,
          },
        ];
      }
      if (edited && /FROM round_cards WHERE round_id/.test(text)) {
        return [
          {
            id: '1',
            slot: 'dealer-hole',
            card: '5H',
            reading_id: '9',
            face_down: false,
            dealt_at: new Date('2026-12-04T19:22:28.600Z'),
            revealed_at: new Date('2026-12-04T19:22:28.600Z'),
            corrected_by_id: null,
            correction_reason: null,
          },
        ];
      }
      if (edited && /FROM scanner_readings\s+WHERE table_id/.test(text)) {
        return [{ receivedAt: '2026-12-04T19:22:28.550Z', sequence: 7, outcome: 'rejected' }];
      }
      if (/FROM rounds r JOIN studio_tables/.test(text)) {
        return [
          {
            id: roundId,
            table_id: 'pd-1',
            game: edited?.game ?? 'pok-deng',
            status: 'voided',
            shoe_number: 1,
            round_number: 3,
            configuration: {},
            currency: 'THB',
            void_reason: 'dealer dropped the shoe',
            started_at: new Date('2026-12-04T19:22:27.834Z'),
            ended_at: new Date('2026-12-04T19:22:29Z'),
            started_key: '2026-12-04 19:22:27.834+00',
          },
        ];
      }
      if (/FROM bets WHERE round_id/.test(text)) {
        return [
          {
            id: 'b1',
            player_id: 'alice',
            command_id: 'c1',
            bet_type: 'player',
            spot: '1',
            amount: '1000',
            deducted: '2000',
            currency: 'THB',
            status: 'refunded',
            placed_at: new Date('2026-12-04T19:22:28Z'),
          },
        ];
      }
      if (/FROM settlements WHERE round_id/.test(text)) {
        return [
          {
            round_id: roundId,
            bet_id: 'b1',
            player_id: 'alice',
            bet_type: 'player',
            spot: '1',
            stake: '2000',
            returned: String(returned),
            net: String(returned - 2000),
            outcome: returned === 2000 ? 'void-refund' : 'player-wins',
            rounded_down: '0',
            settled_at: new Date('2026-12-04T19:22:29Z'),
            currency: 'THB',
          },
        ];
      }
      if (/FROM round_events WHERE round_id/.test(text)) {
        const event = (n: number, type: string, payload: unknown) => ({
          id: String(n),
          table_id: 'pd-1',
          event_no: String(n),
          round_id: roundId,
          type,
          visibility: 'public',
          payload,
          actor: null,
          occurred_at: new Date('2026-12-04T19:22:29Z'),
          prev_hash: '0'.repeat(64),
          hash: '1'.repeat(64),
          chain_version: 2,
          chain_salt: null,
        });
        // As the table announced them when it voided the round (the chain's own record).
        const dealt = edited
          ? [
              event(5, 'CardDealtFaceDown', { slot: 'dealer-hole' }),
              event(6, 'ReadingProcessed', {
                kind: 'card',
                code: '5H',
                sequence: 7,
                receivedAt: '2026-12-04T19:22:28.550Z',
                outcome: 'applied',
              }),
            ]
          : [];
        return [
          ...dealt,
          event(7, 'RoundVoided', { reason: 'dealer dropped the shoe' }),
          event(8, 'BetsRefunded', {
            batch: 1,
            batches: 1,
            settlements: [
              {
                betId: 'b1',
                stake: 2000,
                returned: 2000,
                net: 0,
                outcome: 'void-refund',
                currency: 'THB',
              },
            ],
          }),
        ];
      }
      return [];
    }) as HistoryQuery;
  }

  it('is verified: every bet refunded its stake, nobody won or lost (games.md §0)', async () => {
    await expect(new VerifyRoundReplay(voided(2000)).round(roundId)).resolves.toMatchObject({
      verdict: 'match',
      settlements: 1,
    });
  });

  it('names a "refund" that paid out more than the stake instead of skipping the round', async () => {
    await expect(new VerifyRoundReplay(voided(200_000)).round(roundId)).resolves.toMatchObject({
      verdict: 'mismatch',
      mismatches: [
        { field: 'settlement[0].returned', stored: 200_000, replayed: 2000 },
        { field: 'settlement[0].net', stored: 198_000, replayed: 0 },
        // And the row no longer says what the chained BetsRefunded announced.
        { field: 'settlement b1.returned (chain)', stored: 200_000, replayed: 2000 },
        { field: 'settlement b1.net (chain)', stored: 198_000, replayed: 0 },
        { field: 'settlement b1.outcome (chain)', stored: 'player-wins', replayed: 'void-refund' },
      ],
    });
  });

  it("names the decisions, cards and readings' outcomes edited after, decisions of Infinite Blackjack only", async () => {
    const cards = [
      { field: 'card dealer-hole face down (chain)', stored: false, replayed: true },
      {
        field: 'card dealer-hole revealed (chain)',
        stored: '2026-12-04T19:22:28.600Z',
        replayed: null,
      },
    ];
    const outcome = {
      field: 'reading 2026-12-04T19:22:28.550Z #7 outcome (chain)',
      stored: 'rejected',
      replayed: 'applied',
    };
    const decision = { field: 'decision alice#1 in the chain', stored: 'hit', replayed: 'none' };
    const ibj = voided(2000, { game: 'infinite-blackjack' });
    await expect(new VerifyRoundReplay(ibj).round(roundId)).resolves.toMatchObject({
      verdict: 'mismatch',
      mismatches: [...cards, outcome, decision],
    });
    const pok = voided(2000, { game: 'pok-deng' });
    await expect(new VerifyRoundReplay(pok).round(roundId)).resolves.toMatchObject({
      verdict: 'mismatch',
      mismatches: [...cards, outcome],
    });
  });
});
