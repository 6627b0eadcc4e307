import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');

/** The platform routes' document as committed (what GET /docs/platform/openapi.json serves). */
export const PLATFORM_DOCUMENT_FILE = join(ROOT, 'docs', 'openapi-platform.json');

const run = promisify(execFile);

/**
 * swagger-parser on a file, in a child Node (its dependencies are ES modules, which Node loads but
 * jest's CommonJS runtime does not): `validate` prints "valid" or the error, `dereference` the
 * document with every `$ref` replaced by what it names.
 */
async function swaggerParser(how: 'validate' | 'dereference', file: string): Promise<string> {
  const script =
    "require('@apidevtools/swagger-parser')." +
    how +
    '(process.argv[1]).then((d) => process.stdout.write(' +
    (how === 'validate' ? "'valid'" : 'JSON.stringify(d)') +
    '), (e) => process.stdout.write(String(e.message)))';
  const { stdout } = await run(process.execPath, ['-e', script, file], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The document with every `$ref` replaced by what it names (for Ajv). */
export async function dereferenced<T>(document: T): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-deref-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    return JSON.parse(await swaggerParser('dereference', file)) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface LintReport {
  /** swagger-parser's validation error, or null when the document is valid. */
  swaggerParser: string | null;
  /** redocly lint's problems with the repository's redocly.yaml: "severity rule pointer: message". */
  redocly: string[];
}

interface RedoclyOutput {
  problems: Array<{
    ruleId: string;
    severity: string;
    message: string;
    location: Array<{ pointer: string }>;
  }>;
}

/**
 * What the two independent tools a platform engineer would use say of a document: swagger-parser
 * (schema validation and `$ref` resolution) and `redocly lint` (the recommended rules, as
 * configured in redocly.yaml), run as its CLI on a copy in a temporary folder.
 */
export async function lintOpenApi(document: unknown): Promise<LintReport> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    const validation = await swaggerParser('validate', file);
    const cli = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const args = [cli, 'lint', '--config', join(ROOT, 'redocly.yaml'), '--format=json', file];
    // The CLI exits 1 when it finds errors; its JSON report is on stdout either way.
    const { stdout } = await run(process.execPath, args, {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 32 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as RedoclyOutput;
    const redocly = report.problems.map(
      (p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`,
    );
    return { swaggerParser: validation === 'valid' ? null : validation, redocly };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
