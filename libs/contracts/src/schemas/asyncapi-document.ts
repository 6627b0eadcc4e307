import { EVENT_HEADERS } from '../envelope';
import { sharedTopicOmits } from '../event-visibility';
import { TOPIC_NAMES } from '../topics';
import { platformChannels, platformOperations } from './asyncapi-platforms';
import {
  COMMAND_RESULT_SCHEMA,
  COMMAND_SCHEMAS,
  COMMAND_TYPES,
  DEAD_LETTER_HEADERS,
  RESULT_HEADERS,
} from './command-schemas';
import {
  ASYNCAPI_SECURITY_SCHEMES,
  ASYNCAPI_SERVERS,
  AsyncApiExamples,
  COMMAND_CORRELATION,
  messageExamples,
  titled,
} from './asyncapi-parts';
import { EVENT_SCHEMAS, eventSchema } from './event-schemas';
import type { JsonSchema } from './json-schema';
import { SCHEMA_BASE_URI, SHARED_DEFS } from './shared-defs';

const DEFS_PREFIX = `${SCHEMA_BASE_URI}defs.json#/$defs/`;
const KAFKA_BINDING_VERSION = '0.5.0';

/**
 * The same schemas for AsyncAPI tooling: `$schema`/`$id` dropped and the shared definitions
 * referenced from components, so the document is self-contained (no remote `$ref` to fetch).
 */
function localised(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(localised);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === '$id') continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(DEFS_PREFIX)) {
      out.$ref = `#/components/schemas/${value.slice(DEFS_PREFIX.length)}`;
    } else out[key] = localised(value);
  }
  return out;
}

const stringHeaders = (names: Record<string, string>, description: string): JsonSchema => ({
  type: 'object',
  description,
  properties: Object.fromEntries(Object.values(names).map((h) => [h, { type: 'string' }])),
});

const KEY = (description: string) => ({
  kafka: { key: { type: 'string', description }, bindingVersion: KAFKA_BINDING_VERSION },
});

const ref = (path: string) => ({ $ref: path });

/** The message of an event as the shared topic carries it: `<type>Shared`. */
export const sharedMessageName = (type: string) => `${type}Shared`;

/** An event's schema with the payload fields the shared topic leaves out taken away. */
function withoutOmitted(schema: JsonSchema, omitted: readonly string[]): JsonSchema {
  const copy = structuredClone(schema) as JsonSchema & {
    properties: { payload: { properties?: Record<string, unknown>; required?: string[] } };
  };
  const payload = copy.properties.payload;
  for (const field of omitted) delete payload.properties?.[field];
  if (payload.required) payload.required = payload.required.filter((f) => !omitted.includes(f));
  return copy;
}

const correlated = { correlationId: ref('#/components/correlationIds/commandId') };

/**
 * The AsyncAPI 3 document of the Kafka contract (docs/asyncapi.json), built from the schemas, with
 * the recorded `examples` (message name → real messages) on their messages.
 */
export function renderAsyncApiDocument(
  contractVersion: string,
  examples: AsyncApiExamples = {},
): Record<string, unknown> {
  const messages: Record<string, unknown> = {};
  for (const e of EVENT_SCHEMAS) {
    messages[e.type] = {
      name: e.type,
      title: e.type,
      summary: e.summary,
      contentType: 'application/json',
      headers: titled(
        stringHeaders(EVENT_HEADERS, 'repeat eventId, type and schemaVersion for routing'),
        'EventHeaders',
      ),
      payload: titled(localised(eventSchema(e)), e.type),
      bindings: KEY('the table id'),
      ...messageExamples(e.type, examples, true),
    };
    const omitted = sharedTopicOmits(e.type);
    if (omitted.length === 0) continue;
    const name = sharedMessageName(e.type);
    messages[name] = {
      name,
      title: name,
      summary:
        `${e.type} as the shared topic carries it (and the v1 topic, for another platform's ` +
        `players): without ${omitted.map((f) => `\`${f}\``).join(', ')}.`,
      contentType: 'application/json',
      headers: titled(
        stringHeaders(EVENT_HEADERS, 'repeat eventId, type and schemaVersion for routing'),
        'EventHeaders',
      ),
      payload: titled(localised(withoutOmitted(eventSchema(e)!, omitted)), name),
      bindings: KEY('the table id'),
    };
  }
  for (const type of COMMAND_TYPES) {
    const schema = COMMAND_SCHEMAS[type];
    messages[type] = {
      name: type,
      title: type,
      summary: schema.description,
      contentType: 'application/json',
      ...correlated,
      payload: titled(localised(schema), type),
      bindings: KEY('the table id (must equal tableId)'),
      ...messageExamples(type, examples, false),
    };
  }
  messages.CommandResult = {
    name: 'CommandResult',
    title: 'CommandResult',
    summary: COMMAND_RESULT_SCHEMA.description,
    contentType: 'application/json',
    ...correlated,
    headers: titled(
      stringHeaders(RESULT_HEADERS, 'repeat commandId and status (accepted or rejected)'),
      'ResultHeaders',
    ),
    payload: titled(localised(COMMAND_RESULT_SCHEMA), 'CommandResult'),
    bindings: KEY('the table id'),
    ...messageExamples('CommandResult', examples, false),
  };
  messages.DeadLetter = {
    name: 'DeadLetter',
    title: 'DeadLetter',
    summary: 'A command that could not be answered: the original bytes, the reason in headers.',
    contentType: 'application/octet-stream',
    headers: titled(
      stringHeaders(DEAD_LETTER_HEADERS, 'why and where the message came from'),
      'DeadLetterHeaders',
    ),
    payload: {
      title: 'DeadLetterValue',
      type: 'string',
      description: 'the original message value, untouched',
    },
    bindings: KEY('the original key'),
  };
  const channelMessages = (names: readonly string[]) =>
    Object.fromEntries(names.map((n) => [n, ref(`#/components/messages/${n}`)]));
  const eventTypes = EVENT_SCHEMAS.map((e) => e.type);
  // The v1 topic carries another platform's players' events as the shared topic does.
  const sharedForms = eventTypes
    .filter((t) => sharedTopicOmits(t).length > 0)
    .map(sharedMessageName);
  const v1EventMessages = [...eventTypes, ...sharedForms];
  const opMessages = (channel: string, names: readonly string[]) =>
    names.map((n) => ref(`#/channels/${channel}/messages/${n}`));
  return {
    asyncapi: '3.1.0',
    info: {
      title: 'Live-dealer studio: Kafka contract with casino platforms',
      version: contractVersion,
      description:
        'Generated by `npm run contract:generate` from libs/contracts/src/schemas (the same ' +
        'definitions as libs/contracts/schemas and docs/kafka-contract.md). Topic names may carry ' +
        'a deployment prefix (KAFKA_TOPIC_PREFIX).',
    },
    defaultContentType: 'application/json',
    servers: ASYNCAPI_SERVERS,
    channels: {
      tableEvents: {
        address: TOPIC_NAMES.tableEvents,
        description: 'Everything that happens at a table, keyed by table id, ordered by seq.',
        messages: channelMessages(v1EventMessages),
      },
      platformCommands: {
        address: TOPIC_NAMES.platformCommands,
        description: "Platforms' commands, keyed by table id.",
        messages: channelMessages(COMMAND_TYPES),
      },
      commandResults: {
        address: TOPIC_NAMES.commandResults,
        description: 'One answer per command, correlated by commandId.',
        messages: channelMessages(['CommandResult']),
      },
      commandDeadLetters: {
        address: TOPIC_NAMES.commandDeadLetters,
        description: 'Commands that could not be read.',
        messages: channelMessages(['DeadLetter']),
      },
      ...platformChannels(channelMessages, eventTypes),
    },
    operations: {
      publishTableEvents: {
        action: 'send',
        summary: 'The studio publishes table events.',
        channel: ref('#/channels/tableEvents'),
        messages: opMessages('tableEvents', v1EventMessages),
      },
      receivePlatformCommands: {
        action: 'receive',
        summary: 'The studio reads commands and answers each one on the results topic.',
        channel: ref('#/channels/platformCommands'),
        messages: opMessages('platformCommands', COMMAND_TYPES),
        reply: {
          channel: ref('#/channels/commandResults'),
          messages: opMessages('commandResults', ['CommandResult']),
        },
      },
      publishDeadLetters: {
        action: 'send',
        summary: 'Unreadable commands are parked, never dropped.',
        channel: ref('#/channels/commandDeadLetters'),
        messages: opMessages('commandDeadLetters', ['DeadLetter']),
      },
      ...platformOperations(opMessages, eventTypes),
    },
    components: {
      schemas: sharedDefs(),
      messages,
      securitySchemes: ASYNCAPI_SECURITY_SCHEMES,
      correlationIds: COMMAND_CORRELATION,
    },
  };
}

/** The shared definitions as components, each titled with its name (`amount`, `cardCode`). */
function sharedDefs(): Record<string, unknown> {
  const defs = localised(SHARED_DEFS) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(defs).map(([name, s]) => [name, { title: name, ...s }]));
}
