import {
  CONTRACT_VERSION,
  contractSchemaFiles,
  renderAsyncApiDocument,
  renderContractDocument,
} from '@studio/contracts';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { readRecordedExamples } from './recorded-examples';

/** The repository root as seen from the sources (tests); the CLI passes its working directory. */
export const REPO_ROOT = resolve(__dirname, '..', '..');
const SCHEMA_DIR = 'libs/contracts/schemas';
const CONTRACT_DOC = 'docs/kafka-contract.md';
export const ASYNCAPI_DOC = 'docs/asyncapi.json';

/** What the contract files should contain: path (from the repo root) → text. */
export function expectedContractFiles(root = REPO_ROOT): Map<string, string> {
  const files = new Map<string, string>();
  files.set(CONTRACT_DOC, renderContractDocument());
  const asyncApi = renderAsyncApiDocument(CONTRACT_VERSION, readRecordedExamples(root));
  files.set(ASYNCAPI_DOC, `${JSON.stringify(asyncApi, null, 2)}\n`);
  for (const [path, schema] of Object.entries(contractSchemaFiles())) {
    files.set(join(SCHEMA_DIR, path), `${JSON.stringify(schema, null, 2)}\n`);
  }
  return files;
}

function listFiles(root: string, dir: string): string[] {
  try {
    return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => relative(root, join(d.parentPath, d.name)));
  } catch {
    return [];
  }
}

/** Rewrites docs/kafka-contract.md and libs/contracts/schemas/** from the TypeScript schemas. */
export function writeContractFiles(root: string): string[] {
  rmSync(join(root, SCHEMA_DIR), { recursive: true, force: true });
  const written: string[] = [];
  for (const [path, text] of expectedContractFiles(root)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    written.push(path);
  }
  return written;
}

/**
 * Paths whose committed text differs from what the schemas say (empty when up to date). The
 * committed files are prettier-formatted, so the expected text goes through the same `format`.
 */
export async function staleContractFiles(
  root: string,
  format: (text: string, path: string) => Promise<string>,
): Promise<string[]> {
  const expected = expectedContractFiles(root);
  const stale: string[] = [];
  for (const [path, raw] of expected) {
    const text = await format(raw, path);
    let actual: string | undefined;
    try {
      actual = readFileSync(join(root, path), 'utf8');
    } catch {
      actual = undefined;
    }
    if (actual !== text) stale.push(path);
  }
  for (const path of listFiles(root, SCHEMA_DIR)) if (!expected.has(path)) stale.push(path);
  return stale;
}
