import type { GameKind } from '@studio/contracts';

/** One command a demo player sends through the platform HTTP API, after a human-like pause. */
export interface DemoCommand {
  path: 'bets' | 'decisions';
  body: Record<string, unknown>;
  delayMs: number;
  /** How long after the event that asked for it its window stays open (betting or decision). */
  windowMs: number;
}

/** A public table event as a platform would read it from the events topic. */
export interface DemoEvent {
  type: string;
  roundId: string | null;
  payload: Record<string, unknown>;
}

export interface DemoTable {
  tableId: string;
  game: GameKind;
  currency: string;
  /** The table's windows (games.md defaults 15 s and 10 s); BettingOpened also says its own. */
  bettingWindowMs?: number;
  decisionWindowMs?: number;
}

export interface DemoSettings {
  /** Players at an Infinite Blackjack table (hundreds: it has no seat limit). */
  infinitePlayers: number;
  /** Share of decisions never sent, so the table's auto-play shows. */
  silentShare: number;
}

export const DEFAULT_DEMO_SETTINGS: DemoSettings = { infinitePlayers: 200, silentShare: 0.15 };

const SEATS = [1, 2, 3, 4, 5, 6, 7];
const PRACTICE_PLAYER = 'demo-practice-1';
const DEFAULT_BETTING_WINDOW_MS = 15_000;
const DEFAULT_DECISION_WINDOW_MS = 10_000;
/** Players act within this share of a window, leaving the rest for their answers to arrive. */
const ACT_WITHIN = 0.6;

/**
 * What simulated players at one table do on each public event: which bets and decisions they send
 * and when. Pure apart from the injected random source, so it is unit-tested as it runs.
 */
export class DemoTableStrategy {
  /** Practice seat of our player in the current round. */
  private practiceSeat: number | null = null;
  /** The Infinite Blackjack round whose first decision window was answered. */
  private decidedRound: string | null = null;
  /** The betting window of the round now opening (from its BettingOpened event). */
  private bettingWindowMs: number;

  constructor(
    private readonly table: DemoTable,
    private readonly random: () => number,
    private readonly settings: DemoSettings = DEFAULT_DEMO_SETTINGS,
  ) {
    this.bettingWindowMs = table.bettingWindowMs ?? DEFAULT_BETTING_WINDOW_MS;
  }

  private get decisionWindowMs(): number {
    return this.table.decisionWindowMs ?? DEFAULT_DECISION_WINDOW_MS;
  }

  onEvent(event: DemoEvent): DemoCommand[] {
    if (!event.roundId) return [];
    if (event.type === 'BettingOpened') {
      const announced = event.payload.bettingWindowMs;
      this.bettingWindowMs =
        typeof announced === 'number' && announced > 0
          ? announced
          : (this.table.bettingWindowMs ?? DEFAULT_BETTING_WINDOW_MS);
      return this.bets(event.roundId, event.payload);
    }
    if (event.type === 'DecisionWindowOpened' && this.table.game === 'infinite-blackjack') {
      return this.infiniteDecisions(event.roundId, event.payload);
    }
    if (event.type === 'DecisionRequested') return this.seatDecision(event.roundId, event.payload);
    return [];
  }

  private bets(roundId: string, payload: Record<string, unknown>): DemoCommand[] {
    switch (this.table.game) {
      case 'pok-deng':
        return this.pokDengBets(roundId, payload);
      case 'infinite-blackjack':
        return this.infiniteBets(roundId, payload);
      case 'blackjack-lux':
        return this.luxBets(roundId);
      case 'european-blackjack-practice':
        return this.practiceBet(roundId, payload);
    }
  }

  /** Player bets on the spots, some with a pair bet on the same spot. */
  private pokDengBets(roundId: string, payload: Record<string, unknown>): DemoCommand[] {
    const spots = Array.isArray(payload.spots) ? payload.spots.map(String) : ['1', '2', '3'];
    const players = 4 + this.int(6);
    const commands: DemoCommand[] = [];
    for (let i = 1; i <= players; i += 1) {
      const playerId = `demo-pd-${i}`;
      const spot = spots[this.int(spots.length)];
      commands.push(this.bet(roundId, { playerId, betType: 'player', spot }, 1_000, 10));
      if (this.random() < 0.3) {
        commands.push(this.bet(roundId, { playerId, betType: 'pair', spot }, 1_000, 5));
      }
    }
    return commands;
  }

  /** Hundreds of players, a main bet each, a fifth also a side bet from those offered. */
  private infiniteBets(roundId: string, payload: Record<string, unknown>): DemoCommand[] {
    const offered = Array.isArray(payload.sideBetsOffered)
      ? payload.sideBetsOffered.map(String)
      : [];
    const commands: DemoCommand[] = [];
    for (let i = 1; i <= this.settings.infinitePlayers; i += 1) {
      const side =
        offered.length > 0 && this.random() < 0.2
          ? { sideBets: { [offered[this.int(offered.length)]]: 100 * (1 + this.int(5)) } }
          : {};
      commands.push(
        this.bet(roundId, { playerId: `demo-ibj-${i}`, betType: 'main', ...side }, 100, 20, 9_000),
      );
    }
    return commands;
  }

  /** Three to five seated players (some with pairs), then bets behind on their seats. */
  private luxBets(roundId: string): DemoCommand[] {
    const seats = this.shuffled(SEATS).slice(0, 3 + this.int(3));
    // Seat bets in the first half of the acting time, bets behind in the second.
    const half = Math.floor(this.actWithin(this.bettingWindowMs) / 2);
    const commands = seats.map((seat) =>
      this.bet(
        roundId,
        {
          playerId: `demo-lux-seat-${seat}`,
          betType: 'main',
          spot: String(seat),
          ...(this.random() < 0.3 ? { sideBets: { pairs: 100 * (1 + this.int(5)) } } : {}),
        },
        500,
        10,
        half,
      ),
    );
    const behind = 2 + this.int(3);
    for (let i = 1; i <= behind; i += 1) {
      const seat = seats[this.int(seats.length)];
      const command = this.bet(
        roundId,
        { playerId: `demo-lux-behind-${i}`, betType: 'bet-behind', spot: String(seat) },
        100,
        10,
        half - 200,
      );
      // Behind a seat only once its player sits there (seat bets go out in the first half).
      commands.push({ ...command, delayMs: command.delayMs + half });
    }
    return commands;
  }

  /** One practice player on a seat the bots left free. */
  private practiceBet(roundId: string, payload: Record<string, unknown>): DemoCommand[] {
    const bots = new Set(
      (Array.isArray(payload.bots) ? payload.bots : []).map((b) =>
        Number((b as { seat?: unknown }).seat),
      ),
    );
    const free = SEATS.filter((s) => !bots.has(s));
    this.practiceSeat = free.length > 0 ? free[this.int(free.length)] : null;
    if (this.practiceSeat === null) return [];
    const fields = { playerId: PRACTICE_PLAYER, betType: 'main', spot: String(this.practiceSeat) };
    return [this.bet(roundId, fields, 10, 10)];
  }

  /**
   * The first decision window of a round (every player on the one common hand; window numbers
   * also count the insurance window): most players decide, some say nothing and are auto-played.
   * Later windows are left to auto-play: which hand a player follows after that is not public.
   */
  private infiniteDecisions(roundId: string, payload: Record<string, unknown>): DemoCommand[] {
    if (this.decidedRound === roundId || !Array.isArray(payload.hands)) return [];
    this.decidedRound = roundId;
    const root = payload.hands.find((h) => (h as { node?: unknown }).node === 0) as
      { cards?: unknown; legal?: unknown } | undefined;
    if (!root) return [];
    const cards = Array.isArray(root.cards) ? root.cards.map(String) : [];
    const legal = Array.isArray(root.legal) ? root.legal.map(String) : ['hit', 'stand'];
    const commands: DemoCommand[] = [];
    for (let i = 1; i <= this.settings.infinitePlayers; i += 1) {
      if (this.random() < this.settings.silentShare) continue;
      commands.push(
        this.decision({ roundId, playerId: `demo-ibj-${i}`, action: this.choose(cards, legal) }),
      );
    }
    return commands;
  }

  /** Lux (our seated players) and practice (our seat): one decision per turn, sometimes none. */
  private seatDecision(roundId: string, p: Record<string, unknown>): DemoCommand[] {
    const seat = Number(p.seat);
    let playerId: string;
    if (this.table.game === 'blackjack-lux') {
      if (typeof p.playerId !== 'string' || !p.playerId.startsWith('demo-lux-')) return [];
      if (this.random() < this.settings.silentShare) return [];
      playerId = p.playerId;
    } else if (this.table.game === 'european-blackjack-practice') {
      if (seat !== this.practiceSeat) return [];
      playerId = PRACTICE_PLAYER;
    } else {
      return [];
    }
    const cards = Array.isArray(p.cards) ? p.cards.map(String) : [];
    const legal = Array.isArray(p.legalActions) ? p.legalActions.map(String) : ['hit', 'stand'];
    const action = this.choose(cards, legal);
    return [this.decision({ roundId, playerId, seat: String(seat), action }, 500, 3_500)];
  }

  /** Roughly sensible play: hit low totals, stand on high ones, double 10-11 now and then. */
  private choose(cards: readonly string[], legal: readonly string[]): string {
    const total = handTotal(cards);
    const can = (action: string) => legal.includes(action);
    if ((total === 10 || total === 11) && can('double') && this.random() < 0.5) return 'double';
    if (total >= 17 && can('stand')) return 'stand';
    if (total <= 11 && can('hit')) return 'hit';
    if (can('hit') && can('stand')) return this.random() < 0.5 ? 'hit' : 'stand';
    return can('stand') ? 'stand' : (legal[0] ?? 'stand');
  }

  /** A bet after a pause of 200 ms up to `withinMs`, inside the acting part of the window. */
  private bet(
    roundId: string,
    fields: Record<string, unknown>,
    unit: number,
    maxUnits: number,
    withinMs = 6_000,
  ): DemoCommand {
    const windowMs = this.bettingWindowMs;
    return {
      path: 'bets',
      body: {
        roundId,
        currency: this.table.currency,
        amount: unit * (1 + this.int(maxUnits)),
        ...fields,
      },
      delayMs: this.pause(200, Math.min(withinMs, this.actWithin(windowMs) - 200)),
      windowMs,
    };
  }

  /** A decision after a pause from `fromMs` up to `withinMs`, inside the acting part of the window. */
  private decision(body: Record<string, unknown>, fromMs = 300, withinMs = 5_300): DemoCommand {
    const windowMs = this.decisionWindowMs;
    const until = Math.min(withinMs, this.actWithin(windowMs));
    const from = Math.min(fromMs, until);
    return { path: 'decisions', body, delayMs: this.pause(from, until - from), windowMs };
  }

  private actWithin(windowMs: number): number {
    return Math.floor(windowMs * ACT_WITHIN);
  }

  private pause(fromMs: number, spreadMs: number): number {
    return fromMs + this.int(Math.max(1, spreadMs));
  }

  private int(n: number): number {
    return Math.floor(this.random() * n);
  }

  private shuffled<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

/** Best blackjack total of card codes like `AS`, `TD`, `9H` (an unknown code counts 0). */
export function handTotal(cards: readonly string[]): number {
  let total = 0;
  let aces = 0;
  for (const code of cards) {
    const rank = code[0];
    if (rank === 'A') {
      aces += 1;
      total += 1;
    } else if (rank !== undefined && 'TJQK'.includes(rank)) total += 10;
    else if (rank !== undefined && /[2-9]/.test(rank)) total += Number(rank);
  }
  return aces > 0 && total + 10 <= 21 ? total + 10 : total;
}
