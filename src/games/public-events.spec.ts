import { CardCode, cardCode, decks, parseCardCode } from '@studio/cards';
import { eventSchemaEntry, GAME_KINDS, GameKind } from '@studio/contracts';
import { seededRandomSource, shuffledShoe } from '@studio/games/blackjack';
import type { BetCommand, GameAdapter } from './game-adapter';
import { createGameAdapter, GAMES } from './game-registry';
import {
  initialTableState,
  MachineContext,
  TableMachine,
  TableState,
  TableWrites,
  roundOf,
} from '../table-core/table-machine';
import { tableRunSettings } from '../tables/table-settings';
import { EventRouting, routeRows } from '../outbox/outbox-relay-routing';

const ROUTING: EventRouting = {
  tableEventsTopic: 'studio.table-events.v1',
  sharedTopic: 'studio.table-events.v2',
  privateTopic: (id) => `studio.platform.${id}.events.v2`,
  defaultPlatformId: 'default',
};

/**
 * Each game's public event stream, as the table publishes it over a few whole rounds: exactly one
 * RoundStarted per round, and every public event type has a schema in the contract for that game
 * (a type without one would be published with nothing a platform can validate it against).
 */
const BETS: Record<GameKind, Omit<BetCommand, 'betId'>> = {
  'infinite-blackjack': { playerId: 'p1', betType: 'main', amount: 1_000 },
  'blackjack-lux': { playerId: 'p1', betType: 'main', spot: '1', amount: 1_000 },
  'european-blackjack-practice': { playerId: 'p1', betType: 'main', amount: 10 },
  'pok-deng': { playerId: 'p1', betType: 'player', spot: '1', amount: 1_000 },
};

class Table {
  readonly machine: TableMachine;
  readonly adapter: GameAdapter;
  state: TableState;
  now = Date.UTC(2026, 10, 30, 12, 0, 0);
  readonly events: TableWrites['events'] = [];
  readonly settlements: TableWrites['settlements'] = [];
  /** The betIds the bets' answers named. */
  readonly answeredBetIds: string[] = [];
  private ids = 0;
  private seq = 0;
  /** The physical shoe's cards in scanning order (a seeded shuffle). */
  private readonly scanned: CardCode[];

  constructor(readonly game: GameKind) {
    const settings = tableRunSettings({ id: `${game}-1`, game, currency: 'EUR' });
    this.adapter = createGameAdapter(settings);
    this.machine = new TableMachine(settings, this.adapter);
    this.scanned = shuffledShoe(8, seededRandomSource(11));
    this.state = initialTableState(settings, 8);
    this.step({ type: 'start' });
  }

  step(input: Parameters<TableMachine['step']>[1]): void {
    const ctx: MachineContext = {
      now: this.now,
      newId: () => `id-${++this.ids}`,
      shuffle: () => shuffledShoe(6, seededRandomSource(5)),
    };
    const outcome = this.machine.step(this.state, input, ctx);
    this.events.push(...outcome.writes.events);
    this.settlements.push(...outcome.writes.settlements);
    if (input.type === 'bet' && typeof outcome.reply?.betId === 'string') {
      this.answeredBetIds.push(outcome.reply.betId);
    }
    this.state = JSON.parse(JSON.stringify(outcome.state)) as TableState;
  }

  read(code: CardCode): void {
    this.now += 500;
    const card = parseCardCode(code)!;
    this.seq += 1;
    this.step({
      type: 'reading',
      readingId: String(this.seq),
      reading: {
        kind: 'card',
        card,
        code,
        raw: new Uint8Array(),
        receivedAt: this.now,
        sequence: this.seq,
      },
    });
  }

  /** Lets timers run until the next round's betting is open, and bets in it. */
  openNextRound(): void {
    for (let guard = 0; guard < 50 && !roundOf(this.state); guard += 1) {
      const next = [...this.state.timers].sort((a, b) => a.dueAt - b.dueAt)[0];
      this.now = Math.max(this.now, next.dueAt);
      this.step({ type: 'timer', name: next.name, token: next.token });
    }
    const round = roundOf(this.state)!;
    this.step({ type: 'bet', bet: { ...BETS[this.game], betId: `b-${round.id}` } });
  }

  /** Plays until `rounds` rounds are over: scans what is expected, bets, lets every timer run out. */
  play(rounds: number): void {
    const betRound = new Set<string>();
    for (let guard = 0; guard < 2_000; guard += 1) {
      const finished = this.events.filter((e) => ['RoundCompleted', 'RoundEnded'].includes(e.type));
      if (finished.length >= rounds) return;
      const round = roundOf(this.state);
      if (round && !betRound.has(round.id) && this.adapter.isBettingOpen(round.engine)) {
        betRound.add(round.id);
        this.step({ type: 'bet', bet: { ...BETS[this.game], betId: `b-${round.id}` } });
        continue;
      }
      if (this.machine.expected(this.state) && this.state.virtualShoe === undefined) {
        this.read(this.scanned.shift()!);
        continue;
      }
      const next = [...this.state.timers].sort((a, b) => a.dueAt - b.dueAt)[0];
      if (!next) throw new Error(`${this.game}: stuck, nothing expected and no timer`);
      this.now = Math.max(this.now, next.dueAt);
      this.step({ type: 'timer', name: next.name, token: next.token });
    }
    throw new Error(`${this.game}: ${rounds} rounds did not finish`);
  }
}

describe('the registry', () => {
  it('is total over the game kinds, each definition naming its own game', () => {
    expect(Object.keys(GAMES).sort()).toEqual([...GAME_KINDS].sort());
    for (const game of GAME_KINDS) {
      expect(GAMES[game].game).toBe(game);
      const settings = tableRunSettings({ id: 't', game, currency: 'EUR' });
      expect(createGameAdapter(settings).game).toBe(game);
      expect(settings.limits).toEqual(GAMES[game].defaultLimits);
    }
  });
});

describe.each([...GAME_KINDS])('%s: the public event stream', (game) => {
  let published: TableWrites['events'] = [];
  beforeAll(() => {
    const table = new Table(game);
    table.play(3);
    published = table.events.filter((e) => e.visibility === 'public');
  });

  it('has exactly one RoundStarted per round, the table’s', () => {
    const started = published.filter((e) => e.type === 'RoundStarted');
    const ended = published.filter((e) => ['RoundCompleted', 'RoundEnded'].includes(e.type));
    expect(ended.length).toBeGreaterThanOrEqual(3);
    // Rounds 1..n each started once (the next one may have started after the last end).
    const numbers = started.map((e) => e.payload.roundNumber);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(started.length - ended.length).toBeLessThanOrEqual(1);
    for (const e of started) expect(e.payload).toEqual(expect.objectContaining({ game }));
  });

  it('announces a void once (the table’s RoundVoided)', () => {
    const table = new Table(game);
    table.play(1);
    table.openNextRound();
    const before = table.events.length;
    table.step({ type: 'void', by: 'sup-1', reason: 'test void' });
    const voided = table.events.slice(before).filter((e) => e.visibility === 'public');
    expect(voided.filter((e) => e.type === 'RoundVoided')).toHaveLength(1);
    expect(voided.map((e) => e.type)).toContain('RoundEnded');
  });

  it('refunds a voided round’s bets as `void-refund` (what the store, reports and docs read)', () => {
    const table = new Table(game);
    table.play(1);
    table.openNextRound();
    const before = table.settlements.length;
    table.step({ type: 'void', by: 'sup-1', reason: 'test void' });
    const refunds = table.settlements.slice(before);
    expect(refunds.length).toBeGreaterThan(0);
    for (const s of refunds) {
      expect({ outcome: s.outcome, net: s.net }).toEqual({ outcome: 'void-refund', net: 0 });
    }
  });

  it('puts no player, platform or named stake on the shared Kafka topic', () => {
    const rows = published.map((e, i) => ({
      id: String(i + 1),
      eventId: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      topic: ROUTING.tableEventsTopic,
      tableId: `${game}-1`,
      roundId: null,
      seq: String(i + 1),
      type: e.type,
      schemaVersion: 1,
      occurredAt: '2026-12-04T12:00:00.000Z',
      payload: JSON.stringify(e.payload),
    }));
    const shared = routeRows(rows, ROUTING).get(ROUTING.sharedTopic) ?? [];
    expect(shared.length).toBeGreaterThan(10);
    const naming = shared.filter((m) => /"(playerId|platformId)"|"p1"/.test(m.value));
    expect(naming.map((m) => m.value.slice(0, 300))).toEqual([]);
  });

  it('settles each bet under the betId its answer named (a wallet credits by it)', () => {
    const table = new Table(game);
    table.play(3);
    expect(table.answeredBetIds.length).toBeGreaterThanOrEqual(2);
    const settled = new Set(table.settlements.map((s) => s.betId));
    expect(table.answeredBetIds.filter((id) => !settled.has(id))).toEqual([]);
    // What the platform reads: its BetsSettled entries carry the same ids.
    const announced = new Set(
      table.events
        .filter((e) => e.type === 'BetsSettled')
        .flatMap((e) => (e.payload.settlements as Array<{ betId: string }>).map((b) => b.betId)),
    );
    expect(table.answeredBetIds.filter((id) => !announced.has(id))).toEqual([]);
  });

  it('publishes only event types the contract has a schema for, for this game', () => {
    const types = [...new Set(published.map((e) => e.type))].sort();
    const missing = types.filter((type) => {
      const entry = eventSchemaEntry(type);
      return !entry || (entry.games !== 'all' && !entry.games.includes(game));
    });
    expect(missing).toEqual([]);
    expect(types.length).toBeGreaterThan(5);
  });
});

it('the physical shoe fixture is a real 8-deck shoe', () => {
  expect(shuffledShoe(8, seededRandomSource(11)).sort()).toEqual(decks(8).map(cardCode).sort());
});
