/**
 * Architectural boundaries. Libraries that hold rules or protocols must stay pure: no framework,
 * no ORM, no broker, no serial port and no database driver, so they can be unit-tested, replayed by
 * auditors and reused by the simulators without dragging infrastructure along.
 */
const PURE_LIBS = '^libs/(cards|contracts|scanner-protocol|games)/';
const FRAMEWORK =
  '(^|/)node_modules/(@nestjs/|typeorm/|kafkajs/|serialport/|@serialport/|pg/|pg-[^/]+/|@electric-sql/|nestjs-pino/)';
/** Node modules that do I/O: rules and protocols receive bytes, time and randomness from outside. */
const NODE_IO =
  '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|dgram|tls|worker_threads|cluster)$';

/**
 * The service's pure core: the table machine and the games' adapters are `(state, input) ->
 * { state, effects }`, so they import no framework, ORM, broker, serial or driver package, do no
 * I/O, and reach into the service only for `src/common` (and each other).
 */
const PURE_CORE = '^src/(table-core|games)/';
const PURE_CORE_MAY_IMPORT = '^src/(table-core|games|common)/';
/** Packages that talk to a database: only the history, the database and outbox plumbing and auth. */
const DATABASE_PACKAGES = '(^|/)node_modules/(typeorm|pg|pg-[^/]+|@types/pg)/';
const DATABASE_ALLOWED =
  '^src/(history|database|outbox|auth)/|\\.spec\\.ts$|^(migrations|test|apps|bench|scripts|libs)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'pure-libs-import-no-framework',
      comment:
        'Rules and protocol libraries (libs/cards, contracts, scanner-protocol, games) must not import NestJS, TypeORM, kafkajs, serialport or pg.',
      severity: 'error',
      from: { path: PURE_LIBS },
      to: { path: FRAMEWORK },
    },
    {
      name: 'pure-libs-do-no-io',
      comment:
        'Rules and protocol libraries do no I/O of their own: no fs, net, http, child_process.',
      severity: 'error',
      from: { path: PURE_LIBS },
      to: { dependencyTypes: ['core'], path: NODE_IO },
    },
    {
      name: 'pure-libs-resolve-everything',
      comment: 'An import the cruiser cannot resolve could hide a forbidden dependency.',
      severity: 'error',
      from: { path: PURE_LIBS },
      to: { couldNotResolve: true },
    },
    {
      name: 'pure-libs-import-no-service-code',
      comment: 'Libraries must not reach into the service (src/) or the apps.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^(src|apps)/' },
    },
    {
      name: 'pure-libs-import-no-impure-libs',
      comment: 'Pure libraries may only depend on other pure libraries (not on libs/persistence).',
      severity: 'error',
      from: { path: PURE_LIBS },
      to: { path: '^libs/persistence/' },
    },
    {
      name: 'table-core-and-games-import-no-framework',
      comment:
        'The table machine (src/table-core) and the games (src/games) are pure: no NestJS, TypeORM, kafkajs, serialport, pg, PGlite or pino.',
      severity: 'error',
      from: { path: PURE_CORE },
      to: { path: FRAMEWORK },
    },
    {
      name: 'table-core-and-games-do-no-io',
      comment:
        'The table machine and the games do no I/O of their own: no fs, net, http, child_process.',
      severity: 'error',
      from: { path: PURE_CORE },
      to: { dependencyTypes: ['core'], path: NODE_IO },
    },
    {
      name: 'table-core-and-games-import-only-the-core',
      comment:
        'The table machine and the games import nothing of the service outside src/table-core, src/games and src/common (and no impure library).',
      severity: 'error',
      // Specs may build real table settings around the pure code they test.
      from: { path: PURE_CORE, pathNot: '\\.spec\\.ts$' },
      to: { path: '^(src/|apps/|libs/persistence/)', pathNot: PURE_CORE_MAY_IMPORT },
    },
    {
      name: 'table-core-and-games-resolve-everything',
      comment: 'An import the cruiser cannot resolve could hide a forbidden dependency.',
      severity: 'error',
      from: { path: PURE_CORE },
      to: { couldNotResolve: true },
    },
    {
      name: 'use-cases-import-no-database',
      comment:
        'Use cases (src/use-cases) state what a command does; the SQL lives in repositories (src/history), so no typeorm or pg here.',
      severity: 'error',
      from: { path: '^src/use-cases/' },
      to: { path: DATABASE_PACKAGES },
    },
    {
      name: 'database-only-in-history-database-outbox-auth',
      comment:
        'typeorm and pg (hence a DataSource) only in src/history, src/database, src/outbox and src/auth; the rest of the service reads and writes through them.',
      severity: 'error',
      from: { path: '^src/', pathNot: DATABASE_ALLOWED },
      to: { path: DATABASE_PACKAGES },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').resolve(__dirname, 'tsconfig.json') },
    exclude: { path: '^(dist|coverage|\\.data|\\.cache|\\.tmp)/' },
  },
};
