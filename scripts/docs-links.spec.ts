import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Inline link targets `[text](target)` outside fenced code blocks. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

const EXTERNAL = /^(https?:|mailto:)/;

describe('links in README.md and docs/', () => {
  const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

  it('reads the links of every document', () => {
    expect(
      linkTargets('see [a](docs/a.md#x) and [b](https://x.org)\n```\n[c](no.md)\n```'),
    ).toEqual(['docs/a.md#x', 'https://x.org']);
    expect(files.map((f) => relative(ROOT, f))).toEqual(
      expect.arrayContaining(['README.md', join('docs', 'tour.md'), join('docs', 'operations.md')]),
    );
  });

  it.each(files.map((f) => [relative(ROOT, f), f]))(
    '%s links only to files inside the repository',
    (_name, file) => {
      const problems: string[] = [];
      for (const target of linkTargets(readFileSync(file, 'utf8'))) {
        if (EXTERNAL.test(target) || target.startsWith('#')) continue;
        const path = resolve(dirname(file), decodeURIComponent(target.split('#')[0]));
        if (path !== ROOT && !path.startsWith(ROOT + sep))
          problems.push(`${target}: outside the repository`);
        else if (!existsSync(path)) problems.push(`${target}: no such file`);
      }
      expect(problems).toEqual([]);
    },
  );
});
