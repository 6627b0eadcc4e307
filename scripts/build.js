// `npm run build`: compiles every TypeScript source the service, its tools and benchmarks run into
// dist/ with SWC (@swc/core, the compiler jest already uses), about a second for the whole tree,
// then copies the server-side functions' .sql files beside the code that reads them. Type checking
// is `npm run typecheck` (a gate of `npm test`), not part of the build.
const { transformFile } = require('@swc/core');
const { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');
const { swcOptions } = require('./swc-options');

const root = resolve(__dirname, '..');
const out = join(root, 'dist');
/** What tsconfig.build.json includes; tests and specs are jest's. */
const SOURCES = ['src', 'libs', 'apps', 'migrations', 'bench', 'scripts'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'test']);

function* files(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return; // an optional folder (apps, bench) that is absent
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) yield* files(path);
    } else yield path;
  }
}

async function compile(source) {
  const target = join(out, relative(root, source)).replace(/\.ts$/, '.js');
  const { code, map } = await transformFile(source, {
    ...swcOptions({ paths: true }),
    filename: source,
    sourceMaps: true,
    outputPath: target,
    swcrc: false,
    configFile: false,
  });
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
  writeFileSync(`${target}.map`, map);
}

async function main() {
  const started = Date.now();
  rmSync(out, { recursive: true, force: true });
  const sources = SOURCES.flatMap((folder) => [...files(join(root, folder))]);
  const typescript = sources.filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.spec.ts'),
  );
  await Promise.all(typescript.map(compile));
  for (const file of sources.filter((f) => f.endsWith('.sql'))) {
    const target = join(out, relative(root, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`built ${typescript.length} files into dist/ in ${seconds} s`);
}

main().catch((error) => {
  console.error(`build failed: ${error.message ?? error}`);
  process.exit(1);
});
