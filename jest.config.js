// Unit tests live next to the code (*.spec.ts); integration and end-to-end tests live in test/
// (*.e2e-spec.ts) and talk to the real PostgreSQL, a real Kafka broker and real pseudo-terminals.
const { LIBS, swcOptions } = require('./scripts/swc-options');

// The build's SWC options (scripts/swc-options.js), with inline source maps for stack traces.
const swc = ['@swc/jest', { ...swcOptions(), sourceMaps: 'inline' }];

// `@studio/<lib>` as the build maps it (the same list of libraries).
const libs = LIBS.join('|');
const moduleNameMapper = {
  [`^@studio/(${libs})$`]: '<rootDir>/libs/$1/src',
  [`^@studio/(${libs})/(.*)$`]: '<rootDir>/libs/$1/src/$2',
};

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  moduleNameMapper,
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  testSequencer: '<rootDir>/test/support/long-files-first.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{src,libs,apps,scripts}/**/*.spec.ts'],
      // What the code under test logs goes to test-artifacts/logs/unit/, not into jest's output.
      setupFilesAfterEnv: ['<rootDir>/test/support/jest-unit-logs.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // Names a file that leaves a socket, server, child or timer open when it ends.
      testEnvironment: '<rootDir>/test/support/integration-environment.js',
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      // In-process services log to test-artifacts/logs/, not into jest's output.
      setupFilesAfterEnv: ['<rootDir>/test/support/jest-service-logs.ts'],
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      slowTestThreshold: 30,
    },
  ],
};
