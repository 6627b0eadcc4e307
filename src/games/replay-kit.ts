import type { CardCode } from '@studio/cards';
import type {
  AdapterRejection,
  AdapterResult,
  AdapterStep,
  GameAdapter,
  HandRecord,
  SettlementRecord,
} from './game-adapter';

/*
 * The game-independent parts of a round replay, shared by each game's own replay
 * (`<game>/<game>.replay.ts`). Pure: the stored round is plain data read by the caller.
 */

/**
 * One stored round as the replay needs it: what was bet, which cards were dealt to which slot (the
 * corrected card where a supervisor corrected one), what each player decided, and what was paid.
 * Plain data read from the database; the replay itself does no I/O.
 */
export interface StoredRound {
  roundId: string;
  game: string;
  shoeNumber: number;
  roundNumber: number;
  bets: Array<{
    id: string;
    playerId: string;
    betType: string;
    spot: string | null;
    amount: number;
    /** The bet's currency (a table of several holds each bet to its currency's limits). */
    currency?: string;
  }>;
  cards: Array<{ slot: string; card: CardCode }>;
  decisions: StoredDecision[];
  settlements: SettlementRecord[];
  /** The round_hands rows; empty for rounds stored before hands were recorded. */
  hands: HandRecord[];
}

export interface StoredDecision {
  playerId: string;
  hand: string | null;
  action: string;
  automatic: boolean;
  /** The window it was taken in, for a game that numbers its windows; null if not recorded. */
  window?: number | null;
}

export interface ReplayedRound {
  settlements: SettlementRecord[];
  /** Decisions the engine took itself (bots, auto-play) when the game records them. */
  decisions: StoredDecision[];
  roundOver: boolean;
  finalState: unknown;
  /** Every hand with its cards, total and result, when the game's adapter lists them. */
  hands: HandRecord[] | null;
}

/** Stops a replay at the first step the engine refuses; caught in replayStoredRound. */
export class ReplayRefused extends Error {
  constructor(
    readonly step: string,
    readonly rejection: AdapterRejection | { code: string; message: string },
  ) {
    super(`${step}: ${rejection.code}`);
  }
}

export function ok<S>(r: AdapterResult<S>, step: string): AdapterStep<S> {
  if ('rejected' in r) throw new ReplayRefused(step, r.rejected);
  return r;
}

/** Accumulates settlements and engine-made decisions of each step, tracking the state. */
export class Recorder {
  readonly settlements: SettlementRecord[] = [];
  readonly decisions: StoredDecision[] = [];
  constructor(public state: unknown) {}

  apply(r: AdapterResult<unknown>, step: string): void {
    const s = ok(r, step);
    this.settlements.push(...(s.settlements ?? []));
    this.decisions.push(
      ...(s.decisions ?? []).map((d) => ({
        playerId: d.playerId,
        hand: d.hand,
        action: d.action,
        automatic: d.automatic,
      })),
    );
    this.state = s.state;
  }

  result(adapter: GameAdapter): ReplayedRound {
    return {
      settlements: this.settlements,
      decisions: this.decisions,
      roundOver: adapter.isRoundOver(this.state),
      finalState: this.state,
      hands: adapter.hands ? adapter.hands(this.state) : null,
    };
  }
}

export function startReplay(adapter: GameAdapter, round: StoredRound): Recorder {
  const r = ok(
    adapter.startRound({
      roundId: round.roundId,
      shoeNumber: round.shoeNumber,
      roundNumber: round.roundNumber,
    }),
    'start',
  );
  return new Recorder(r.state);
}

export function placeEach(
  adapter: GameAdapter,
  rec: Recorder,
  round: StoredRound,
  bets: StoredRound['bets'],
) {
  for (const b of bets) {
    rec.apply(
      adapter.placeBet(
        rec.state,
        {
          betId: b.id,
          playerId: b.playerId,
          betType: b.betType,
          spot: b.spot ?? undefined,
          amount: b.amount,
          ...(b.currency ? { currency: b.currency } : {}),
        },
        round.roundNumber,
      ),
      `bet ${b.id}`,
    );
  }
}

export function windowOf(state: unknown): number {
  return (state as { window: number }).window;
}
