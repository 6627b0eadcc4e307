import type { CommandMessage, CommandResultMessage } from '@studio/contracts';
import { StudioFramedV1Encoder } from '@studio/scanner-protocol';
import { shuffledShoe, ShoeWriter, TcpShoeServer, VirtualShoe } from '@studio/virtual-shoe';
import { Pool } from 'pg';
import { PlatformKafkaClient } from '../../apps/platform-simulator/platform-client';
import { PlatformSimulator, seededRandom } from '../../apps/platform-simulator/simulator';
import {
  expectCompletedRoundsReplay,
  expectEachBetSettledOnce,
  expectUnbrokenChain,
} from '../support/history-checks';
import { ServiceProcess, spawnService } from '../support/service-process';
import { uniqueTopicPrefix, waitFor } from '../support/studio-harness';
import {
  databaseFaults,
  percentile,
  ROLL_TABLES,
  RollDealers,
  RollInstance,
  RollShoe,
  tallyAnswers,
  LateBets,
  rollTablesFile,
  supervisorToken,
  tableViews,
  TAKEOVER_PAUSES,
} from '../support/studio-roll-kit';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { TEST_ADMIN_DATABASE_URL, TEST_KAFKA_BROKERS } from '../support/environment';

jest.setTimeout(900_000);

const INSTANCES = ['roll-a', 'roll-b', 'roll-c'];
const SEED = (i: number) => 900 + i;

/**
 * Three instances as one studio (issues 15 and 27): twelve tables reading their shoes over TCP
 * from device servers, a platform betting and deciding over Kafka without pause, each instance in
 * turn restarted gracefully, then one SIGKILLed, then the database cut for 30 s and then hanging
 * (connections open, no answers) for 20 s, both through a TCP proxy in front of the instances.
 * Whatever instance reads a command, the table's owner applies it and it is answered once; a
 * graceful handover continues rounds without a pause; the outage and the hang pause no table and
 * lose no card; a console on one instance follows a table another drives.
 */
describe('a studio of three instances rolled and crashed under load', () => {
  const prefix = uniqueTopicPrefix('roll');
  let db: TestDatabase;
  let pool: Pool;
  let platform: PlatformKafkaClient;
  let proxy: TcpProxy;
  /** The instances' database: the test database through the proxy the test cuts. */
  let viaProxy: string;
  const shoes = new Map<string, RollShoe>();
  const running = new Map<string, RollInstance>();
  const everyService: ServiceProcess[] = [];
  const q = async <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    (await pool.query(sql, params)).rows as T[];

  beforeAll(async () => {
    db = await createTestDatabase('roll');
    pool = db.pool();
    for (const [i, table] of ROLL_TABLES.entries()) {
      const server = await TcpShoeServer.listen({ port: 0, holdWrites: 1_000 });
      const writer = new ShoeWriter({
        shoe: new VirtualShoe({ seed: SEED(i), decks: 8, encoder: new StudioFramedV1Encoder() }),
        sink: server,
        intervalMs: 0,
        heartbeatIntervalMs: 500,
      });
      writer.start();
      shoes.set(table.id, { server, writer, dealt: 0, perShoe: [], shoeNumber: 1, cutAsked: 0 });
    }
    platform = new PlatformKafkaClient({ brokers: [TEST_KAFKA_BROKERS], topicPrefix: prefix });
    const admin = new URL(TEST_ADMIN_DATABASE_URL);
    proxy = new TcpProxy(admin.hostname, Number(admin.port || 5432));
    const url = new URL(db.url);
    url.host = `127.0.0.1:${await proxy.start()}`;
    viaProxy = url.toString();
  });

  afterAll(async () => {
    for (const s of everyService) if (s.child.exitCode === null) s.killGroup('SIGKILL');
    await platform?.stop().catch(() => undefined);
    await proxy?.stop();
    for (const { writer, server } of shoes.values()) {
      await writer.stop().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
    await db?.drop();
  });

  const tablesFile = () => rollTablesFile((id) => shoes.get(id)!.server.port);

  async function start(id: string, file: string): Promise<RollInstance> {
    const service = spawnService({
      DATABASE_URL: viaProxy,
      PORT: '0',
      LOG_LEVEL: 'info',
      STUDIO_INSTANCE_ID: id,
      // The service's default: a crash is noticed by the dead session's lock, not by the TTL, and a
      // shorter TTL let a live owner's lease lapse on a loaded CI machine (renewals late by 4.8 s).
      TABLE_LEASE_TTL_MS: '10000',
      // The roll's subject is what its stops lose (nothing), not how fast a stop is: on a loaded
      // CI machine a graceful stop (every table handed over, the consumers out of the group) once
      // passed the default 10 s budget and exited 1. The test still wants each stop within 60 s.
      SHUTDOWN_TIMEOUT_MS: '30000',
      DEMO_USERS: 'true',
      TABLES_FILE: file,
      KAFKA_BROKERS: TEST_KAFKA_BROKERS,
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_COMMAND_GROUP_ID: `studio-${prefix}`,
      KAFKA_COMMAND_PARTITIONS: '12',
      PLATFORM_API_KEYS: 'roll-platform-key',
    });
    everyService.push(service);
    const url = await service.listening();
    const token = await supervisorToken(url);
    const instance = { id, service, url, token };
    running.set(id, instance);
    return instance;
  }

  const views = () => tableViews(running.values());

  /** The dealers: a card whenever a table expects one and has stored every card dealt so far. */
  const dealers = () => new RollDealers(shoes, views, q, running);

  it('answers every command once, settles every bet once and keeps every chain through a rolling restart and a crash', async () => {
    const file = tablesFile();
    for (const id of INSTANCES) await start(id, file);
    await waitFor(
      'every table driven by one instance',
      async () =>
        (await views()).filter((v) => v.driven).length > 0 &&
        (
          await q<{ n: number }>(
            `SELECT count(*)::int AS n FROM table_leases WHERE expires_at > now()`,
          )
        )[0].n === ROLL_TABLES.length,
      60_000,
    );

    // The platform: latency from send to first answer, per phase.
    const sentAt = new Map<string, number>();
    const answers = new Map<string, CommandResultMessage[]>();
    const latency = new Map<string, number>();
    let phase = 'steady';
    const phaseOf = new Map<string, string>();
    const send = platform.sendMany.bind(platform);
    const lateBets = new LateBets();
    platform.sendMany = async (commands: readonly CommandMessage[]) => {
      const now = Date.now();
      for (const c of commands) {
        sentAt.set(c.commandId, now);
        phaseOf.set(c.commandId, phase);
        lateBets.sent(c);
      }
      await send(commands);
    };
    const eventsByPhase = new Map<string, number>();
    platform.onEvent((e) => {
      eventsByPhase.set(phase, (eventsByPhase.get(phase) ?? 0) + 1);
      lateBets.event(e.envelope);
    });
    platform.onResult((result) => {
      if (!sentAt.has(result.commandId)) return;
      if (!answers.has(result.commandId)) lateBets.answered(result, phaseOf.get(result.commandId)!);
      answers.set(result.commandId, [...(answers.get(result.commandId) ?? []), result]);
      if (!latency.has(result.commandId)) {
        latency.set(result.commandId, Date.now() - sentAt.get(result.commandId)!);
      }
    });
    await platform.start();
    const simulator = new PlatformSimulator(
      platform,
      ROLL_TABLES.map((t) => ({
        tableId: t.id,
        game: t.game,
        currency: t.currency,
        players: [1, 2, 3, 4].map((p) => `${t.id}-p${p}`),
      })),
      seededRandom(15),
      { startBalance: 10_000_000, runId: prefix, betUnit: 1_000 },
    );
    const dealing = dealers();
    const dealer = dealing.run();
    const victimId = 'roll-b';
    let victimTables: string[] = [];
    let rollMs = 0;
    let leases: Array<{ table_id: string; owner: string }> = [];
    let outageFrom = new Date(8.64e15);
    try {
      await new Promise((r) => setTimeout(r, 30_000));

      // A console on one instance follows a table another instance drives.
      leases = await q<{ table_id: string; owner: string }>(
        `SELECT table_id, owner FROM table_leases`,
      );
      // An HTTP bet sent to an instance that does not drive the table is applied by the owner.
      const ibj = ROLL_TABLES.find((t) => t.game === 'infinite-blackjack')!.id;
      const owner = leases.find((l) => l.table_id === ibj)!.owner;
      const other = [...running.values()].find((i) => i.id !== owner)!;
      let httpBets = 0;
      const httpAnswer = await waitFor(
        'an HTTP bet accepted through another instance',
        async () => {
          httpBets += 1;
          const response = await fetch(`${other.url}/platform/tables/${ibj}/bets`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-platform-key': 'roll-platform-key' },
            body: JSON.stringify({
              commandId: `${prefix}-http-${httpBets}`,
              playerId: 'http-player',
              betType: 'main',
              amount: 500,
            }),
          });
          const body = (await response.json()) as { error?: string };
          expect(body.error).not.toBe('table-not-driven-here');
          return response.status === 200 ? body : undefined;
        },
        30_000,
        300,
      );
      expect(httpAnswer).toMatchObject({ accepted: true });
      const rollStart = Date.now();
      phase = 'roll';
      for (const id of INSTANCES) {
        const instance = running.get(id)!;
        running.delete(id);
        instance.service.child.kill('SIGTERM');
        expect(await instance.service.exited(60_000)).toEqual({ code: 0, signal: null });
        await start(id, file);
        await new Promise((r) => setTimeout(r, 8_000));
      }
      rollMs = Date.now() - rollStart;
      const pausedByRoll = await q<{ n: number }>(
        `SELECT count(*)::int AS n FROM round_events
        WHERE type = 'RoundPaused' AND payload->>'reason' LIKE ANY($1::text[])`,
        [TAKEOVER_PAUSES],
      );
      // A graceful handover leaves nothing uncertain: no round paused for a supervisor.
      if (pausedByRoll[0].n !== 0) {
        console.log(
          await q(
            `SELECT table_id, occurred_at, payload FROM round_events
              WHERE type = 'RoundPaused' ORDER BY occurred_at`,
          ),
          // Why a lease lapsed instead of being handed over: the instances' own words about it.
          everyService
            .flatMap((s) => s.stdout().split('\n'))
            .filter((l) => /Lost table|Lease renewal failed|is running|Handed table/.test(l))
            .join('\n'),
        );
      }
      expect(pausedByRoll[0].n).toBe(0);

      phase = 'crash';
      const victim = running.get(victimId)!;
      victimTables = (
        await q<{ table_id: string }>(`SELECT table_id FROM table_leases WHERE owner = $1`, [
          victimId,
        ])
      ).map((r) => r.table_id);
      running.delete(victimId);
      victim.service.killGroup('SIGKILL');
      await victim.service.exited(10_000);
      await new Promise((r) => setTimeout(r, 20_000));

      // The database cut for 30 s, then hanging for 20 s: the tables carry on by themselves after.
      outageFrom = new Date();
      await databaseFaults(
        proxy,
        (name) => (phase = name),
        async () => {
          const [{ n }] = await q<{ n: number }>(
            `SELECT count(*)::int AS n FROM table_leases
            WHERE expires_at > now() AND NOT released AND owner = ANY($1)`,
            [[...running.keys()]],
          );
          return n === ROLL_TABLES.length;
        },
      );

      // Wind down: no new bets; every command answered; every round with bets finished or paused.
      simulator.stop();
      await simulator.flushed();
      const windDown = new Date();
      await waitFor(
        'an answer to every command',
        async () => answers.size === sentAt.size,
        180_000,
      );
      await waitFor(
        'every round begun before the wind-down completed or paused after the crash',
        async () => {
          const open = await q<{ table_id: string }>(
            `SELECT table_id FROM rounds WHERE status NOT IN ('completed', 'voided') AND started_at < $1`,
            [windDown],
          );
          const current = await views();
          const pausedNow = new Set(current.filter((v) => v.paused).map((v) => v.tableId));
          const stuck = open.filter((r) => !pausedNow.has(r.table_id));
          if (stuck.length === 0) return true;
          const stored = await q<{ table_id: string; stored: number; decided: number }>(
            `SELECT table_id, count(*)::int AS stored,
                  count(*) FILTER (WHERE outcome <> 'recorded')::int AS decided
             FROM scanner_readings WHERE kind = 'card' GROUP BY table_id`,
          );
          throw new Error(
            stuck
              .map((r) => {
                const v = current.find((c) => c.tableId === r.table_id);
                const row = stored.find((x) => x.table_id === r.table_id);
                return `${r.table_id}: driven ${v?.driven} expects ${JSON.stringify(v?.expectedCard)} dealt ${shoes.get(r.table_id)?.dealt} stored ${row?.stored} decided ${row?.decided}`;
              })
              .join('; '),
          );
        },
        180_000,
        500,
      );
    } catch (error) {
      for (const s of everyService) {
        const lines = s
          .stdout()
          .split('\n')
          .filter((l) =>
            /"level":(40|50)|Driving table|Handed table|Lost table|is running|restarted/.test(l),
          )
          .filter((l) => !/commands refused/.test(l))
          .map((l) => l.replace(/"service":"live-dealer-studio",/, '').slice(0, 260));
        console.log(`service ${everyService.indexOf(s)}:\n${lines.slice(-80).join('\n')}`);
      }
      throw error;
    } finally {
      dealing.stop();
      await dealer;
    }
    for (const instance of running.values()) {
      instance.service.child.kill('SIGTERM');
      expect(await instance.service.exited(60_000)).toEqual({ code: 0, signal: null });
    }

    // The database's outage and hang paused no table: every card read meanwhile was applied after.
    const pausedByDatabase = await q<{ table_id: string; reason: string }>(
      `SELECT table_id, payload->>'reason' AS reason FROM round_events
        WHERE type = 'RoundPaused' AND occurred_at >= $1`,
      [outageFrom],
    );
    expect(pausedByDatabase).toEqual([]);

    // Every command answered once: a repeat only as a duplicate of the first answer.
    const { codes, closedByPhase, repeated } = tallyAnswers(answers, phaseOf);
    expect(codes.get('table-not-driven-here') ?? 0).toBe(0);
    expect(codes.get('table-stopping') ?? 0).toBe(0);
    expect(answers.size).toBe(sentAt.size);
    // Refusals are the game's (a decision after its window, a bet after betting closed), never
    // the studio's plumbing.
    for (const code of ['command-failed', 'command-in-flight', 'under-limit']) {
      expect(codes.get(code) ?? 0).toBe(0);
    }
    expect(codes.get('accepted') ?? 0).toBeGreaterThan(sentAt.size / 2);
    // No bet sent in time is refused as late because of a restart: windows stay open while the
    // command consumers rebalance or a dead instance's partitions wait (a bet whose BettingOpened
    // reached the platform too late to be sent a second before the close is the event's lateness).
    // A round whose betting closed once the database was cut is the outage's (nothing commits
    // meanwhile; a bet then meets a close that fell due): printed below, not counted.
    const refusedInTime = lateBets.refusedThoughInTime(outageFrom.getTime());
    if (refusedInTime.length > 0) {
      // Their timings and where the tables were, to tell a slow rebalance from a missed hold.
      console.log(
        [
          `SIGKILL of ${victimId}, which drove ${victimTables.join(' ')}`,
          ...lateBets.lines.map((l) => `late bet, ${l}`),
        ].join('\n'),
      );
    }
    expect(refusedInTime).toEqual([]);
    // Nothing is left waiting in an inbox.
    expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM command_inbox`))[0].n).toBe(0);

    // Every accepted bet stored once and settled once; every completed round replays; chains hold.
    const [{ twice }] = await q<{ twice: number }>(
      `SELECT count(*)::int AS twice FROM (SELECT command_id FROM bets WHERE command_id IS NOT NULL
        GROUP BY command_id, spot HAVING count(*) > 1) d`,
    );
    expect(twice).toBe(0);
    await expectEachBetSettledOnce(q);
    const rounds = await q<{ id: string; table_id: string; status: string }>(
      `SELECT id, table_id, status FROM rounds ORDER BY started_at`,
    );
    const completed = rounds.filter((r) => r.status === 'completed');
    const settlements = await expectCompletedRoundsReplay(
      q,
      completed.map((r) => r.id),
    );
    let events = 0;
    for (const t of ROLL_TABLES) events += await expectUnbrokenChain(q, t.id);
    expect(simulator.stats.seqGaps).toBe(0);

    // The shoes: every card dealt was read, once and in order, across every takeover; only a card
    // in flight when its instance was SIGKILLed may be missing (the table then paused for it).
    for (const [i, t] of ROLL_TABLES.entries()) {
      const read = await q<{ code: string }>(
        `SELECT decoded->>'code' AS code FROM scanner_readings
          WHERE table_id = $1 AND kind = 'card' ORDER BY id`,
        [t.id],
      );
      const shoe = shoes.get(t.id)!;
      const dealt = shoe.perShoe.flatMap((n, k) => shuffledShoe(SEED(i) + k, 8).slice(0, n ?? 0));
      const codes = read.map((r) => r.code);
      if (victimTables.includes(t.id) && codes.length === dealt.length - 1) {
        // One card in flight when its instance died: the rest in order around it.
        const at = codes.findIndex((c, k) => c !== dealt[k]);
        const gap = at === -1 ? dealt.length - 1 : at;
        expect(codes).toEqual([...dealt.slice(0, gap), ...dealt.slice(gap + 1)]);
      } else {
        expect(codes).toEqual(dealt);
      }
    }

    const steady = [...latency].filter(([id]) => phaseOf.get(id) === 'steady').map(([, ms]) => ms);
    const roll = [...latency].filter(([id]) => phaseOf.get(id) === 'roll').map(([, ms]) => ms);
    const crash = [...latency].filter(([id]) => phaseOf.get(id) === 'crash').map(([, ms]) => ms);
    const inPhase = (name: string) =>
      [...latency].filter(([id]) => phaseOf.get(id) === name).map(([, ms]) => ms);
    // The platform kept being answered and kept receiving events while instances restarted.
    expect(roll.length).toBeGreaterThan(0);
    expect(eventsByPhase.get('roll') ?? 0).toBeGreaterThan(0);
    const line = (name: string, values: number[]) =>
      `${name}: ${values.length} commands, p50 ${percentile(values, 50)} ms, p99 ${percentile(values, 99)} ms`;
    console.log(
      [
        `studio roll: 3 instances, ${ROLL_TABLES.length} tables over TCP shoes, rolling restart of each (${Math.round(rollMs / 1000)} s) then a SIGKILL of ${victimId} (it drove ${victimTables.length} tables), then the database cut 30 s and hung 20 s`,
        `commands sent ${sentAt.size}, answered ${answers.size}, lost ${sentAt.size - answers.size}, answered more than once ${repeated} (all as duplicates)`,
        `tables paused by the system: by the roll 0, by the database outage and hang ${pausedByDatabase.length}`,
        `answers by code: ${[...codes].map(([c, n]) => `${c} ${n}`).join(', ')}`,
        // The platform bets as soon as betting opens: a bet refused as too late was held up.
        `bets answered betting-closed by phase: ${[...closedByPhase].map(([p, n]) => `${p} ${n}`).join(', ') || 'none'}`,
        ...lateBets.lines.map((l) => `  late bet, ${l}`),
        `events received by phase: ${[...eventsByPhase].map(([p, n]) => `${p} ${n}`).join(', ')}`,
        line('steady', steady),
        line('rolling restart', roll),
        line('after the SIGKILL', crash),
        ...['outage', 'after outage', 'hang', 'after hang'].map((p) => line(p, inPhase(p))),
        `rounds ${rounds.length} (${completed.length} completed and replayed, ${settlements} settlements), events ${events} in unbroken chains, cards dealt ${[...shoes.values()].reduce((n, s) => n + s.dealt, 0)}; rounds paused by the roll 0; leases before the roll ${leases.map((l) => `${l.table_id}@${l.owner}`).join(' ')}`,
      ].join('\n'),
    );
  });
});
