import { Parser } from '@asyncapi/parser';
import { COMMAND_TYPES, EVENT_SCHEMAS } from '@studio/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASYNCAPI_DOC, REPO_ROOT } from './contract-files';

/** The shipped AsyncAPI document, checked by the AsyncAPI parser platform teams would use. */
describe('docs/asyncapi.json', () => {
  const text = readFileSync(join(REPO_ROOT, ASYNCAPI_DOC), 'utf8');

  it('parses and validates with @asyncapi/parser without errors', async () => {
    const { document, diagnostics } = await new Parser().parse(text);
    const errors = diagnostics.filter((d) => d.severity === 0);
    expect(errors.map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.version()).toBe('3.0.0');
    const events = document!.channels().get('tableEvents')!;
    expect(
      events
        .messages()
        .all()
        .map((m) => m.id())
        .sort(),
    ).toEqual(EVENT_SCHEMAS.map((e) => e.type).sort());
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

  it('is refused by the parser when broken (the check has teeth)', async () => {
    const doc = JSON.parse(text) as { operations: Record<string, { action: string }> };
    doc.operations.publishTableEvents.action = 'publish';
    const { diagnostics } = await new Parser().parse(JSON.stringify(doc));
    expect(diagnostics.filter((d) => d.severity === 0).length).toBeGreaterThan(0);
  });
});
