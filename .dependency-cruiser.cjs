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
  '^src/(history|database|outbox|auth|platforms)/|\\.spec\\.ts$|^(migrations|test|apps|bench|scripts|libs)/';

/**
 * The middle ring: the use cases and the table runtimes (queue, timers, leases, registry). It
 * states what a command does and drives the pure core; it reaches storage and brokers only
 * through ports it declares itself (interfaces or abstract classes in the file or folder that uses
 * them), which the edges meet and the modules bind. So it imports the core, the shared kernel
 * (`src/common`, `src/clock`, `src/config`, `src/tokens.ts`), the pure libraries, `@nestjs/common`
 * for injection and itself; nothing else of the service, no controller, and no package that does I/O.
 */
const MIDDLE_RING = '^src/(use-cases|tables)/';
const MIDDLE_RING_MAY_IMPORT =
  '^src/(use-cases|tables|table-core|games|common|clock|config)/|^src/tokens\\.ts$|^libs/(cards|contracts|games|scanner-protocol)/';
/** Packages of the edges: HTTP, Kafka, serial lines, SQL, the embedded database, logs, metrics. */
const EDGE_PACKAGES =
  '(^|/)node_modules/(@nestjs/(microservices|platform-express|swagger|core)|express|kafkajs|serialport|@serialport|typeorm|pg|pg-[^/]+|@types/pg|@electric-sql|nestjs-pino|pino|pino-http|prom-client)/';
/** The stores and the broker plumbing: the middle ring writes and publishes through them. */
const DRIVEN_EDGES = '^src/(history|database|outbox|kafka)/';
/** The edges that drive the middle ring: commands and readings come in through them. */
const DRIVING_EDGES =
  '^src/(platform|scanner|supervisor|consoles|audit|hold-monitoring|demo|metrics|logging)/';
/** Nest module files bind an edge's classes to the ports of the ring it serves. */
const MODULE_FILE = '\\.module\\.ts$';

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
      name: 'middle-ring-imports-no-edge',
      comment:
        'The use cases and the table runtimes (src/use-cases, src/tables) import only the core, src/common, src/clock, src/config, src/tokens.ts, the pure libraries and each other: no edge (history, database, outbox, kafka, platform, scanner, health, consoles, supervisor, audit, auth, http, metrics, logging), no impure library; they declare the ports they need.',
      severity: 'error',
      from: { path: MIDDLE_RING, pathNot: '\\.spec\\.ts$' },
      to: { path: '^(src|apps|libs)/', pathNot: MIDDLE_RING_MAY_IMPORT },
    },
    {
      name: 'middle-ring-has-no-controller',
      comment:
        'A controller is an HTTP edge: it lives in an edge folder and calls the use cases, never in src/use-cases or src/tables.',
      severity: 'error',
      from: { path: MIDDLE_RING, pathNot: '\\.spec\\.ts$' },
      to: { path: '\\.controller\\.ts$' },
    },
    {
      name: 'middle-ring-imports-no-edge-package',
      comment:
        'The middle ring imports no package of the edges: no typeorm or pg (SQL lives in repositories), no @nestjs/microservices or kafkajs, no serialport, no express, swagger, pino or prom-client.',
      severity: 'error',
      from: { path: MIDDLE_RING, pathNot: '\\.spec\\.ts$' },
      to: { path: EDGE_PACKAGES },
    },
    {
      name: 'middle-ring-does-no-io',
      comment:
        'The middle ring does no I/O of its own (no fs, net, http, child_process, worker_threads): the edges do it behind its ports.',
      severity: 'error',
      from: { path: MIDDLE_RING, pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['core'], path: NODE_IO },
    },
    {
      name: 'stores-and-brokers-import-no-middle-ring',
      comment:
        "The history, the database plumbing, the outbox and the Kafka plumbing are driven by the middle ring and know only the core (what a transition writes): they import nothing of src/tables or src/use-cases (the hash chain lives with the history). Their module files may bind their classes to the middle ring's ports.",
      severity: 'error',
      from: { path: DRIVEN_EDGES, pathNot: `${MODULE_FILE}|\\.spec\\.ts$` },
      to: { path: MIDDLE_RING },
    },
    {
      name: 'stores-and-brokers-import-no-driving-edge',
      comment:
        "The history, database, outbox and Kafka plumbing import no edge that drives the tables (platform, scanner, supervisor, consoles, audit, hold monitoring, demo, metrics, logging): kafka does not know the platform's messages; each side declares its own types.",
      severity: 'error',
      from: { path: DRIVEN_EDGES, pathNot: '\\.spec\\.ts$' },
      to: { path: DRIVING_EDGES },
    },
    {
      name: 'health-imports-no-other-edge',
      comment:
        'src/health declares the ReadinessCheck port and serves /health: each part (database, outbox, platform intake, scanners) provides its own check, so health imports only src/http, src/auth, the shared kernel and itself.',
      severity: 'error',
      from: { path: '^src/health/', pathNot: '\\.spec\\.ts$' },
      to: {
        path: '^(src|apps|libs)/',
        pathNot: '^src/(health|http|auth|common|clock|config)/|^src/tokens\\.ts$',
      },
    },
    {
      name: 'database-only-in-history-database-outbox-auth',
      comment:
        'typeorm and pg (hence a DataSource) only in src/history, src/database, src/outbox, src/auth and src/platforms (the platforms registry); the rest of the service reads and writes through them.',
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
