import { Logger, OnApplicationShutdown } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../clock/clock';
import type { TableDefinition } from '../config/tables-config';
import type { MachineOutcome } from '../table-core/table-machine';
import { tableRunSettings } from '../tables/table-settings';
import { DemoCommand, DemoTableStrategy } from './demo-strategy';

/** Sends one command to the platform API; resolves with the HTTP status. */
export type PlatformPost = (
  tableId: string,
  path: DemoCommand['path'],
  body: Record<string, unknown>,
) => Promise<number>;

/** At most this many commands in flight: the demo must not crowd out the consoles. */
const MAX_IN_FLIGHT = 4;

/**
 * A command goes out only while its window stays open for at least this long, and for twice the
 * slowest recent answer when that is longer: a busy machine answers late, and a bet that arrives
 * after betting closed is only refused.
 */
const MIN_ANSWER_MARGIN_MS = 1_000;
/** Each answer's time counts for less and less: the margin follows the machine's load. */
const SLOWEST_DECAY = 0.95;

/** Events after which a command still waiting would only be refused: it is dropped instead. */
const ENDS_BETTING = new Set(['BettingClosed', 'RoundVoided', 'RoundCompleted', 'RoundEnded']);
const ENDS_DECISIONS = new Set([
  'DecisionWindowClosed',
  'DecisionRequested',
  'AutoPlayed',
  'BetsSettled',
  'RoundVoided',
  'RoundCompleted',
  'RoundEnded',
]);

type Generation = Record<DemoCommand['path'], number>;

/**
 * Simulated players for the embedded demo. They read each table's public events (what a platform
 * reads from the events topic) and bet and decide through the platform HTTP API, exactly as a
 * casino platform would; the table applies its rules to them like to anyone else. They play
 * inside the windows: a command whose window closes (or would close before its answer is back)
 * is not sent, and a decision goes out only for a player whose bet the table accepted.
 */
export class DemoPlayers implements OnApplicationShutdown {
  private readonly logger = new Logger('DemoPlayers');
  private readonly strategies = new Map<string, DemoTableStrategy>();
  /** Per table: bumped when betting or a decision turn ends, so stale commands stay unsent. */
  private readonly generations = new Map<string, Generation>();
  /** Per table: the round and the players whose bets it accepted (only they may decide). */
  private readonly bettors = new Map<string, { roundId: unknown; players: Set<unknown> }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly queue: Array<() => Promise<void>> = [];
  private inFlight = 0;
  private stopped = false;
  /** The slowest recent answer (decaying), for the margin a command needs before its deadline. */
  private slowestAnswerMs = 0;
  /** `late`: not sent, its window would have closed before the answer. */
  readonly stats = { sent: 0, accepted: 0, refused: 0, failed: 0, late: 0 };

  constructor(
    tables: readonly TableDefinition[],
    private readonly post: PlatformPost,
    private readonly clock: Pick<Clock, 'now'>,
    random: () => number = Math.random,
  ) {
    for (const t of tables) {
      const { bettingWindowMs, decisionWindowMs } = tableRunSettings(t);
      const table = { tableId: t.id, game: t.game, currency: t.currency };
      this.strategies.set(
        t.id,
        new DemoTableStrategy({ ...table, bettingWindowMs, decisionWindowMs }, random),
      );
    }
  }

  onTransition(tableId: string, outcome: MachineOutcome): void {
    const strategy = this.strategies.get(tableId);
    if (!strategy || this.stopped) return;
    const generation = this.generationOf(tableId);
    for (const event of outcome.writes.events) {
      if (event.visibility !== 'public') continue;
      if (ENDS_BETTING.has(event.type)) generation.bets += 1;
      if (ENDS_DECISIONS.has(event.type)) generation.decisions += 1;
      for (const command of strategy.onEvent(event)) this.schedule(tableId, command);
    }
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.queue.length = 0;
  }

  private betAccepted(tableId: string, roundId: unknown, playerId: unknown): void {
    const current = this.bettors.get(tableId);
    const bettors =
      current && current.roundId === roundId ? current : { roundId, players: new Set<unknown>() };
    this.bettors.set(tableId, bettors);
    bettors.players.add(playerId);
  }

  private generationOf(tableId: string): Generation {
    let generation = this.generations.get(tableId);
    if (!generation) {
      generation = { bets: 0, decisions: 0 };
      this.generations.set(tableId, generation);
    }
    return generation;
  }

  private schedule(tableId: string, command: DemoCommand): void {
    const generation = this.generationOf(tableId);
    const issued = generation[command.path];
    const closesAt = this.now() + command.windowMs;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(() =>
        generation[command.path] === issued
          ? this.send(tableId, command, closesAt)
          : Promise.resolve(),
      );
    }, command.delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private enqueue(task: () => Promise<void>): void {
    if (this.stopped) return;
    this.queue.push(task);
    this.drain();
  }

  private drain(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      const task = this.queue.shift()!;
      this.inFlight += 1;
      void task().finally(() => {
        this.inFlight -= 1;
        this.drain();
      });
    }
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  /** The slowest answer, fading: one slow moment does not hold the players back for long. */
  private answered(tookMs: number): void {
    this.slowestAnswerMs = Math.max(tookMs, this.slowestAnswerMs * SLOWEST_DECAY);
  }

  private async send(tableId: string, command: DemoCommand, closesAt: number): Promise<void> {
    if (this.stopped) return;
    const { roundId, playerId } = command.body;
    const bettors = this.bettors.get(tableId);
    const hasBet =
      bettors !== undefined && bettors.roundId === roundId && bettors.players.has(playerId);
    if (command.path === 'decisions' && !hasBet) {
      return; // their bet did not make it in time: a decision would only be refused
    }
    const margin = Math.max(MIN_ANSWER_MARGIN_MS, 2 * this.slowestAnswerMs);
    const sentAt = this.now();
    if (sentAt + margin > closesAt) {
      this.stats.late += 1;
      return;
    }
    this.stats.sent += 1;
    try {
      const status = await this.post(tableId, command.path, command.body);
      this.answered(this.now() - sentAt);
      if (status < 300) {
        this.stats.accepted += 1;
        if (command.path === 'bets') this.betAccepted(tableId, roundId, playerId);
      } else this.stats.refused += 1;
    } catch (error) {
      this.stats.failed += 1;
      // Shutting down closes the port under in-flight requests: not worth a line then.
      if (!this.stopped) this.logger.debug(`A demo command failed: ${(error as Error).message}`);
    }
  }
}

/** The platform HTTP API on this service's own port (known once it listens), with a platform key. */
export function httpPlatformPost(
  host: string,
  server: () => { address(): AddressInfo | string | null },
  platformKey: string,
): PlatformPost {
  const loopback = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return async (tableId, path, body) => {
    const address = server().address();
    if (!address || typeof address === 'string') throw new Error('the HTTP port is not open yet');
    const base = `http://${loopback.includes(':') ? `[${loopback}]` : loopback}:${address.port}`;
    const response = await fetch(`${base}/platform/tables/${tableId}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-platform-key': platformKey },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  };
}
