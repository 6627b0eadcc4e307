/**
 * Floors of the Kafka intake bench, measured in the same run on the same broker and server:
 * - COPY of the same commands, one row each with its stored answer, into a table of the bets'
 *   (decisions') shape with its indexes: what storing them can cost at least;
 * - the bare kafkajs round of the same messages: a producer sends them (acks=all), a consumer
 *   reads them in batches and answers each (an answer shaped like the project's) on a results
 *   topic with an idempotent producer (acks=all) before committing, and a platform consumer
 *   reads every answer. The platform's producer and consumer share the process with the
 *   "service" here, as they share it with the studio in the project's run;
 * - the same round storing each batch it reads by COPY (as above) before answering it: both
 *   kinds of work on the same two cores, as the project does them, with nothing else. This is the
 *   floor the project's intake is judged against; the other two are printed beside it.
 */
import type { CommandMessage } from '@studio/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { Client } from 'pg';
import { commandsByTopic } from './intake-platforms';

/** A COPY ... FROM STDIN of one buffer, over the pg client's own connection (no extra package). */
function copyIn(client: Client, sql: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const submittable = {
      submit(connection: { query(text: string): void }) {
        connection.query(sql);
      },
      handleCopyInResponse(connection: {
        sendCopyFromChunk(chunk: Buffer): void;
        endCopyFrom(): void;
      }) {
        for (let i = 0; i < data.length; i += 1 << 20) {
          connection.sendCopyFromChunk(data.subarray(i, i + (1 << 20)));
        }
        connection.endCopyFrom();
      },
      handleCommandComplete() {},
      handleReadyForQuery() {
        resolve();
      },
      handleError(error: Error) {
        reject(error);
      },
    };
    client.query(submittable as never);
  });
}

/** A value in COPY's text format (backslashes doubled; JSON here has no tabs or newlines). */
function copyText(value: string): string {
  return value.replace(/\\/g, '\\\\');
}

const COLUMNS = {
  bets: '(id, round_id, table_id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at, answer)',
  decisions:
    '(round_id, player_id, hand, action, automatic, command_id, decided_at, answer, decision_window)',
};

/**
 * One command's row in COPY's text format, with its stored answer (the idempotence record): the
 * unique index on answered command ids is maintained, as the project's rows maintain it.
 */
function copyLine(
  kind: 'bets' | 'decisions',
  c: { roundId: string; tableId: string; playerId: string; commandId: string; action?: string },
  at: string,
  reply: Record<string, unknown>,
): string {
  const answer = copyText(JSON.stringify({ accepted: true, reply }));
  return kind === 'bets'
    ? `${c.roundId}/${c.playerId}/main\t${c.roundId}\t${c.tableId}\t${c.playerId}\t${c.commandId}\tmain\t\\N\t1000\t1000\tEUR\taccepted\t${at}\t${answer}`
    : `${c.roundId}\t${c.playerId}\t\\N\t${c.action ?? 'stand'}\tf\t${c.commandId}\t${at}\t${answer}\t2`;
}

/** A fresh table shaped like `bets` or `decisions` (with their indexes), and COPY into it. */
async function floorTable(client: Client, kind: 'bets' | 'decisions') {
  const target = `floor_${kind}_${randomBytes(3).toString('hex')}`;
  await client.query(`CREATE TABLE ${target} (LIKE ${kind} INCLUDING ALL)`);
  return {
    copy: (lines: readonly string[]) =>
      copyIn(
        client,
        `COPY ${target} ${COLUMNS[kind]} FROM STDIN`,
        Buffer.from(lines.join('\n') + '\n'),
      ),
    drop: () => client.query(`DROP TABLE ${target}`),
  };
}

/** Seconds to COPY one row per command into a fresh table shaped like `bets` or `decisions`. */
export async function copyFloor(
  client: Client,
  kind: 'bets' | 'decisions',
  roundId: string,
  tableId: string,
  players: number,
): Promise<number> {
  const table = await floorTable(client, kind);
  const at = new Date().toISOString();
  const lines: string[] = [];
  for (let i = 0; i < players; i += 1) {
    const reply = kind === 'bets' ? { betId: randomUUID(), roundId } : { roundId };
    const command = { roundId, tableId, playerId: `p${i}`, commandId: `${kind}-${i}` };
    lines.push(copyLine(kind, { ...command, action: i % 2 === 0 ? 'stand' : 'hit' }, at, reply));
  }
  const t0 = performance.now();
  await table.copy(lines);
  const seconds = (performance.now() - t0) / 1000;
  await table.drop();
  return seconds;
}

/**
 * What the kafka round stores of each batch before answering it, for the floor of the whole
 * intake: the batch's rows, one per command with its answer, in one COPY (the least a command
 * "accepted, persisted, answered" can cost on both Kafka and PostgreSQL, on the same two cores).
 */
export async function copyStore(client: Client, kind: 'bets' | 'decisions') {
  const table = await floorTable(client, kind);
  const store: BatchStore = async (batch) => {
    const at = new Date().toISOString();
    await table.copy(
      batch.map(({ command, reply }) => {
        const c = command as CommandMessage & { action?: string; roundId: string };
        return copyLine(kind, c, at, reply);
      }),
    );
  };
  return { store, drop: table.drop };
}

/** Stores a batch of commands with their replies before they are answered (see copyStore). */
export type BatchStore = (
  batch: ReadonlyArray<{ command: CommandMessage; reply: Record<string, unknown> }>,
) => Promise<void>;

/** An answer shaped like the project's (CommandResultMessage with the use case's reply). */
function answerLike(c: CommandMessage, reply: Record<string, unknown>): Record<string, unknown> {
  return {
    commandId: c.commandId,
    commandType: c.type,
    tableId: c.tableId,
    playerId: c.playerId,
    status: 'accepted',
    reply,
    duplicate: false,
    answeredAt: new Date().toISOString(),
  };
}

/** The reply the project stores and sends: a bet's id and round, a decision's round. */
function replyLike(c: CommandMessage): Record<string, unknown> {
  return c.type === 'PlaceBet'
    ? { betId: randomUUID(), roundId: c.roundId }
    : { roundId: c.roundId };
}

/**
 * The topics a floor round uses: one commands and one results topic, or, as the project's intake
 * has them with platforms, one of each per platform (command i on platform `i % platforms`), each
 * with `partitions` partitions. The platform side then sends a chunk as one request over the
 * commands topics and reads every results topic, four partitions at a time, as the bench's
 * platforms do (intake-platforms.ts).
 */
export interface FloorTopology {
  platforms: number;
  partitions: number;
}

/**
 * Seconds for the bare kafkajs round of the same messages (see the file's comment); with `store`,
 * each batch read is stored by it before any of its commands is answered.
 */
export async function kafkaRoundFloor(
  brokers: string,
  messages: readonly CommandMessage[],
  sendChunk: number,
  store?: BatchStore,
  topology: FloorTopology = { platforms: 1, partitions: 1 },
): Promise<number> {
  const kafka = new Kafka({
    clientId: 'intake-floor',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
  });
  const tag = randomBytes(3).toString('hex');
  const platformIds = Array.from({ length: topology.platforms }, (_, k) => k);
  const commandsTopic = (k: number) => `floor.${tag}.p${k}.commands`;
  const resultsTopic = (k: number) => `floor.${tag}.p${k}.results`;
  const allTopics = platformIds.flatMap((k) => [commandsTopic(k), resultsTopic(k)]);
  /** Which platform sent a command: its results topic is that platform's. */
  const platformOfTopic = new Map(platformIds.map((k) => [commandsTopic(k), k]));
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: allTopics.map((topic) => ({ topic, numPartitions: topology.partitions })),
  });
  const producerOptions = {
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
  };
  const platform = kafka.producer(producerOptions);
  const service = kafka.producer(producerOptions);
  const serviceConsumer = kafka.consumer({ groupId: `floor-service-${tag}` });
  const platformConsumer = kafka.consumer({ groupId: `floor-platform-${tag}` });
  await Promise.all([
    platform.connect(),
    service.connect(),
    serviceConsumer.connect(),
    platformConsumer.connect(),
  ]);
  let answered = 0;
  try {
    await serviceConsumer.subscribe({
      topics: platformIds.map(commandsTopic),
      fromBeginning: true,
    });
    await platformConsumer.subscribe({
      topics: platformIds.map(resultsTopic),
      fromBeginning: true,
    });
    await serviceConsumer.run({
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary }) => {
        const results = resultsTopic(platformOfTopic.get(batch.topic)!);
        const read = batch.messages.map((m) => {
          const command = JSON.parse(m.value!.toString('utf8')) as CommandMessage;
          return { command, reply: replyLike(command), offset: m.offset };
        });
        if (store) await store(read);
        for (let i = 0; i < read.length; i += 1_000) {
          const chunk = read.slice(i, i + 1_000);
          await service.send({
            topic: results,
            acks: -1,
            // The project's answer, byte for byte in shape: the same work on the wire.
            messages: chunk.map(({ command: c, reply }) => ({
              key: c.tableId,
              value: JSON.stringify(answerLike(c, reply)),
              headers: { 'command-id': c.commandId, 'command-status': 'accepted' },
            })),
          });
          resolveOffset(chunk[chunk.length - 1].offset);
        }
        await commitOffsetsIfNecessary();
      },
    });
    await platformConsumer.run({
      ...(topology.platforms > 1 ? { partitionsConsumedConcurrently: 4 } : {}),
      eachMessage: async ({ message }) => {
        JSON.parse(message.value!.toString('utf8'));
        answered += 1;
      },
    });
    // Not measured: one command per commands topic and its answer, so both groups have joined and
    // every partition's leader is known (as the project's topics and consumers are, warm, when it
    // is measured); a topic just created answers "not the leader" for a moment.
    const deadline = Date.now() + Number(process.env.BENCH_FLOOR_TIMEOUT_MS ?? 600_000);
    const waitForAnswers = async (count: number) => {
      while (answered < count) {
        if (Date.now() > deadline)
          throw new Error(`floor: timed out waiting for the answers (${answered} of ${count})`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await platform.sendBatch({
      acks: -1,
      topicMessages: platformIds.map((k) => ({
        topic: commandsTopic(k),
        messages: [
          {
            key: messages[0].tableId,
            value: JSON.stringify({
              ...messages[0],
              commandId: `warm-${k}`,
              playerId: `warm-${k}`,
            }),
          },
        ],
      })),
    });
    await waitForAnswers(platformIds.length);
    answered = 0;
    const t0 = performance.now();
    for (let i = 0; i < messages.length; i += sendChunk) {
      await platform.sendBatch({
        acks: -1,
        topicMessages: commandsByTopic(messages.slice(i, i + sendChunk), (_, j) =>
          commandsTopic((i + j) % topology.platforms),
        ),
      });
    }
    await waitForAnswers(messages.length);
    return (performance.now() - t0) / 1000;
  } finally {
    await Promise.all([
      serviceConsumer.disconnect(),
      platformConsumer.disconnect(),
      platform.disconnect(),
      service.disconnect(),
    ]);
    await admin.deleteTopics({ topics: allTopics }).catch(() => undefined);
    await admin.disconnect();
  }
}
