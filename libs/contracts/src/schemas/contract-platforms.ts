import { EVENT_VISIBILITY, Visibility } from '../event-visibility';
import {
  DEFAULT_PLATFORM_ID,
  platformTopicName,
  SHARED_TABLE_EVENTS_V2,
  TOPIC_NAMES,
} from '../topics';

/**
 * The quotas each platform's principal gets (kafka-configs `--add-config`): the figures this
 * page explains, and what `npm run platform:kafka -- setup --print` prints.
 */
export const PLATFORM_QUOTA_CONFIG =
  'producer_byte_rate=1048576,consumer_byte_rate=8388608,request_percentage=25';

/** The end of the v1 topics' deprecation period (6 months after 2.0.0, as "Versions" promises). */
export const V1_TOPICS_END = '2027-06-30';

const P = '<platformId>';

/** The 2.0 topic rows of the contract's topic table. */
export function platformTopicRows(): string[] {
  return [
    `| \`${SHARED_TABLE_EVENTS_V2}\` | studio → every platform | table id | event envelope (what every platform may see: no player named) |`,
    `| \`${platformTopicName(P, 'commands')}\` | one platform → studio | table id | a command |`,
    `| \`${platformTopicName(P, 'results')}\` | studio → that platform | table id | command result |`,
    `| \`${platformTopicName(P, 'events')}\` | studio → that platform | table id | event envelope (its players' events) |`,
    `| \`${platformTopicName(P, 'dead-letters')}\` | studio → that platform | original key | original bytes (its commands that could not be read) |`,
  ];
}

/** The fields a split type numbers per platform, which its shared version goes without. */
function perPlatform(v: Extract<Visibility, { kind: 'split' }>): string {
  const fields = v.perPlatform ?? [];
  return fields.length === 0 ? '' : `; per platform: ${fields.map((f) => `\`${f}\``).join(', ')}`;
}

function typesOf(kind: Visibility['kind']): string {
  return Object.entries(EVENT_VISIBILITY)
    .filter(([, v]) => v.kind === kind)
    .map(([type, v]) =>
      v.kind === 'split'
        ? `\`${type}\` (\`${v.list}\`${v.count ? `, \`${v.count}\`` : ''}${perPlatform(v)})`
        : `\`${type}\``,
    )
    .join(', ');
}

/** The section on many platforms (contract 2.0): topics, who sees what, ACLs, quotas, v1. */
export function platformsSection(): string[] {
  return [
    '## Platforms (contract 2.0)',
    '',
    'One studio serves many casino platforms. Each platform has a principal of its own on the',
    'brokers (SASL/SCRAM, `User:platform-<platformId>` by default) and topics of its own; the',
    "brokers' ACLs (KRaft `StandardAuthorizer`, `allow.everyone.if.no.acl.found=false`) let it",
    'write only its commands topic and read only its results, its private events and the shared',
    'events topic, with consumer groups named `<platformId>.…`. The studio sets a platform up with',
    '`npm run platform:kafka -- setup <platformId>` (topics and ACLs through the Kafka admin API;',
    '`--print` prints the `kafka-topics` / `kafka-acls` / `kafka-configs` commands instead, for',
    "operators who manage ACLs themselves) and reads a new platform's commands topic within",
    '`KAFKA_COMMAND_TOPIC_REFRESH_MS` (10 s) without a restart.',
    '',
    '- **Commands**: send to `' + platformTopicName(P, 'commands') + '`. The topic names the',
    '  platform: a command carries no `platformId` (the schemas refuse one) and names a player of',
    "  the platform whose topic it is on, so a platform cannot act for another platform's player.",
    '  The same `playerId` on two platforms is two players.',
    '- **Answers**: on `' + platformTopicName(P, 'results') + '` (a command from the v1 topic is',
    `  answered on \`${TOPIC_NAMES.commandResults}\`). A message that cannot be answered goes to`,
    '  `' +
      platformTopicName(P, 'dead-letters') +
      "`, the platform's own (one from the v1 topic to",
    `  \`${TOPIC_NAMES.commandDeadLetters}\`): its players' bets as sent reach no other platform.`,
    `- **Shared events** (\`${SHARED_TABLE_EVENTS_V2}\`): what every platform may see: round`,
    '  lifecycle, cards once face up, results and aggregate counts. No message there names a player',
    '  or a platform: no `playerId`, no `platformId`, no stake of a named player.',
    '- **Private events** (`' + platformTopicName(P, 'events') + "`): the platform's own players'",
    '  accepted bets, decisions, settlements, refunds and cancellations, nothing of another platform.',
    '',
    'Who sees each event type (one table in `@studio/contracts`, `EVENT_VISIBILITY`; a type not in',
    'it is private):',
    '',
    `- **public**, the whole event on the shared topic: ${typesOf('public')}.`,
    `- **private**, the whole event only on its player's platform's topic: ${typesOf('private')}.`,
    "- **redacted**, the whole event on its player's platform's topic, on the shared topic without",
    `  \`playerId\`: ${typesOf('redacted')}.`,
    "- **split**, many players' items: each platform gets the event with its own players' items only",
    '  (the count recounted), the shared topic the event without the list and without the fields',
    '  numbered per platform (its aggregate fields):',
    `  ${typesOf('split')}. The \`eventId\` and \`seq\` are the same on every topic.`,
    '- On the shared topic a redacted or split event lacks those fields even where its schema',
    '  requires them: validate shared messages of these types with the removed fields optional.',
    '',
    '**Order and delivery** are those of the events above, per topic: a platform sees every `seq`',
    "of a table across the shared and its private topic together; the numbers other platforms'",
    'events take are gaps on its topics (de-duplicate and order by `seq`, do not alert on gaps',
    "between the two v2 topics). v1 carries every event but another platform's player's own",
    '(their `BetAccepted`, `DecisionAccepted`, …): with only the `default` platform it has no gaps',
    '(alert on one); with others, those events are its only gaps.',
    '',
    "**Produce quotas per principal**: the brokers limit each platform's principal so one platform",
    "cannot starve the others' commands. A command is about 300 bytes; 100,000 players deciding in",
    'one window are 30 MB. Set per principal (figures for a platform of up to 100,000 players):',
    '',
    '```',
    'kafka-configs --bootstrap-server <brokers> --command-config <admin.properties> --alter \\',
    '  --entity-type users --entity-name platform-<platformId> \\',
    `  --add-config '${PLATFORM_QUOTA_CONFIG}'`,
    '```',
    '',
    '- `producer_byte_rate=1048576` (1 MiB/s, about 3,500 commands/s): a window of 10,000 players',
    '  in 3 s, 100,000 in 30 s, above what a platform sends in practice; a platform over it is',
    '  slowed down (throttled), not refused, and the others keep their rate.',
    '- `consumer_byte_rate=8388608` (8 MiB/s): its answers and private events at full rate plus the',
    '  shared topic (about 600 bytes an event).',
    '- `request_percentage=25`: at most a quarter of a broker thread for its requests.',
    "- The studio's own principal has no quota (`--entity-name studio --delete-config ...`).",
    '',
    `**v1 topics** (\`${TOPIC_NAMES.tableEvents}\`, \`${TOPIC_NAMES.platformCommands}\`,`,
    `\`${TOPIC_NAMES.commandResults}\`) keep serving the \`${DEFAULT_PLATFORM_ID}\` platform (the`,
    `\`PLATFORM_API_KEYS\` platform) until ${V1_TOPICS_END}: a command on the v1 commands topic is`,
    `the \`${DEFAULT_PLATFORM_ID}\` platform's, and the v1 events topic carries the public events and`,
    `the \`${DEFAULT_PLATFORM_ID}\` platform's own, byte for byte as under 1.x (the practice bots' with`,
    "them), and an event of other platforms' players as the shared topic has it (another",
    "platform's players never). `KAFKA_V1_TOPICS=false` stops publishing them earlier. Move to the",
    `\`${platformTopicName(DEFAULT_PLATFORM_ID, 'events')}\` topics and the shared topic before then.`,
    '',
  ];
}
