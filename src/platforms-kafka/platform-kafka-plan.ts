import { DEFAULT_PLATFORM_ID, PLATFORM_ID_PATTERN, PLATFORM_QUOTA_CONFIG } from '@studio/contracts';
import { PlatformTopics } from '../kafka/platform-topics';

/** What a platform's principal may do on one resource (ACLs, allow only). */
export interface PlatformAcl {
  resourceType: 'topic' | 'group';
  /** literal: this name exactly; prefixed: every name starting with it. */
  pattern: 'literal' | 'prefixed';
  name: string;
  operations: ReadonlyArray<'read' | 'write' | 'describe'>;
}

/** A platform's topics and ACLs on the brokers (contract 2.0). */
export interface PlatformKafkaPlan {
  platformId: string;
  principal: string;
  topics: Array<{ topic: string; numPartitions: number }>;
  acls: PlatformAcl[];
}

export interface PlanSettings {
  topicPrefix: string;
  /** Partitions of the commands and results topics (KAFKA_COMMAND_PARTITIONS). */
  commandPartitions: number;
  /** Partitions of the events topics (KAFKA_EVENT_PARTITIONS). */
  eventPartitions: number;
  /** The platform's SASL principal; default `User:platform-<platformId>`. */
  principal?: string;
}

const PLATFORM_ID = new RegExp(`^${PLATFORM_ID_PATTERN}$`);

/**
 * Exactly what a platform needs and nothing of another platform's: write its commands topic; read
 * its results, private events and dead-letter topics and the shared events topic; consumer groups named
 * `<platformId>.…`. The `default` platform also keeps the v1 topics (deprecation period), the v1
 * dead-letter topic among them (only commands of the v1 topic go there). The
 * studio's own principal is a super user (it makes and reads every platform's topics).
 */
export function platformKafkaPlan(platformId: string, settings: PlanSettings): PlatformKafkaPlan {
  if (!PLATFORM_ID.test(platformId)) {
    throw new Error(`"${platformId}" is not a platform id (${PLATFORM_ID_PATTERN})`);
  }
  const prefix = settings.topicPrefix;
  const topics = new PlatformTopics(prefix);
  const commands = topics.platformTopic(platformId, 'commands');
  const results = topics.platformTopic(platformId, 'results');
  const events = topics.platformTopic(platformId, 'events');
  const deadLetters = topics.platformTopic(platformId, 'dead-letters');
  const read = ['read', 'describe'] as const;
  const acls: PlatformAcl[] = [
    {
      resourceType: 'topic',
      pattern: 'literal',
      name: commands,
      operations: ['write', 'describe'],
    },
    { resourceType: 'topic', pattern: 'literal', name: results, operations: read },
    { resourceType: 'topic', pattern: 'literal', name: events, operations: read },
    { resourceType: 'topic', pattern: 'literal', name: deadLetters, operations: read },
    { resourceType: 'topic', pattern: 'literal', name: topics.sharedEvents, operations: read },
    { resourceType: 'group', pattern: 'prefixed', name: `${platformId}.`, operations: ['read'] },
  ];
  if (platformId === DEFAULT_PLATFORM_ID) {
    acls.push(
      {
        resourceType: 'topic',
        pattern: 'literal',
        name: topics.v1Commands,
        operations: ['write', 'describe'],
      },
      { resourceType: 'topic', pattern: 'literal', name: topics.v1Results, operations: read },
      { resourceType: 'topic', pattern: 'literal', name: topics.v1Events, operations: read },
      {
        resourceType: 'topic',
        pattern: 'literal',
        name: topics.v1DeadLetters,
        operations: read,
      },
    );
  }
  return {
    platformId,
    principal: settings.principal ?? `User:platform-${platformId}`,
    topics: [
      { topic: commands, numPartitions: settings.commandPartitions },
      { topic: results, numPartitions: settings.commandPartitions },
      { topic: events, numPartitions: settings.eventPartitions },
      { topic: deadLetters, numPartitions: 1 },
      { topic: topics.sharedEvents, numPartitions: settings.eventPartitions },
    ],
    acls,
  };
}

/**
 * The plan as the commands of Kafka's own tools, for operators who manage topics and ACLs
 * themselves (`--print`); `<admin.properties>` holds the admin's SASL settings.
 */
export function planAsCommands(plan: PlatformKafkaPlan, bootstrap: string): string[] {
  const base = `--bootstrap-server ${bootstrap} --command-config <admin.properties>`;
  const user = plan.principal.replace(/^User:/, '');
  return [
    `# Platform ${plan.platformId}: principal ${plan.principal}`,
    `# Its SCRAM credentials (the password is the platform's to keep):`,
    `kafka-configs ${base} --alter --entity-type users --entity-name ${user} ` +
      `--add-config 'SCRAM-SHA-256=[iterations=8192,password=<secret>]'`,
    `# Its topics:`,
    ...plan.topics.map(
      (t) =>
        `kafka-topics ${base} --create --if-not-exists --topic ${t.topic} --partitions ${t.numPartitions}`,
    ),
    `# Its ACLs (allow only; everything else is refused with allow.everyone.if.no.acl.found=false):`,
    ...plan.acls.map(
      (acl) =>
        `kafka-acls ${base} --add --allow-principal ${plan.principal} ` +
        acl.operations.map((op) => `--operation ${capitalised(op)}`).join(' ') +
        ` --${acl.resourceType} ${acl.name}` +
        (acl.pattern === 'prefixed' ? ' --resource-pattern-type prefixed' : ''),
    ),
    `# Its quotas (docs/kafka-contract.md; the admin API the set-up uses cannot set them):`,
    `kafka-configs ${base} --alter --entity-type users --entity-name ${user} ` +
      `--add-config '${PLATFORM_QUOTA_CONFIG}'`,
  ];
}

function capitalised(op: string): string {
  return op.charAt(0).toUpperCase() + op.slice(1);
}
