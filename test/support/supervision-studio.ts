import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { CreateUser } from '../../src/auth/create-user/create-user.use-case';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { PtyPair } from '@studio/virtual-shoe';
import { TestShoe } from './console-browser';
import { postJson, startTestStudio, waitFor } from './studio-harness';
import { createTestDatabase, TestDatabase } from './test-database';

export const SUPERVISION_PLATFORM_KEY = 'supervision-platform-key';
export const RESCAN_LIMIT = 2;

/** The supervision console test's studio: three Pok Deng tables, each fed by a test shoe. */
export interface SupervisionStudio {
  db: TestDatabase;
  studio: RunningStudio;
  escalationShoe: TestShoe;
  approvalShoe: TestShoe;
  correctionShoe: TestShoe;
  close(): Promise<void>;
}

/**
 * Starts the service on a fresh database with void approval switched on, a second supervisor and
 * three tables read over real pseudo-terminals. The escalation shoe misreads every card exactly
 * RESCAN_LIMIT times; the test decides when a card reads cleanly.
 */
export async function startSupervisionStudio(): Promise<SupervisionStudio> {
  const ptyDir = mkdtempSync(join(tmpdir(), 'studio-supervision-'));
  const pty = (name: string) =>
    PtyPair.start(ptyDir, { shoe: `${name}.shoe`, reader: `${name}.reader` });
  const escalationShoe = new TestShoe(await pty('escalation'), 61, 1, RESCAN_LIMIT);
  const approvalShoe = new TestShoe(await pty('approval'), 62, 0);
  const correctionShoe = new TestShoe(await pty('correction'), 63, 0);
  const table = (id: string, name: string, reader: string, roundIntervalMs = 300) =>
    ({
      id,
      name,
      game: 'pok-deng',
      currency: 'THB',
      bettingWindowMs: 300_000,
      roundIntervalMs,
      rescan: { maxFailedAttempts: RESCAN_LIMIT, escalateAfterMs: 600_000 },
      scanner: { wireFormat: 'line', path: reader },
    }) as unknown as TableDefinition;
  const db = await createTestDatabase('consoles_supervision');
  const studio = await startTestStudio({
    databaseUrl: db.url,
    tables: [
      table('pd-escalation', 'Pok Deng Escalation', escalationShoe.pty.readerPath),
      // 5 s between rounds: the voided round's face-down cards stay on screen a while.
      table('pd-approval', 'Pok Deng Approval', approvalShoe.pty.readerPath, 5_000),
      table('pd-correction', 'Pok Deng Correction', correctionShoe.pty.readerPath),
    ],
    env: {
      DEMO_USERS: 'true',
      PLATFORM_API_KEYS: SUPERVISION_PLATFORM_KEY,
      VOID_REQUIRES_APPROVAL: 'true',
    },
  });
  const second = await studio.app
    .get(CreateUser)
    .execute({ username: 'supervisor2', role: 'supervisor', password: 'second-supervisor' });
  if (!second.ok) throw new Error('could not create the second supervisor');
  return {
    db,
    studio,
    escalationShoe,
    approvalShoe,
    correctionShoe,
    async close() {
      await studio.close();
      for (const shoe of [escalationShoe, approvalShoe, correctionShoe]) {
        await shoe.close().catch(() => undefined);
      }
      rmSync(ptyDir, { recursive: true, force: true });
      await db.drop();
    },
  };
}

/** Places a Pok Deng bet over the platform API and expects it accepted. */
export async function placeSupervisionBet(
  studio: RunningStudio,
  tableId: string,
  bet: Record<string, unknown>,
): Promise<void> {
  const answer = await postJson(
    studio.url,
    `/platform/tables/${tableId}/bets`,
    { currency: 'THB', betType: 'player', ...bet },
    { 'x-platform-key': SUPERVISION_PLATFORM_KEY },
  );
  if (answer.status !== 200 || (answer.body as { accepted?: boolean }).accepted !== true) {
    throw new Error(`bet refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

/** The supervisor console with one table selected, once its live stream has delivered it. */
export async function supervisorAt(page: Page, tableId: string, name: string): Promise<void> {
  await page.locator('#connection').getByText('live', { exact: true }).waitFor();
  await page.locator(`.tile[data-table="${tableId}"]`).click();
  await page.locator('#detail-title').getByText(name).waitFor();
}

/** Waits until the round is stored as completed. */
export async function roundCompleted(studio: RunningStudio, roundId: string): Promise<void> {
  await waitFor(`round ${roundId} to complete`, async () => {
    const [row] = (await studio.database.dataSource.query(
      `SELECT status FROM rounds WHERE id = $1`,
      [roundId],
    )) as { status: string }[];
    return row?.status === 'completed';
  });
}
