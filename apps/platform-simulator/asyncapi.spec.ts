import { Parser } from '@asyncapi/parser';
import { COMMAND_TYPES, EVENT_SCHEMAS, sharedTopicOmits, visibilityOf } from '@studio/contracts';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSchemaFiles, validatorsForFiles } from './conformance';
import { ASYNCAPI_DOC, REPO_ROOT } from './contract-files';

/** The shipped AsyncAPI document, checked by the AsyncAPI parser platform teams would use. */
describe('docs/asyncapi.json', () => {
  const text = readFileSync(join(REPO_ROOT, ASYNCAPI_DOC), 'utf8');
  /** The redacted and split events as the shared topic (and v1, for others' players) has them. */
  const sharedForms = EVENT_SCHEMAS.map((e) => e.type)
    .filter((t) => sharedTopicOmits(t).length > 0)
    .map((t) => `${t}Shared`);

  it('parses and validates with @asyncapi/parser with 0 diagnostics at warning level or worse', async () => {
    const { document, diagnostics } = await new Parser().parse(text);
    // Severity 0 is an error, 1 a warning (2 information, 3 a hint).
    const warnings = diagnostics.filter((d) => d.severity <= 1);
    expect(warnings.map((d) => `${d.code} ${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.version()).toBe('3.1.0');
    const events = document!.channels().get('tableEvents')!;
    expect(
      events
        .messages()
        .all()
        .map((m) => m.id())
        .sort(),
    ).toEqual([...EVENT_SCHEMAS.map((e) => e.type), ...sharedForms].sort());
    const intake = document!.operations().get('receivePlatformCommands')!;
    expect(intake.reply()?.channel()?.address()).toBe('studio.command-results.v1');
    expect(
      intake
        .messages()
        .all()
        .map((m) => m.id())
        .sort(),
    ).toEqual([...COMMAND_TYPES].sort());
  });

  it('lists on the shared topic the public events whole and the others in their shared form', async () => {
    const { document } = await new Parser().parse(text);
    const ids = (channel: string) =>
      document!
        .channels()
        .get(channel)!
        .messages()
        .all()
        .map((m) => m.id())
        .sort();
    const publicTypes = EVENT_SCHEMAS.map((e) => e.type).filter(
      (t) => visibilityOf(t).kind === 'public',
    );
    expect(ids('sharedTableEvents')).toEqual([...publicTypes, ...sharedForms].sort());
    // BetsSettled as studio.table-events.v2 (and v1, for another platform's players) carries it:
    // a real message of a round where casino-a's players alone bet. It used to match no message
    // of the channel (BetsSettled was not listed there, and its schema requires settlements).
    const doc = JSON.parse(text) as { components: Record<string, unknown> };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const payloadOf = (name: string) =>
      JSON.parse(
        JSON.stringify(
          (doc.components.messages as Record<string, { payload: unknown }>)[name].payload,
        ).replace(/"#\/components/g, '"doc#/components'),
      ) as object;
    const shared = {
      eventId: '58e7f47d-182f-4475-b583-4b3970a68cc2',
      type: 'BetsSettled',
      schemaVersion: 1,
      tableId: 'ibj-1',
      roundId: 'f1745c33-9fd4-49fa-8b06-45082a90b5ba',
      seq: 90,
      occurredAt: '2026-12-05T03:39:42.760Z',
      payload: {},
      chain: { eventNo: 131, hash: 'e'.repeat(64) },
    };
    expect(ajv.validate(payloadOf('BetsSettled'), shared)).toBe(false);
    expect(ajv.validate(payloadOf('BetsSettledShared'), shared)).toBe(true);
    expect(ajv.validate(payloadOf('BetsSettledShared'), { ...shared, seq: 0 })).toBe(false);
  });

  it('names its servers and their SASL/TLS security', async () => {
    const { document } = await new Parser().parse(text);
    const production = document!.servers().get('production')!;
    expect(production.protocol()).toBe('kafka-secure');
    expect(
      production
        .security()
        .flatMap((s) => s.all().map((r) => r.scheme().type()))
        .sort(),
    ).toEqual(['plain', 'scramSha256', 'scramSha512']);
  });

  it('pairs every command with its answer by commandId', async () => {
    const { document } = await new Parser().parse(text);
    for (const name of [...COMMAND_TYPES, 'CommandResult']) {
      const message = document!.components().messages().get(name)!;
      expect([name, message.correlationId()?.location()]).toEqual([
        name,
        '$message.payload#/commandId',
      ]);
    }
    // The headers every answer carries (src/kafka/results-producer.ts), undocumented before.
    const answer = document!.components().messages().get('CommandResult')!;
    expect(Object.keys(answer.headers()?.properties() ?? {}).sort()).toEqual([
      'command-id',
      'command-status',
    ]);
  });

  it('offers the v2 per-platform topics and the v2 table events as channels', async () => {
    const { document } = await new Parser().parse(text);
    const addresses = document!
      .channels()
      .all()
      .map((c) => c.address());
    expect(addresses).toEqual(
      expect.arrayContaining([
        'studio.platform.{platformId}.commands.v2',
        'studio.platform.{platformId}.results.v2',
        'studio.platform.{platformId}.events.v2',
        'studio.table-events.v2',
      ]),
    );
  });

  it('titles every object, array and enum schema of every message (no AnonymousSchema)', () => {
    const doc = JSON.parse(text) as { components: { messages: Record<string, unknown> } };
    const untitled: string[] = [];
    const walk = (schema: unknown, at: string) => {
      if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
      const s = schema as Record<string, unknown>;
      if (typeof s.$ref === 'string') return;
      if ((s.type === 'object' || s.type === 'array' || s.enum) && !s.title) untitled.push(at);
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
        walk(v, `${at}.${k}`);
      }
      walk(s.items, `${at}[]`);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${at}{}`);
      for (const key of ['oneOf', 'anyOf', 'allOf']) {
        ((s[key] ?? []) as unknown[]).forEach((v, i) => walk(v, `${at}|${i}`));
      }
    };
    for (const [name, message] of Object.entries(doc.components.messages)) {
      const m = message as { payload: unknown; headers?: unknown };
      walk(m.payload, `${name}.payload`);
      walk(m.headers, `${name}.headers`);
    }
    expect(untitled).toEqual([]);
  });

  it('carries recorded messages as examples, each valid against the shipped schema files', () => {
    const doc = JSON.parse(text) as {
      components: { messages: Record<string, { examples?: Array<{ payload: unknown }> }> };
    };
    const validators = validatorsForFiles(
      readSchemaFiles(join(REPO_ROOT, 'libs', 'contracts', 'schemas')),
    );
    const fileOf = (name: string) =>
      name === 'CommandResult'
        ? 'command-result.json'
        : (COMMAND_TYPES as readonly string[]).includes(name)
          ? `commands/${name}.json`
          : `events/${name}.json`;
    const invalid: string[] = [];
    const counts = { events: 0, commands: 0, answers: 0 };
    for (const [name, message] of Object.entries(doc.components.messages)) {
      for (const example of message.examples ?? []) {
        const file = fileOf(name);
        const violations = validators.get(file)!(example.payload);
        if (violations.length) invalid.push(`${name}: ${violations.join('; ')}`);
        if (file.startsWith('events/')) counts.events += 1;
        else if (file.startsWith('commands/')) counts.commands += 1;
        else counts.answers += 1;
      }
    }
    expect(invalid).toEqual([]);
    expect(counts.events).toBeGreaterThanOrEqual(40);
    expect(counts.commands).toBeGreaterThanOrEqual(2);
    const examples = (name: string) =>
      (doc.components.messages[name].examples ?? []).map(
        (e) => e.payload as { commandId: string; status?: string },
      );
    expect(examples('CommandResult').map((a) => a.status)).toEqual(['accepted', 'rejected']);
    // The PlaceBet example and the accepted answer are one exchange: the same commandId.
    expect(examples('CommandResult')[0].commandId).toBe(examples('PlaceBet')[0].commandId);
  });

  it('is refused by the parser when broken (the check has teeth)', async () => {
    const doc = JSON.parse(text) as { operations: Record<string, { action: string }> };
    doc.operations.publishTableEvents.action = 'publish';
    const { diagnostics } = await new Parser().parse(JSON.stringify(doc));
    expect(diagnostics.filter((d) => d.severity === 0).length).toBeGreaterThan(0);
  });
});
