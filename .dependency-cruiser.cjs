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
