import { readFileSync } from 'node:fs';
import type { RunningStudio } from '../../src/bootstrap';
import { ConsoleStreamHub } from '../../src/consoles/console-stream.hub';
import { slotText } from '../../src/consoles/public/names.js';
import { ConsoleBrowserKit, TestShoe } from '../support/console-browser';
import { postJson, signIn, waitFor } from '../support/studio-harness';
import {
  placeSupervisionBet,
  roundCompleted,
  RESCAN_LIMIT,
  startSupervisionStudio,
  SupervisionStudio,
  supervisorAt,
} from '../support/supervision-studio';

jest.setTimeout(180_000);

/**
 * The supervisor's and the auditor's consoles beyond the basics of consoles.e2e-spec.ts, in a real
 * chromium against the real service on the real PostgreSQL, every table's scanner fed over a real
 * pseudo-terminal: escalated rescans and their alerts, a void that needs a second supervisor, a
 * face-down card corrected through the page, and a completed round's replay verdict and CSV export.
 * Void approval is switched on for the whole service (VOID_REQUIRES_APPROVAL=true).
 */
describe('supervisor and auditor consoles: escalation, approval, correction, replay, export', () => {
  let setup: SupervisionStudio;
  let studio: RunningStudio;
  let escalationShoe: TestShoe;
  let approvalShoe: TestShoe;
  let correctionShoe: TestShoe;
  const kit = new ConsoleBrowserKit();

  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> =>
    studio.database.dataSource.query(sql, params);
  const placeBet = (tableId: string, bet: Record<string, unknown>) =>
    placeSupervisionBet(studio, tableId, bet);

  beforeAll(async () => {
    setup = await startSupervisionStudio();
    ({ studio, escalationShoe, approvalShoe, correctionShoe } = setup);
    await kit.start(studio.url, await signIn(studio.url, 'supervisor', 'supervisor-demo'));
  });

  afterAll(async () => {
    await kit.close();
    await setup?.close();
  });

  afterEach(() => {
    // A script error or a Content-Security-Policy violation shows up as a console error.
    expect(kit.pageErrors.splice(0)).toEqual([]);
  });

  it('alerts the supervisor when rescans escalate, tells the dealer the supervisor was called, and clears once resumed and read', async () => {
    const supervisor = await kit.signedIn('supervisor', 'supervisor-demo');
    await supervisorAt(supervisor, 'pd-escalation', 'Pok Deng Escalation');
    const dealer = await kit.signedIn('dealer', 'dealer-demo');
    await dealer.goto(`${studio.url}/console/dealer.html?table=pd-escalation`);
    await dealer.locator('#connection').getByText('live', { exact: true }).waitFor();

    const round = await kit.dealUntilRound(escalationShoe, 'pd-escalation');
    const slot = round.expectedCard!.slot;
    const alerts = supervisor.locator('#alerts');
    const tableAlerts = alerts.locator('li[data-table="pd-escalation"]:not([data-resolved])');
    const tile = supervisor.locator('.tile[data-table="pd-escalation"]');
    expect(await tableAlerts.count()).toBe(0);

    // The shoe misreads the card in hand until the table's limit.
    const first = escalationShoe.next();
    expect(first.kind).toBe('misread');
    await escalationShoe.write(first);
    await dealer
      .locator('#rescan-attempts')
      .getByText(`Attempt 1 of ${RESCAN_LIMIT} failed`, { exact: true })
      .waitFor();
    expect(await dealer.locator('#rescan').textContent()).not.toContain('Supervisor called');
    expect(await tableAlerts.count()).toBe(0);

    const last = escalationShoe.next();
    expect(last.kind).toBe('misread');
    await escalationShoe.write(last);

    // The dealer is told the supervisor was called, and the table stops.
    await dealer
      .locator('#rescan-attempts')
      .getByText(`Attempt ${RESCAN_LIMIT} of ${RESCAN_LIMIT} failed`, { exact: true })
      .waitFor();
    await dealer.locator('#rescan').getByText('Supervisor called').waitFor();
    await dealer
      .locator('#paused')
      .getByText(`PAUSED by scanner: Card not recognised after ${RESCAN_LIMIT} attempts`)
      .waitFor();
    expect(await dealer.locator('#fact-countdown').textContent()).toBe('stopped (paused)');
    await kit.screenshot(dealer, 'dealer-escalation');

    // The supervisor sees the table's alert (its state) and the alert event (the news), and the
    // tile is marked.
    await tableAlerts
      .and(supervisor.locator('[data-alert="escalation"]'))
      .getByText(
        `Pok Deng Escalation: Card not recognised after ${RESCAN_LIMIT} attempts: the rescan limit was reached; the round is paused`,
      )
      .waitFor();
    // The table's reason code reads as words, and every alert line has a time (UTC on hover).
    expect(await supervisor.locator('#alerts').textContent()).not.toContain('(attempts)');
    expect(await dealer.locator('#paused').textContent()).not.toContain('(attempts)');
    for (const title of await alerts
      .locator('li time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('title')))) {
      expect(title).toMatch(/ UTC$/);
    }
    await tableAlerts
      .and(supervisor.locator('[data-alert="rescan-limit"]'))
      .getByText(`${slotText(slot)} not recognised after ${RESCAN_LIMIT} attempts`)
      .waitFor();
    await tile.and(supervisor.locator('.alert')).waitFor();
    await tile.locator('.tile-phase').getByText('Paused').waitFor();
    await tile.getByText(`Rescan ×${RESCAN_LIMIT} (escalated)`).waitFor();
    await kit.screenshot(supervisor, 'supervisor-escalation');

    // What the pages show is what the service holds.
    const escalated = await kit.tableApi('pd-escalation');
    expect(escalated.paused).toMatchObject({ kind: 'escalation', by: 'scanner' });
    expect(escalated.rescan).toEqual({ attempts: RESCAN_LIMIT, escalated: true });
    expect(await q(`SELECT status FROM rounds WHERE id = $1`, [round.round!.id])).toEqual([
      { status: 'paused' },
    ]);
    const [alertEvent] = await q<{ payload: { kind: string; failedAttempts: number } }>(
      `SELECT payload FROM round_events WHERE table_id = 'pd-escalation' AND type = 'SupervisorAlert'`,
    );
    expect(alertEvent.payload).toMatchObject({ kind: 'rescan-limit', failedAttempts: 2 });

    // The supervisor resumes: the table waits for the same card, and the dealer's prompt is gone.
    await supervisor.locator('#resume').click();
    await supervisor.locator('#flash').getByText('Resumed').waitFor();
    await tile.locator('.tile-phase').getByText('Paused').waitFor({ state: 'detached' });
    await dealer.locator('#paused').waitFor({ state: 'hidden' });
    await dealer.locator('#rescan').waitFor({ state: 'hidden' });
    await dealer.locator(`#expected[data-slot="${slot}"]`).waitFor();
    await supervisor
      .locator('#action-log tr[data-action="resume"]')
      .getByText('Pok Deng Escalation')
      .waitFor();

    // The card reads cleanly this time: no alert is left for the table, the older one is
    // kept as resolved.
    const card = escalationShoe.next();
    expect(card.kind).toBe('card');
    await kit.dealCard(escalationShoe, 'pd-escalation', card);
    await dealer.locator(`#expected[data-slot="${slot}"]`).waitFor({ state: 'detached' });
    await waitFor('the table’s alerts to clear', async () => (await tableAlerts.count()) === 0);
    await alerts
      .locator('li[data-table="pd-escalation"][data-resolved][data-alert="rescan-limit"]')
      .getByText(/resolved$/)
      .waitFor();
    expect(await tile.evaluate((e) => e.classList.contains('alert'))).toBe(false);
    expect(await tile.getByText(/Rescan ×/).count()).toBe(0);
    const resolved = await kit.tableApi('pd-escalation');
    expect(resolved.paused).toBeNull();
    expect(resolved.rescan).toBeNull();
    expect(resolved.expectedCard?.slot).not.toBe(slot);
    const [taken] = await q<{ card: string }>(
      `SELECT card FROM round_cards WHERE round_id = $1 AND slot = $2`,
      [round.round!.id, slot],
    );
    expect(taken.card).toBe(card.card);
    expect(await q(`SELECT status FROM rounds WHERE id = $1`, [round.round!.id])).toEqual([
      { status: 'in-progress' },
    ]);
    await kit.screenshot(supervisor, 'supervisor-escalation-resolved');
    await dealer.context().close();
    await supervisor.context().close();
  });

  it('needs a second supervisor to approve a void, and refunds once approved', async () => {
    const round = await kit.dealUntilRound(approvalShoe, 'pd-approval');
    const roundId = round.round!.id;
    await placeBet('pd-approval', {
      commandId: 'a-1',
      playerId: 'carol',
      spot: '1',
      amount: 10_000,
    });
    for (let i = 0; i < 3; i += 1) {
      await kit.waitUntilCardExpected('pd-approval');
      await kit.dealCard(approvalShoe, 'pd-approval', approvalShoe.nextClean());
    }

    // Both supervisors have the console open before the request is made.
    const second = await kit.signedIn('supervisor2', 'second-supervisor');
    await supervisorAt(second, 'pd-approval', 'Pok Deng Approval');
    const first = await kit.signedIn('supervisor', 'supervisor-demo');
    await supervisorAt(first, 'pd-approval', 'Pok Deng Approval');

    await first.locator('#void').click();
    await first.getByLabel('Reason').fill('Dealer exposed a player card');
    await first.getByLabel('I confirm: void this round and refund every bet').check();
    await first.locator('#ask-confirm').click();
    await first
      .locator('#flash')
      .getByText(/^Void requested \(#\d+\): a second supervisor must approve it\.$/)
      .waitFor();
    const [request] = await q<{ id: string; status: string; actor_name: string }>(
      `SELECT id, status, actor_name FROM supervisor_actions WHERE table_id = 'pd-approval' AND action = 'void'`,
    );
    expect(request).toMatchObject({ status: 'pending-approval', actor_name: 'supervisor' });
    expect(await first.locator('#flash').textContent()).toContain(`#${request.id}`);

    // Nothing is voided yet.
    expect(await q(`SELECT status FROM rounds WHERE id = $1`, [roundId])).toEqual([
      { status: 'in-progress' },
    ]);
    expect((await kit.tableApi('pd-approval')).round?.id).toBe(roundId);
    expect(await q(`SELECT id FROM settlements WHERE round_id = $1`, [roundId])).toEqual([]);

    // The requester sees it pending, and why they cannot approve it themselves.
    const pending = first.locator('#detail .pending');
    await pending.getByText('Void requests waiting for a second supervisor').waitFor();
    await pending
      .getByText(`#${request.id} by supervisor`)
      .getByText('(another supervisor must approve)')
      .waitFor();
    expect(await pending.textContent()).toContain('Dealer exposed a player card');
    expect(await first.locator(`#approve-${request.id}`).count()).toBe(0);
    await first
      .locator('#action-log tr[data-action="void"][data-status="pending-approval"]')
      .getByText('Dealer exposed a player card')
      .waitFor();
    await kit.screenshot(first, 'supervisor-approval-pending');
    // The service refuses it too, whatever the page shows.
    const selfApproval = await postJson(
      studio.url,
      `/tables/pd-approval/void-requests/${request.id}/approve`,
      {},
      { authorization: `Bearer ${await kit.tokenOf(first)}` },
    );
    expect(selfApproval.status).toBeGreaterThanOrEqual(400);
    expect(selfApproval.body.error).toBe('second-supervisor-required');
    expect(await q(`SELECT status FROM rounds WHERE id = $1`, [roundId])).toEqual([
      { status: 'in-progress' },
    ]);

    // The second supervisor's open console shows the request with an Approve button.
    const approve = second.locator(`#approve-${request.id}`);
    await approve.waitFor();
    await approve.click();
    await second.locator('#ask-confirm').click();
    await second
      .getByRole('alert')
      .getByText(/Tick “I confirm the void”/)
      .waitFor();
    await second.getByLabel('I confirm the void').check();
    await second.locator('#ask-confirm').click();
    await second.locator('#flash').getByText('Void approved: every bet refunded').waitFor();
    // The voided round's cards stay on screen until the next round, face down (never revealed),
    // but the round is over: there is no card left to correct, and the button says so.
    await second
      .locator('#detail-cards-of')
      .getByText('Cards of the round that just ended:')
      .waitFor();
    expect(await second.locator('#detail .card.face.hidden-to-table').count()).toBeGreaterThan(0);
    expect(await second.locator('#correct').isDisabled()).toBe(true);

    const applied = second.locator('#action-log tr[data-action="void"][data-status="applied"]');
    await applied.getByText('supervisor, approved by supervisor2').waitFor();
    await second
      .locator('tr.refunds .refund-list li[data-player="carol"]')
      .getByText('refunded 200.00 THB')
      .waitFor();
    // The requester's console drops the pending request once it is applied.
    await first.locator('#detail .pending').waitFor({ state: 'detached' });
    await first
      .locator('#action-log tr[data-action="void"][data-status="applied"]')
      .getByText('supervisor, approved by supervisor2')
      .waitFor();
    await kit.screenshot(second, 'supervisor-approved');

    expect(await q(`SELECT status, void_reason FROM rounds WHERE id = $1`, [roundId])).toEqual([
      { status: 'voided', void_reason: 'Dealer exposed a player card' },
    ]);
    const refunds = await q<{ player_id: string; returned: string; outcome: string }>(
      `SELECT player_id, returned, outcome FROM settlements WHERE round_id = $1`,
      [roundId],
    );
    // A Pok Deng player bet deducts twice its amount, and the void returns all of it.
    expect(refunds.map((r) => [r.player_id, Number(r.returned), r.outcome])).toEqual([
      ['carol', 20_000, 'void-refund'],
    ]);
    expect(
      await q(
        `SELECT a.status, u.username AS approved_by FROM supervisor_actions a
           JOIN users u ON u.id = a.approved_by_user_id WHERE a.id = $1`,
        [request.id],
      ),
    ).toEqual([{ status: 'applied', approved_by: 'supervisor2' }]);
    await first.context().close();
    await second.context().close();
  });

  let correctedRoundId: string;
  let correction: { slot: string; from: string; to: string };

  it('lets a supervisor correct a face-down card through the page', async () => {
    const round = await kit.dealUntilRound(correctionShoe, 'pd-correction');
    correctedRoundId = round.round!.id;
    await placeBet('pd-correction', {
      commandId: 'k-1',
      playerId: 'dave',
      spot: '1',
      amount: 10_000,
    });
    // The round's burn card, then Player 1's first card (face down, not yet revealed).
    for (let i = 0; i < 3; i += 1) {
      await kit.waitUntilCardExpected('pd-correction');
      await kit.dealCard(correctionShoe, 'pd-correction', correctionShoe.nextClean());
    }
    const [dealt] = await q<{ card: string; face_down: boolean; revealed_at: string | null }>(
      `SELECT card, face_down, revealed_at FROM round_cards WHERE round_id = $1 AND slot = 'player-1/1'`,
      [correctedRoundId],
    );
    expect(dealt).toMatchObject({ face_down: true, revealed_at: null });
    const replacement = dealt.card === 'KH' ? 'QS' : 'KH';
    correction = { slot: 'player-1/1', from: dealt.card, to: replacement };

    const page = await kit.signedIn('supervisor', 'supervisor-demo');
    await supervisorAt(page, 'pd-correction', 'Pok Deng Correction');
    const slotCard = page.locator('#detail .card[data-slot="player-1/1"]');
    await slotCard.and(page.locator(`[data-card="${dealt.card}"]`)).waitFor();

    await page.locator('#correct').click();
    await page.getByLabel('Slot').selectOption('player-1/1');
    // A card code that is not one is refused in the dialog, with the expected form.
    await page.getByLabel('Correct card').fill('1H');
    await page.getByLabel('Reason').fill('Scanner read the wrong card');
    await page.locator('#ask-confirm').click();
    await page
      .getByRole('alert')
      .getByText('Correct card: rank then suit, e.g. QH or 7S.')
      .waitFor();
    await page.getByLabel('Correct card').fill(replacement.toLowerCase());
    await page.locator('#ask-confirm').click();
    // Whatever the service answered, say it (a refusal is shown in the same line).
    await page.locator('#flash.ok, #flash.error').waitFor();
    expect(await page.locator('#flash').textContent()).toBe('Player 1, card 1 corrected');

    await slotCard.and(page.locator(`[data-card="${replacement}"]`)).waitFor();
    // The corrected card stays in its slot's place among the cards: by hand, each hand's cards
    // in dealing order, the hands in the order of their first card.
    const slots = await page
      .locator('#detail .card[data-slot]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-slot')));
    const dealingOrder = await q<{ slot: string }>(
      `SELECT slot FROM round_cards WHERE round_id = $1 GROUP BY slot ORDER BY min(id)`,
      [correctedRoundId],
    );
    const handOf = (slot: string) => slot.split('/')[0];
    const hands = [...new Set(dealingOrder.map((c) => handOf(c.slot)))];
    expect(slots).toEqual(
      hands.flatMap((h) => dealingOrder.filter((c) => handOf(c.slot) === h).map((c) => c.slot)),
    );
    expect(await page.locator('#detail .hand[data-hand="player-1"] .card').count()).toBe(
      dealingOrder.filter((c) => handOf(c.slot) === 'player-1').length,
    );
    const logged = page.locator('#action-log tr[data-action="correct-card"]');
    await logged.getByText('Correct card: Player 1, card 1').waitFor();
    expect(await logged.textContent()).toContain('Scanner read the wrong card');
    await kit.screenshot(page, 'supervisor-correction');

    const rows = await q<{
      id: string;
      card: string;
      corrected_by_id: string | null;
      correction_reason: string | null;
    }>(
      `SELECT id, card, corrected_by_id, correction_reason FROM round_cards
        WHERE round_id = $1 AND slot = 'player-1/1' ORDER BY id`,
      [correctedRoundId],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ card: dealt.card, corrected_by_id: rows[1].id });
    expect(rows[1]).toMatchObject({
      card: replacement,
      corrected_by_id: null,
      correction_reason: 'Scanner read the wrong card',
    });
    await page.context().close();
  });

  it('shows the auditor a completed round’s replay verdict and exports the range as CSV', async () => {
    // Finish the corrected round: the remaining cards, then betting closes and it settles.
    await kit.dealRestOfRound(correctionShoe, 'pd-correction');
    const closed = await postJson(
      studio.url,
      '/tables/pd-correction/close-betting',
      {},
      { authorization: `Bearer ${await signIn(studio.url, 'dealer', 'dealer-demo')}` },
    );
    expect(closed.status).toBeLessThan(300);
    await roundCompleted(studio, correctedRoundId);
    const [settled] = await q<{ stake: string; returned: string; net: string }>(
      `SELECT stake, returned, net FROM settlements WHERE round_id = $1`,
      [correctedRoundId],
    );
    expect(settled).toBeDefined();

    const page = await kit.signedIn('auditor', 'auditor-demo');
    await page.getByLabel('Table').selectOption('pd-correction');
    await page.getByLabel('Status').selectOption('completed');
    await page.locator('#search').click();
    const row = page.locator(`#round-results tr[data-round="${correctedRoundId}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: 'Open timeline' }).click();
    await page.locator('#fact-round-status').getByText('Completed', { exact: true }).waitFor();
    const replay = page.locator('#fact-replay');
    await replay.waitFor();
    expect(await replay.textContent()).toBe('match (1 settlement recomputed)');
    expect(await replay.getAttribute('class')).toBe('ok');
    // The corrected card is drawn with its correction, next to the card it replaced.
    const corrected = page.locator('#round-cards figure.corrected');
    await corrected.getByText('Player 1, card 1').first().waitFor();
    expect(
      await page
        .locator('#round-cards figure')
        .filter({ hasText: 'Player 1, card 1' })
        .locator('.card')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-card'))),
    ).toEqual([correction.from, correction.to]);
    await kit.screenshot(page, 'auditor-replay');

    // Export CSV of a time range around now (the form reads its times as UTC).
    const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19);
    await page.getByLabel('From (UTC)').fill(utc(Date.now() - 3_600_000));
    await page.getByLabel('To (UTC)').fill(utc(Date.now() + 3_600_000));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#export-csv').click(),
    ]);
    expect(download.suggestedFilename()).toBe('rounds.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'roundId,tableId,game,shoeId,shoeNumber,roundNumber,status,startedAt,endedAt,voidReason,platformId,currency,bets,staked,returned,net',
    );
    const line = lines.find((l) => l.startsWith(`${correctedRoundId},`));
    expect(line).toBeDefined();
    const cells = line!.split(',');
    expect(cells.slice(1, 3)).toEqual(['pd-correction', 'pok-deng']);
    expect(cells[6]).toBe('completed');
    expect(cells.slice(12)).toEqual(['1', settled.stake, settled.returned, settled.net]);
    // The table and status filters apply to the export too.
    expect(lines.slice(1).every((l) => l.split(',')[1] === 'pd-correction')).toBe(true);
    await page.locator('#flash').getByText('Export (CSV) downloaded').waitFor();
    // The network drops: the search says so in words, not the browser's "Failed to fetch".
    await page.route('**/audit/rounds?*', (route) => route.abort('internetdisconnected'));
    await page.locator('#search').click();
    await page
      .locator('#flash')
      .getByText('The service does not answer: check the network, then try again')
      .waitFor();
    kit.forgive('ERR_INTERNET_DISCONNECTED');
    await page.context().close();

    // Every console of this file is closed: the service has dropped all their streams.
    const hub = studio.app.get(ConsoleStreamHub);
    await waitFor('the closed consoles’ streams to be dropped', async () => hub.connections === 0);
  });
});
