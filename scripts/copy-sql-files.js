// Copies the server-side functions' source files (*.sql under src/ and libs/) into dist/ beside
// the compiled code that reads them: tsc copies only what it compiles.
const { copyFileSync, mkdirSync, readdirSync } = require('node:fs');
const { dirname, join } = require('node:path');

for (const root of ['src', 'libs']) {
  for (const file of readdirSync(root, { recursive: true })) {
    if (!file.endsWith('.sql')) continue;
    const target = join('dist', root, file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(root, file), target);
  }
}
