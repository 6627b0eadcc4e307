import type { CommandMessage, CommandResultMessage, GameKind } from '@studio/contracts';
import type { PlatformKafkaClient, ReceivedTableEvent } from './platform-client';

export interface SimulatedTable {
  tableId: string;
  game: GameKind;
  currency: string;
  players: string[];
}

export interface Wallet {
  /** Start balance + every settled bet's net, in minor units. */
  balance: number;
  /** Stakes of accepted bets not settled yet. */
  held: number;
  settledBets: number;
}

export interface SimulatorStats {
  eventsReceived: number;
  duplicateEventsDropped: number;
  /** Per-table sequence gaps seen (must stay 0). */
  seqGaps: number;
  commandsSent: number;
  accepted: number;
  rejected: number;
}

/** A seeded generator (mulberry32): scripted runs repeat exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const SETTLEMENT_EVENTS = new Set(['BetsSettled', 'BetsRefunded']);

/**
 * Simulated casino platform: reads the table events (de-duplicated by event id, checked by seq),
 * keeps a wallet per player, and sends bets and decisions for many players with a seeded random
 * strategy. Wallets move only on settlements, so they can be compared with the studio's database.
 */
export class PlatformSimulator {
  readonly wallets = new Map<string, Wallet>();
  readonly stats: SimulatorStats = {
    eventsReceived: 0,
    duplicateEventsDropped: 0,
    seqGaps: 0,
    commandsSent: 0,
    accepted: 0,
    rejected: 0,
  };
  /** Per table: the event types in the order consumed (after de-duplication). */
  readonly timeline = new Map<string, ReceivedTableEvent[]>();
  private readonly seen = new Set<string>();
  private readonly lastSeq = new Map<string, number>();
  private readonly settledBetIds = new Set<string>();
  private readonly stakes = new Map<string, { playerId: string; amount: number }>();
  private readonly tables: Map<string, SimulatedTable>;
  private commandNo = 0;
  private stopped = false;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: PlatformKafkaClient,
    tables: SimulatedTable[],
    private readonly random: () => number,
    private readonly options: { startBalance: number; runId: string; betUnit: number },
  ) {
    this.tables = new Map(tables.map((t) => [t.tableId, t]));
    for (const t of tables) {
      for (const p of t.players) {
        this.wallets.set(p, { balance: options.startBalance, held: 0, settledBets: 0 });
      }
    }
    client.onEvent((e) => this.onEvent(e));
    client.onResult((r) => this.onResult(r));
  }

  /** No new bets from now on (decisions for rounds already bet on still go out). */
  stop(): void {
    this.stopped = true;
  }

  /** Resolves when every command decided so far has been acknowledged by the broker. */
  flushed(): Promise<void> {
    return this.sending;
  }

  private onEvent(event: ReceivedTableEvent): void {
    this.stats.eventsReceived += 1;
    const { envelope } = event;
    if (this.seen.has(envelope.eventId)) {
      this.stats.duplicateEventsDropped += 1;
      return;
    }
    this.seen.add(envelope.eventId);
    const last = this.lastSeq.get(envelope.tableId) ?? 0;
    if (last !== 0 && envelope.seq !== last + 1) this.stats.seqGaps += 1;
    this.lastSeq.set(envelope.tableId, envelope.seq);
    const list = this.timeline.get(envelope.tableId) ?? [];
    list.push(event);
    this.timeline.set(envelope.tableId, list);

    if (SETTLEMENT_EVENTS.has(envelope.type)) {
      const payload = envelope.payload as {
        settlements: Array<{ betId: string; playerId: string; stake: number; net: number }>;
      };
      for (const s of payload.settlements) this.settle(s);
      return;
    }
    const table = this.tables.get(envelope.tableId);
    if (!table || !envelope.roundId) return;
    const roundId = envelope.roundId;
    switch (envelope.type) {
      case 'BettingOpened':
        if (this.stopped) break;
        this.queue(table.players.map((p, i) => this.betFor(table, roundId, p, i)));
        break;
      case 'DecisionWindowOpened':
        if (table.game === 'infinite-blackjack') {
          this.queue(table.players.map((p) => this.decision(table, roundId, p)));
        }
        break;
      case 'DecisionRequested': {
        const { playerId, seat } = envelope.payload as { playerId?: string; seat?: number };
        if (table.game === 'blackjack-lux' && playerId && table.players.includes(playerId)) {
          this.queue([this.decision(table, roundId, playerId, seat)]);
        }
        break;
      }
    }
  }

  private settle(s: { betId: string; playerId: string; stake: number; net: number }): void {
    // A settlement batch could be redelivered under a new event id only after a studio bug;
    // crediting by bet id keeps the wallet exact regardless.
    if (this.settledBetIds.has(s.betId)) return;
    this.settledBetIds.add(s.betId);
    const wallet = this.wallets.get(s.playerId);
    if (!wallet) return;
    wallet.balance += s.net;
    wallet.held = Math.max(0, wallet.held - s.stake);
    wallet.settledBets += 1;
  }

  private onResult(result: CommandResultMessage): void {
    if (!result.commandId.startsWith(`${this.options.runId}-`)) return;
    if (result.duplicate) return;
    if (result.status === 'accepted') {
      this.stats.accepted += 1;
      const stake = this.stakes.get(result.commandId);
      const wallet = stake && this.wallets.get(stake.playerId);
      if (wallet) wallet.held += stake.amount;
    } else {
      this.stats.rejected += 1;
    }
  }

  private nextId(): string {
    this.commandNo += 1;
    return `${this.options.runId}-${this.commandNo}`;
  }

  private amount(): number {
    return this.options.betUnit * (1 + Math.floor(this.random() * 5));
  }

  private betFor(
    table: SimulatedTable,
    roundId: string,
    playerId: string,
    index: number,
  ): CommandMessage {
    const common = {
      commandId: this.nextId(),
      schemaVersion: 1 as const,
      tableId: table.tableId,
      roundId,
      playerId,
    };
    const amount = this.amount();
    this.stakes.set(common.commandId, { playerId, amount });
    switch (table.game) {
      case 'pok-deng':
        return {
          ...common,
          type: 'PlaceBet',
          betType: 'player',
          spot: String(1 + Math.floor(this.random() * 5)),
          amount,
          currency: table.currency,
        };
      case 'blackjack-lux':
        return {
          ...common,
          type: 'TakeSeat',
          seat: (index % 7) + 1,
          amount,
          currency: table.currency,
        };
      default:
        return { ...common, type: 'PlaceBet', betType: 'main', amount, currency: table.currency };
    }
  }

  private decision(
    table: SimulatedTable,
    roundId: string,
    playerId: string,
    seat?: number,
  ): CommandMessage {
    return {
      commandId: this.nextId(),
      type: 'Decide',
      schemaVersion: 1,
      tableId: table.tableId,
      roundId,
      playerId,
      action: this.random() < 0.5 ? 'hit' : 'stand',
      ...(seat !== undefined ? { seat: String(seat) } : {}),
    };
  }

  private queue(commands: CommandMessage[]): void {
    this.stats.commandsSent += commands.length;
    // One send at a time keeps each table's commands in the order decided.
    this.sending = this.sending.then(() => this.client.sendMany(commands)).catch(() => undefined);
  }
}
