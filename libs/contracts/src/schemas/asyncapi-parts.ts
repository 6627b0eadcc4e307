import { EVENT_HEADERS } from '../envelope';

/**
 * The parts of the AsyncAPI document that are about the deployment rather than the schemas:
 * servers and their security, the command/answer correlation, recorded examples, titles for
 * code generators, and the v2 per-platform topics.
 */

/** Recorded messages by message name (apps/platform-simulator/recorded-examples.json). */
export type AsyncApiExamples = Record<
  string,
  ReadonlyArray<{ source: string; value: Record<string, unknown> }>
>;

/** KAFKA_BROKERS with KAFKA_TLS and KAFKA_SASL_MECHANISM (docs/operations.md). */
export const ASYNCAPI_SERVERS = {
  production: {
    host: '{broker}',
    protocol: 'kafka-secure',
    description:
      'The studio cluster over TLS (KAFKA_TLS=true), authenticated with SASL: SCRAM-SHA-512 ' +
      '(recommended), SCRAM-SHA-256 or PLAIN. Each platform gets its own principal.',
    variables: {
      broker: {
        default: 'kafka.studio.example:9093',
        description: 'a bootstrap broker of the deployment (host:port)',
      },
    },
    security: [
      { $ref: '#/components/securitySchemes/scramSha512' },
      { $ref: '#/components/securitySchemes/scramSha256' },
      { $ref: '#/components/securitySchemes/plain' },
    ],
  },
  development: {
    host: '127.0.0.1:9092',
    protocol: 'kafka',
    description: 'A local broker without TLS or authentication (development and tests only).',
  },
};

export const ASYNCAPI_SECURITY_SCHEMES = {
  scramSha512: { type: 'scramSha512', description: 'SASL/SCRAM-SHA-512 over TLS' },
  scramSha256: { type: 'scramSha256', description: 'SASL/SCRAM-SHA-256 over TLS' },
  plain: { type: 'plain', description: 'SASL/PLAIN over TLS (only where SCRAM is unavailable)' },
};

/** A command and its answer carry the same commandId (chosen by the platform). */
export const COMMAND_CORRELATION = {
  commandId: {
    description: 'The commandId of a command, repeated in its CommandResult.',
    location: '$message.payload#/commandId',
  },
};

const pascal = (name: string) =>
  name.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/**
 * Every object, array-of-objects and enum schema inside `schema` titled after where it sits
 * (`RoundSettledPayload`, `RoundSettledPayloadSettlementsItem`), so code generators name their
 * types instead of `AnonymousSchema_N`. A schema with a title or a `$ref` keeps it.
 */
export function titled(schema: unknown, title: string): unknown {
  if (Array.isArray(schema) || schema === null || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') return s;
  const out: Record<string, unknown> = { ...s };
  const named = s.type === 'object' || s.type === 'array' || s.properties || s.enum || s.oneOf;
  if (named && s.title === undefined && s.const === undefined) out.title = title;
  if (s.properties && typeof s.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(s.properties).map(([k, v]) => [k, titled(v, `${title}${pascal(k)}`)]),
    );
  }
  if (s.items) out.items = titled(s.items, `${title}Item`);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    out.additionalProperties = titled(s.additionalProperties, `${title}Value`);
  }
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    if (Array.isArray(s[key])) {
      out[key] = (s[key] as unknown[]).map((v, i) => titled(v, `${title}Option${i + 1}`));
    }
  }
  return out;
}

/** The message's recorded examples, as AsyncAPI message examples (events with their headers). */
export function messageExamples(name: string, examples: AsyncApiExamples, withHeaders: boolean) {
  const recorded = examples[name] ?? [];
  if (recorded.length === 0) return {};
  return {
    examples: recorded.map(({ source, value }, i) => ({
      name: `${name}-recorded-${i + 1}`,
      summary: `A real message, recorded by the integration test ${source}`,
      ...(withHeaders
        ? {
            headers: {
              [EVENT_HEADERS.eventId]: String(value.eventId),
              [EVENT_HEADERS.type]: String(value.type),
              [EVENT_HEADERS.schemaVersion]: String(value.schemaVersion),
            },
          }
        : {}),
      payload: value,
    })),
  };
}
