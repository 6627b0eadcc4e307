import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BuildInfo {
  version: string;
  commit: string;
}

/**
 * Which build runs, for `studio_build_info`: the version from the service's package.json (found by
 * walking up from the compiled file, as in the repository and in a release folder) and the commit
 * from a REVISION file beside it, which the release step writes (`git rev-parse HEAD > REVISION`,
 * docs/operations.md); "unknown" without one.
 */
export function readBuildInfo(start = __dirname): BuildInfo {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'live-dealer-studio') {
        return { version: pkg.version ?? 'unknown', commit: revision(join(dir, 'REVISION')) };
      }
    }
    if (dirname(dir) === dir) return { version: 'unknown', commit: 'unknown' };
  }
}

function revision(path: string): string {
  if (!existsSync(path)) return 'unknown';
  const text = readFileSync(path, 'utf8').trim();
  // A label value from a file: only what a commit id or tag looks like, bounded.
  return /^[\w.+-]{1,64}$/.test(text) ? text : 'unknown';
}
