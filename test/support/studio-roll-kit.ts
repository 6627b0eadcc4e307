import type { CommandMessage, CommandResultMessage, EventEnvelope } from '@studio/contracts';
import type { ShoeWriter, TcpShoeServer } from '@studio/virtual-shoe';
import type { ServiceProcess } from './service-process';
import { waitFor, writeTablesFile } from './studio-harness';
import type { TcpProxy } from './tcp-proxy';

/** Twelve tables, Pok Deng and Infinite Blackjack alternately. */
export const ROLL_TABLES = Array.from({ length: 12 }, (_, i) =>
  i % 2 === 0
    ? { id: `roll-pd-${i}`, game: 'pok-deng' as const, currency: 'THB' }
    : { id: `roll-ibj-${i}`, game: 'infinite-blackjack' as const, currency: 'EUR' },
);

export interface RollInstance {
  id: string;
  service: ServiceProcess;
  url: string;
  token: string;
}

/** What GET /tables says of a table, as far as the dealers of the test need it. */
export interface RollTableView {
  tableId: string;
  driven: boolean;
  expectedCard: { slot: string } | null;
  paused: unknown;
  shoe: { number: number; cardsDrawn: number; lastRoundNumber: number | null } | null;
  round: { phase: string } | null;
}

/** Cards of an 8-deck shoe after which the dealer draws the cut card, as a real dealer would. */
export const CUT_CARD_AT = Math.floor(8 * 52 * 0.7);

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** The tables file: every table reads its shoe over TCP from the device server on `port(id)`. */
export function rollTablesFile(port: (tableId: string) => number): string {
  return writeTablesFile(
    ROLL_TABLES.map((t) => ({
      id: t.id,
      name: t.id,
      game: t.game,
      currency: t.currency,
      // 3 s, as the studio-roll measurement of issue 27 used: a platform's bet sent when betting
      // opens must not be late because an instance restarted.
      bettingWindowMs: 3_000,
      decisionWindowMs: 1_500,
      roundIntervalMs: 300,
      scanner: { wireFormat: 'studio-framed-v1', path: `tcp://127.0.0.1:${port(t.id)}` },
    })) as never,
  );
}

/** A supervisor's token on the instance at `url` (demo users). */
export async function supervisorToken(url: string): Promise<string> {
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'supervisor', password: 'supervisor-demo' }),
  });
  return ((await login.json()) as { token: string }).token;
}

/** GET /tables from the first running instance that answers (one may be stopping). */
export async function tableViews(instances: Iterable<RollInstance>): Promise<RollTableView[]> {
  for (const instance of instances) {
    try {
      const response = await fetch(`${instance.url}/tables`, {
        headers: { authorization: `Bearer ${instance.token}` },
      });
      if (response.ok) return (await response.json()) as RollTableView[];
    } catch {
      // that instance is stopping: ask the next
    }
  }
  return [];
}

/** The reasons of a pause at a takeover without a handover (what a graceful roll must not cause). */
export const TAKEOVER_PAUSES = [
  'The service restarted while a card was expected%',
  'The previous owner stopped driving this table without handing it over%',
  '%sent while no instance drove the table%',
  'The first frame read after the takeover%',
];

/** A table's shoe at its device server, and what the dealer dealt from it. */
export interface RollShoe {
  server: TcpShoeServer;
  writer: ShoeWriter;
  dealt: number;
  /** Cards dealt from each shoe number (1, 2, …) of this table. */
  perShoe: number[];
  shoeNumber: number;
  cutAsked: number;
}

type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/**
 * The dealers of every table: a card whenever a table expects one and has stored (and applied)
 * every card dealt so far; a fresh shoe when the table starts one; the cut card when due.
 */
export class RollDealers {
  private dealing = true;

  constructor(
    private readonly shoes: Map<string, RollShoe>,
    private readonly views: () => Promise<RollTableView[]>,
    private readonly q: Query,
    private readonly running: Map<string, RollInstance>,
  ) {}

  stop(): void {
    this.dealing = false;
  }

  async run(): Promise<void> {
    while (this.dealing) {
      const [current, stored] = await Promise.all([
        this.views(),
        this.q<{ table_id: string; stored: number; decided: number }>(
          `SELECT table_id, count(*)::int AS stored,
                  count(*) FILTER (WHERE outcome <> 'recorded')::int AS decided
             FROM scanner_readings WHERE kind = 'card' GROUP BY table_id`,
        ),
      ]);
      for (const view of current) {
        const shoe = this.shoes.get(view.tableId);
        if (!shoe || !view.shoe || view.paused) continue;
        await this.tend(view, shoe);
        const row = stored.find((s) => s.table_id === view.tableId);
        if (!view.expectedCard) continue;
        if ((row?.stored ?? 0) !== shoe.dealt || (row?.decided ?? 0) !== shoe.dealt) continue;
        await shoe.writer.dealNext();
        shoe.dealt += 1;
        shoe.perShoe[shoe.shoeNumber - 1] = (shoe.perShoe[shoe.shoeNumber - 1] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, 60));
    }
  }

  /** A new shoe in the reader when the table started one; the cut card when the shoe is low. */
  private async tend(view: RollTableView, shoe: RollShoe): Promise<void> {
    if (view.shoe!.number !== shoe.shoeNumber) {
      shoe.shoeNumber = view.shoe!.number;
      await shoe.writer.newShoe(view.shoe!.number);
    }
    if (
      !view.round ||
      view.shoe!.lastRoundNumber !== null ||
      view.shoe!.cardsDrawn < CUT_CARD_AT ||
      Date.now() - shoe.cutAsked <= 2_000
    ) {
      return;
    }
    shoe.cutAsked = Date.now();
    // The dealer's console is on the instance driving the table.
    for (const instance of this.running.values()) {
      const response = await fetch(`${instance.url}/tables/${view.tableId}/cut-card`, {
        method: 'POST',
        headers: { authorization: `Bearer ${instance.token}` },
      }).catch(() => undefined);
      if (response?.ok) break;
    }
  }
}

/**
 * The database cut for 30 s, then hanging (connections open, nothing answered) for 20 s, each
 * followed by a wait until every table is held again (`allHeld`) and 10 s of play.
 */
export async function databaseFaults(
  proxy: TcpProxy,
  phase: (name: string) => void,
  allHeld: () => Promise<boolean>,
): Promise<void> {
  for (const [name, fault, ms] of [
    ['outage', () => proxy.cut(), 30_000],
    ['hang', () => proxy.hang(), 20_000],
  ] as const) {
    phase(name);
    fault();
    await new Promise((r) => setTimeout(r, ms));
    proxy.restore();
    phase(`after ${name}`);
    await waitFor(`every table held again after the ${name}`, allHeld, 60_000, 500);
    await new Promise((r) => setTimeout(r, 10_000));
  }
}

/**
 * The platform's answers counted by code (a repeat only as a duplicate of the first answer, with
 * the same status), and the bets refused as `betting-closed` by the phase they were sent in.
 */
export function tallyAnswers(
  answers: Map<string, CommandResultMessage[]>,
  phaseOf: Map<string, string>,
) {
  const codes = new Map<string, number>();
  const closedByPhase = new Map<string, number>();
  let repeated = 0;
  for (const [commandId, list] of answers) {
    const first = list.find((a) => !a.duplicate) ?? list[0];
    const code = first.status === 'accepted' ? 'accepted' : first.code!;
    codes.set(code, (codes.get(code) ?? 0) + 1);
    if (code === 'betting-closed') {
      const p = phaseOf.get(commandId)!;
      closedByPhase.set(p, (closedByPhase.get(p) ?? 0) + 1);
    }
    if (list.length > 1) {
      repeated += 1;
      expect(list.filter((a) => !a.duplicate).length).toBeLessThanOrEqual(1);
      for (const a of list) expect(a.status).toBe(first.status);
    }
  }
  return { codes, closedByPhase, repeated };
}

/** How long before betting closed a bet counts as sent in time, whatever the load. */
const IN_TIME_MS = 1_000;

/**
 * Where the time of a bet refused `betting-closed` went: from the round's BettingOpened (its
 * `occurredAt`) to the platform seeing it, to the bet being sent, to its answer; and when betting
 * closed. It tells a late event (the relay) from a late command (the intake).
 */
export class LateBets {
  private readonly openedAt = new Map<string, { at: number; seen: number }>();
  private readonly closedAt = new Map<string, number>();
  private readonly bets = new Map<string, { tableId: string; roundId: string; sent: number }>();
  readonly lines: string[] = [];

  event(envelope: EventEnvelope): void {
    if (!envelope.roundId) return;
    const at = Date.parse(envelope.occurredAt);
    if (envelope.type === 'BettingOpened') {
      this.openedAt.set(envelope.roundId, { at, seen: Date.now() });
    } else if (envelope.type === 'BettingClosed') this.closedAt.set(envelope.roundId, at);
  }

  sent(command: CommandMessage): void {
    const c = command as CommandMessage & { roundId?: string };
    if (c.type === 'PlaceBet' && c.roundId) {
      this.bets.set(c.commandId, { tableId: c.tableId, roundId: c.roundId, sent: Date.now() });
    }
  }

  private readonly refused: Array<{ label: string; roundId: string; sent: number }> = [];

  /**
   * Bets refused betting-closed although sent at least IN_TIME_MS before their table closed
   * betting (by its BettingClosed event): lost to the studio's plumbing (a restart, a rebalance),
   * not to the platform's timing. Asked once every event is in; only rounds whose betting closed
   * before `before` (epoch ms), or never.
   */
  refusedThoughInTime(before: number): string[] {
    return this.refused
      .filter((r) => {
        const closed = this.closedAt.get(r.roundId);
        return closed === undefined || (closed < before && r.sent < closed - IN_TIME_MS);
      })
      .map(
        (r) => `${r.label} (BettingClosed ${this.closedAt.has(r.roundId) ? 'seen' : 'never seen'})`,
      );
  }

  answered(result: CommandResultMessage, phase: string): void {
    const bet = this.bets.get(result.commandId);
    if (result.code !== 'betting-closed' || !bet) return;
    const opened = this.openedAt.get(bet.roundId);
    const closed = this.closedAt.get(bet.roundId);
    this.refused.push({
      label: `${phase} ${bet.tableId} ${result.commandId}`,
      roundId: bet.roundId,
      sent: bet.sent,
    });
    if (this.lines.length >= 12) return;
    const ms = (from?: number, to?: number) =>
      from === undefined || to === undefined ? '?' : `${to - from} ms`;
    const round = `${phase} ${bet.tableId} round ${bet.roundId.slice(0, 8)}`;
    this.lines.push(
      `${round}: opened→seen ${ms(opened?.at, opened?.seen)}, ` +
        `seen→sent ${ms(opened?.seen, bet.sent)}, sent→answered ${ms(bet.sent, Date.now())}, ` +
        `opened→closed ${ms(opened?.at, closed)}`,
    );
  }
}
