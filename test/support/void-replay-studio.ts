import { CreateUser } from '../../src/auth/create-user/create-user.use-case';
import type { RoundVerdict } from '../../src/audit/verify-round-replay/verify-round-replay.use-case';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { postJson, shoeDealtByTheTest, startTestStudio, waitFor } from './studio-harness';
import { createTestDatabase, TestDatabase } from './test-database';

/**
 * The void-replay e2e files' studio: one table of each game whose rounds wait for the test (a
 * minute of betting, cards dealt by the virtual dealer from a shoe that deals only when asked),
 * so a test can void a round at the point it chooses, then replay it as an auditor would.
 */

export const VOID_PLATFORM_KEY = 'void-replay-platform-key';

/** The table of `game` in a file's studio (`<game>-<suffix>`). */
export function voidTable(
  game: 'infinite-blackjack' | 'blackjack-lux' | 'pok-deng' | 'european-blackjack-practice',
  suffix: string,
  seed: number,
  decisionWindowMs = 60_000,
): TableDefinition {
  const practice = game === 'european-blackjack-practice';
  const currency = { 'pok-deng': 'THB', 'european-blackjack-practice': 'XPT' }[game as string];
  return {
    id: `${game}-${suffix}`,
    name: `${game} ${suffix}`,
    game,
    currency: currency ?? 'EUR',
    bettingWindowMs: 60_000,
    decisionWindowMs,
    roundIntervalMs: 100,
    ...(practice
      ? { rules: { bots: [{ seat: 1, level: 'hard' }] } }
      : {
          scanner: {
            wireFormat: game === 'pok-deng' ? 'line' : 'studio-framed-v1',
            virtualShoe: shoeDealtByTheTest(seed),
          },
        }),
  } as unknown as TableDefinition;
}

export interface TableRound {
  id: string;
  phase: string;
  bettingOpen: boolean;
  view: { window?: number; turn?: number | null };
}

type Headers = Record<string, string>;

/**
 * Registers the file's beforeAll (its own database, the studio with `tables`, a second supervisor)
 * and afterAll; returns the helpers its tests call.
 */
export function useVoidReplayStudio(
  label: string,
  tables: TableDefinition[],
  env: Record<string, string> = {},
) {
  let db: TestDatabase | undefined;
  let studio: RunningStudio | undefined;
  const as: Record<'supervisor' | 'supervisor2' | 'auditor', Headers> = {
    supervisor: {},
    supervisor2: {},
    auditor: {},
  };
  const running = () => {
    if (!studio) throw new Error('the void-replay studio has not started');
    return studio;
  };
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    running().database.dataSource.query(sql, params);
  const post = (path: string, body: unknown, headers: Headers = as.supervisor) =>
    postJson(running().url, path, body, headers);
  const platform = { 'x-platform-key': VOID_PLATFORM_KEY };

  async function table(tableId: string): Promise<TableRound | null> {
    const response = await fetch(`${running().url}/tables/${tableId}`, {
      headers: as.supervisor,
    });
    return ((await response.json()) as { round: TableRound | null }).round;
  }

  /** The table's round in betting (one not in `not`). */
  const bettingRound = (tableId: string, not: string[] = []) =>
    waitFor(
      `${tableId} to open betting`,
      async () => {
        const round = await table(tableId);
        return round?.bettingOpen && !not.includes(round.id) ? round : undefined;
      },
      30_000,
      50,
    );

  async function status(roundId: string): Promise<string | undefined> {
    const [row] = await q<{ status: string }>(`SELECT status FROM rounds WHERE id = $1`, [roundId]);
    return row?.status;
  }

  /** Each bet placed over the platform API, every one accepted; their betIds. */
  async function bet(tableId: string, bets: object[]): Promise<string[]> {
    const ids: string[] = [];
    for (const b of bets) {
      const r = await post(`/platform/tables/${tableId}/bets`, b, platform);
      expect(r.body).toMatchObject({ accepted: true });
      ids.push((r.body.reply as { betId: string }).betId);
    }
    return ids;
  }

  /** Cancels the player's bet (betting still open). */
  async function cancel(tableId: string, betId: string, playerId: string): Promise<void> {
    const path = `/platform/tables/${tableId}/bets/${encodeURIComponent(betId)}/cancel`;
    expect((await post(path, { playerId }, platform)).body).toMatchObject({ accepted: true });
  }

  const decide = (tableId: string, decision: object) =>
    post(`/platform/tables/${tableId}/decisions`, decision, platform);

  async function closeBetting(tableId: string): Promise<void> {
    expect((await post(`/tables/${tableId}/close-betting`, {})).body).toMatchObject({
      accepted: true,
    });
  }

  /** Voids the round at once (approval off) or asks for it (approval on). */
  async function voidRound(tableId: string, roundId: string, reason: string, by = as.supervisor) {
    const r = await post(`/tables/${tableId}/void`, { reason, roundId }, by);
    expect(r.body).toMatchObject({ accepted: true });
    return r.body.reply as { requestId?: string } | undefined;
  }

  /** Waits until the round has ended (voided or completed) and returns its status. */
  const ended = (roundId: string) =>
    waitFor(
      `round ${roundId} to end`,
      async () => {
        const s = await status(roundId);
        return s === 'voided' || s === 'completed' ? s : undefined;
      },
      30_000,
      50,
    );

  /** The auditor's replay verdict of the round (GET /audit/rounds/:id/replay). */
  async function replay(roundId: string): Promise<RoundVerdict> {
    const response = await fetch(`${running().url}/audit/rounds/${roundId}/replay`, {
      headers: as.auditor,
    });
    expect(response.status).toBe(200);
    return (await response.json()) as RoundVerdict;
  }

  beforeAll(async () => {
    db = await createTestDatabase(label);
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables,
      env: {
        DEMO_USERS: 'true',
        PLATFORM_API_KEYS: VOID_PLATFORM_KEY,
        VIRTUAL_DEALER_PACE_MS: '120',
        ...env,
      },
    });
    const created = await studio.app
      .get(CreateUser)
      .execute({ username: 'supervisor2', role: 'supervisor', password: 'second-supervisor' });
    expect(created.ok).toBe(true);
    for (const [user, password] of [
      ['supervisor', 'supervisor-demo'],
      ['supervisor2', 'second-supervisor'],
      ['auditor', 'auditor-demo'],
    ] as const) {
      const { body } = await post('/auth/login', { username: user, password }, {});
      as[user] = { authorization: `Bearer ${body.token as string}` };
    }
  });

  afterAll(async () => {
    await studio?.close();
    await db?.drop();
  });

  return {
    q,
    post,
    as,
    table,
    bettingRound,
    status,
    bet,
    cancel,
    decide,
    closeBetting,
    voidRound,
    ended,
    replay,
  };
}
