// The one set of SWC options: the build (scripts/build.js) and jest's transform use it, so the
// code a test runs in-process is compiled exactly as the code `npm start` and production run.
const { resolve } = require('node:path');

const root = resolve(__dirname, '..');

/** `@studio/<lib>` → `libs/<lib>/src`, as in tsconfig.json's `paths` (and jest.config.js). */
const LIBS = ['cards', 'contracts', 'persistence', 'scanner-protocol', 'games', 'virtual-shoe'];

function swcOptions({ paths = false } = {}) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
      ...(paths && {
        baseUrl: root,
        paths: Object.fromEntries(
          LIBS.flatMap((lib) => [
            [`@studio/${lib}`, [`libs/${lib}/src`]],
            [`@studio/${lib}/*`, [`libs/${lib}/src/*`]],
          ]),
        ),
      }),
    },
    module: { type: 'commonjs' },
  };
}

module.exports = { swcOptions, LIBS };
