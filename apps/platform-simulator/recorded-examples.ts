import type { JsonSchema } from '@studio/contracts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConformanceRecord, validatorsForFiles } from './conformance';

/**
 * The AsyncAPI document's examples are real messages: what the integration tests' studios
 * committed and their platform clients sent and received (the conformance records, .tmp/
 * conformance after a test run), one per message that passed its shipped schema.
 * `npm run contract:examples` picks them into this file; `contract:generate` puts them in the
 * document.
 */
export const RECORDED_EXAMPLES_FILE = 'apps/platform-simulator/recorded-examples.json';

export interface RecordedExample {
  /** Which test run's studio or platform client it came from. */
  source: string;
  value: Record<string, unknown>;
}

/** Message name (event type, command type, `CommandResult`) → its examples. */
export type RecordedExamples = Record<string, RecordedExample[]>;

type Value = Record<string, unknown>;

/** A stable order, so regenerating from the same records gives the same file. */
const byOrigin = (a: ConformanceRecord, b: ConformanceRecord) =>
  a.source.localeCompare(b.source) ||
  JSON.stringify(a.value).localeCompare(JSON.stringify(b.value));

/**
 * One valid example per event type and per command type, and an accepted and a rejected
 * CommandResult (the answer to the PlaceBet example when it was recorded, so the pair shows the
 * correlation by commandId).
 */
export function pickExamples(
  records: readonly ConformanceRecord[],
  files: Record<string, JsonSchema>,
): RecordedExamples {
  const validators = validatorsForFiles(files);
  const valid = (path: string, value: unknown) => validators.get(path)?.(value).length === 0;
  const out: RecordedExamples = {};
  const take = (name: string, record: ConformanceRecord) => {
    out[name] ??= [];
    out[name].push({ source: record.source, value: record.value as Value });
  };
  const sorted = [...records].sort(byOrigin);
  const answers = sorted.filter(
    (r) => r.kind === 'answer' && valid('command-result.json', r.value),
  );
  const answered = new Set(answers.map((r) => (r.value as Value).commandId));
  for (const kind of ['event', 'command'] as const) {
    const folder = kind === 'event' ? 'events' : 'commands';
    for (const record of sorted.filter((r) => r.kind === kind)) {
      const type = String((record.value as Value).type);
      const first = !out[type];
      const better =
        kind === 'command' &&
        !answered.has(out[type]?.[0]?.value.commandId) &&
        answered.has((record.value as Value).commandId);
      if ((first || better) && valid(`${folder}/${type}.json`, record.value)) {
        delete out[type];
        take(type, record);
      }
    }
  }
  const bet = out.PlaceBet?.[0]?.value.commandId;
  for (const status of ['accepted', 'rejected']) {
    const mine = answers.filter((r) => (r.value as Value).status === status);
    const pick = mine.find((r) => (r.value as Value).commandId === bet) ?? mine[0];
    if (pick) take('CommandResult', pick);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

export function readRecordedExamples(root: string): RecordedExamples {
  try {
    return JSON.parse(readFileSync(join(root, RECORDED_EXAMPLES_FILE), 'utf8')) as RecordedExamples;
  } catch {
    return {};
  }
}

export function writeRecordedExamples(root: string, examples: RecordedExamples): void {
  writeFileSync(join(root, RECORDED_EXAMPLES_FILE), `${JSON.stringify(examples, null, 2)}\n`);
}
