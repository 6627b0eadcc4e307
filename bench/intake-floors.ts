/**
 * Floors of the Kafka intake bench, measured in the same run on the same broker and server:
 * - COPY of the same commands, one row each with its stored answer, into a table of the bets'
 *   (decisions') shape with its indexes: what storing them can cost at least;
 * - the bare kafkajs round of the same messages: a producer sends them (acks=all), a consumer
 *   reads them in batches and answers each (an answer shaped like the project's) on a results
 *   topic with an idempotent producer (acks=all) before committing, and a platform consumer
 *   reads every answer. The platform's producer and consumer share the process with the
 *   "service" here, as they share it with the studio in the project's run.
 */
import type { CommandMessage } from '@studio/contracts';
import { randomBytes, randomUUID } from 'node:crypto';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { Client } from 'pg';

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

/** Seconds to COPY one row per command into a fresh table shaped like `bets` or `decisions`. */
export async function copyFloor(
  client: Client,
  kind: 'bets' | 'decisions',
  roundId: string,
  tableId: string,
  players: number,
): Promise<number> {
  const target = `floor_${kind}_${randomBytes(3).toString('hex')}`;
  await client.query(`CREATE TABLE ${target} (LIKE ${kind} INCLUDING ALL)`);
  const at = new Date().toISOString();
  const lines: string[] = [];
  for (let i = 0; i < players; i += 1) {
    // Each accepted command's answer is stored in its row (the idempotence record), as the
    // project stores it: the unique index on answered command ids is maintained here too.
    const reply = kind === 'bets' ? { betId: randomUUID(), roundId } : { roundId };
    const answer = copyText(JSON.stringify({ accepted: true, reply }));
    lines.push(
      kind === 'bets'
        ? `${roundId}/p${i}/main\t${roundId}\t${tableId}\tp${i}\tbet-${i}\tmain\t\\N\t1000\t1000\tEUR\taccepted\t${at}\t${answer}`
        : `${roundId}\tp${i}\t\\N\t${i % 2 === 0 ? 'stand' : 'hit'}\tf\tdecide-${i}\t${at}\t${answer}\t2`,
    );
  }
  const columns =
    kind === 'bets'
      ? '(id, round_id, table_id, player_id, command_id, bet_type, spot, amount, deducted, currency, status, placed_at, answer)'
      : '(round_id, player_id, hand, action, automatic, command_id, decided_at, answer, decision_window)';
  const data = Buffer.from(lines.join('\n') + '\n');
  const t0 = performance.now();
  await copyIn(client, `COPY ${target} ${columns} FROM STDIN`, data);
  const seconds = (performance.now() - t0) / 1000;
  await client.query(`DROP TABLE ${target}`);
  return seconds;
}

/** An answer shaped like the project's (CommandResultMessage with the use case's reply). */
function answerLike(c: CommandMessage): Record<string, unknown> {
  return {
    commandId: c.commandId,
    commandType: c.type,
    tableId: c.tableId,
    playerId: c.playerId,
    status: 'accepted',
    reply: replyLike(c),
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

/** Seconds for the bare kafkajs round of the same messages (see the file's comment). */
export async function kafkaRoundFloor(
  brokers: string,
  messages: readonly CommandMessage[],
  sendChunk: number,
): Promise<number> {
  const kafka = new Kafka({
    clientId: 'intake-floor',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
  });
  const tag = randomBytes(3).toString('hex');
  const commands = `floor.${tag}.commands`;
  const results = `floor.${tag}.results`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: [commands, results].map((topic) => ({ topic, numPartitions: 1 })),
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
    await serviceConsumer.subscribe({ topics: [commands], fromBeginning: true });
    await platformConsumer.subscribe({ topics: [results], fromBeginning: true });
    await serviceConsumer.run({
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary }) => {
        for (let i = 0; i < batch.messages.length; i += 1_000) {
          const chunk = batch.messages.slice(i, i + 1_000);
          await service.send({
            topic: results,
            acks: -1,
            messages: chunk.map((m) => {
              const c = JSON.parse(m.value!.toString('utf8')) as CommandMessage;
              return {
                key: c.tableId,
                // The project's answer, byte for byte in shape: the same work on the wire.
                value: JSON.stringify(answerLike(c)),
                headers: { 'command-id': c.commandId, 'command-status': 'accepted' },
              };
            }),
          });
          resolveOffset(chunk[chunk.length - 1].offset);
        }
        await commitOffsetsIfNecessary();
      },
    });
    await platformConsumer.run({
      eachMessage: async ({ message }) => {
        JSON.parse(message.value!.toString('utf8'));
        answered += 1;
      },
    });
    const t0 = performance.now();
    for (let i = 0; i < messages.length; i += sendChunk) {
      await platform.send({
        topic: commands,
        acks: -1,
        messages: messages
          .slice(i, i + sendChunk)
          .map((c) => ({ key: c.tableId, value: JSON.stringify(c) })),
      });
    }
    const deadline = Date.now() + 600_000;
    while (answered < messages.length) {
      if (Date.now() > deadline) throw new Error('floor: timed out waiting for the answers');
      await new Promise((r) => setTimeout(r, 10));
    }
    return (performance.now() - t0) / 1000;
  } finally {
    await Promise.all([
      serviceConsumer.disconnect(),
      platformConsumer.disconnect(),
      platform.disconnect(),
      service.disconnect(),
    ]);
    await admin.deleteTopics({ topics: [commands, results] }).catch(() => undefined);
    await admin.disconnect();
  }
}
