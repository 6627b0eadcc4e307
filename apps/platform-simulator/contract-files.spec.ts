import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expectedContractFiles, REPO_ROOT, staleContractFiles } from './contract-files';

/**
 * The committed files are prettier-formatted; prettier 3 is ESM-only inside jest, so the expected
 * texts are formatted by one prettier CLI run over a scratch copy.
 */
function prettierFormatted(files: Map<string, string>): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-'));
  try {
    for (const [path, text] of files) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    execFileSync(
      process.execPath,
      [
        join(REPO_ROOT, 'node_modules/prettier/bin/prettier.cjs'),
        '--config',
        join(REPO_ROOT, '.prettierrc.json'),
        '--log-level',
        'warn',
        '--write',
        dir,
      ],
      { stdio: 'pipe' },
    );
    return new Map([...files.keys()].map((path) => [path, readFileSync(join(dir, path), 'utf8')]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('shipped contract files', () => {
  it('match the schemas in libs/contracts (run `npm run contract:generate` after changing them)', async () => {
    const formatted = prettierFormatted(expectedContractFiles());
    expect(formatted.size).toBeGreaterThan(60);
    expect(
      await staleContractFiles(REPO_ROOT, async (_text, path) => formatted.get(path)!),
    ).toEqual([]);
  });
});
