import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '..');
const FIXTURES = resolve(ROOT, 'test/fixtures/boundaries');
const CONFIG = resolve(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/**
 * One depcruise run over every fixture (a process costs seconds, nine of them most of this
 * suite's time): each test reads the violations its fixture must or must not cause.
 */
async function cruiseFixtures(): Promise<Violation[]> {
  const run = promisify(execFile);
  let stdout: string;
  try {
    ({ stdout } = await run(
      resolve(ROOT, 'node_modules/.bin/depcruise'),
      ['--config', CONFIG, '--output-type', 'json', 'src', 'libs'],
      { cwd: FIXTURES, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    ));
  } catch (error) {
    // depcruise exits non-zero when it finds errors; the report is on stdout all the same.
    stdout = (error as { stdout?: string }).stdout ?? '';
    if (!stdout.trim().startsWith('{')) throw error;
  }
  const report = JSON.parse(stdout) as {
    summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
  };
  return report.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

let violations: Violation[];
beforeAll(async () => {
  violations = await cruiseFixtures();
}, 120_000);

/** The rules a fixture file breaks, each as `rule: imported file`. */
function broken(file: string): string[] {
  return violations.filter((v) => v.from === file).map((v) => `${v.rule}: ${v.to}`);
}

describe('dependency rules: every rule is proven by a fixture that breaks it', () => {
  it('has a fixture breaking each rule of .dependency-cruiser.cjs', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const rules = (require(CONFIG) as { forbidden: Array<{ name: string }> }).forbidden.map(
      (r) => r.name,
    );
    const brokenRules = new Set(violations.map((v) => v.rule));
    expect(rules.filter((name) => !brokenRules.has(name))).toEqual([]);
  });
});

describe('dependency rule: rules and protocol libraries import no framework code', () => {
  it('rejects a rules library that imports @nestjs/*', () => {
    expect(broken('libs/games/src/imports-nest.ts')).toEqual([
      expect.stringMatching(/^pure-libs-import-no-framework: .*node_modules\/@nestjs\/common\//),
    ]);
  });

  it('rejects a protocol library that imports serialport or does file I/O', () => {
    expect(broken('libs/scanner-protocol/src/imports-serialport.ts').sort()).toEqual([
      'pure-libs-do-no-io: fs',
      expect.stringMatching(/^pure-libs-import-no-framework: .*node_modules\/serialport\//),
    ]);
  });

  it('rejects a library that reaches into the service or the SQL library', () => {
    expect(broken('libs/games/src/reaches-into-the-service.ts').sort()).toEqual([
      'pure-libs-import-no-impure-libs: libs/persistence/src/outbox-writer.ts',
      'pure-libs-import-no-service-code: src/tables/table-runtime.ts',
    ]);
  });

  it('rejects a library import that cannot be resolved', () => {
    expect(broken('libs/contracts/src/imports-a-missing-file.ts')).toEqual([
      'pure-libs-resolve-everything: ./no-such-file',
    ]);
  });

  it('accepts a clean library', () => {
    expect(broken('libs/cards/src/clean.ts')).toEqual([]);
  });
});

describe('dependency rule: the table core and the games are pure', () => {
  it('rejects a table-core file that imports @nestjs/* or does file I/O', () => {
    expect(broken('src/table-core/imports-nest-and-fs.ts').sort()).toEqual([
      'table-core-and-games-do-no-io: fs',
      expect.stringMatching(
        /^table-core-and-games-import-no-framework: .*node_modules\/@nestjs\/common\//,
      ),
    ]);
  });

  it('rejects a game that imports a broker or service code outside the core', () => {
    expect(broken('src/games/pok-deng/reaches-into-tables.ts').sort()).toEqual([
      expect.stringMatching(/^table-core-and-games-import-no-framework: .*node_modules\/kafkajs\//),
      'table-core-and-games-import-only-the-core: src/tables/table-settings.ts',
    ]);
  });

  it('rejects a core import that cannot be resolved', () => {
    expect(broken('src/table-core/imports-a-missing-file.ts')).toEqual([
      'table-core-and-games-resolve-everything: ./no-such-file',
    ]);
  });

  it('accepts a core file that uses src/common and the games', () => {
    expect(broken('src/table-core/clean.ts')).toEqual([]);
    expect(broken('src/games/pok-deng/clean.ts')).toEqual([]);
  });
});

describe('dependency rule: the middle ring (use cases, tables) imports no edge', () => {
  it('rejects a use case that takes a history class instead of a port', () => {
    expect(broken('src/use-cases/void-round/uses-a-history-class.ts')).toEqual([
      'middle-ring-imports-no-edge: src/history/writer/transition-writer.ts',
    ]);
  });

  it('rejects a table runtime that imports the platform, scanner, kafka, database, outbox or SQL library', () => {
    expect(broken('src/tables/reaches-the-edges.ts').sort()).toEqual([
      'middle-ring-imports-no-edge: libs/persistence/src/index.ts',
      'middle-ring-imports-no-edge: src/database/table-lease.repository.ts',
      'middle-ring-imports-no-edge: src/kafka/events-worker.ts',
      'middle-ring-imports-no-edge: src/outbox/outbox-relay.ts',
      'middle-ring-imports-no-edge: src/platform/command-intake-starter.ts',
      'middle-ring-imports-no-edge: src/scanner/serial-scanner-adapter.ts',
    ]);
  });

  it('rejects @nestjs/microservices, kafkajs and pg in the middle ring', () => {
    expect(broken('src/tables/uses-broker-and-sql.ts').sort()).toEqual([
      expect.stringMatching(/^database-only-in-history-database-outbox-auth: .*node_modules\/pg\//),
      expect.stringMatching(
        /^middle-ring-imports-no-edge-package: .*node_modules\/@nestjs\/microservices\//,
      ),
      expect.stringMatching(/^middle-ring-imports-no-edge-package: .*node_modules\/kafkajs\//),
      expect.stringMatching(/^middle-ring-imports-no-edge-package: .*node_modules\/pg\//),
    ]);
  });

  it('rejects file I/O in the middle ring', () => {
    expect(broken('src/tables/reads-a-file.ts')).toEqual(['middle-ring-does-no-io: fs']);
  });

  it('rejects a controller in the middle ring', () => {
    expect(broken('src/tables/tables.module.ts')).toEqual([
      'middle-ring-has-no-controller: src/tables/tables.controller.ts',
    ]);
  });

  it('accepts a runtime and a use case that declare their ports and use the core', () => {
    expect(broken('src/tables/table-runtime.ts')).toEqual([]);
    expect(broken('src/use-cases/place-bet/place-bet.use-case.ts')).toEqual([]);
  });
});

describe('dependency rule: the edges do not import each other back', () => {
  it('rejects history code that imports the middle ring (history → tables)', () => {
    expect(broken('src/history/writer/uses-the-hash-chain-in-tables.ts')).toEqual([
      'stores-and-brokers-import-no-middle-ring: src/tables/event-chain.ts',
    ]);
  });

  it('rejects the Kafka plumbing importing the platform (kafka → platform)', () => {
    expect(broken('src/kafka/answers-know-platform-messages.ts')).toEqual([
      'stores-and-brokers-import-no-driving-edge: src/platform/raw-command-message.ts',
    ]);
  });

  it('rejects health importing the platform or the outbox (health → platform)', () => {
    expect(broken('src/health/readiness-knows-the-intake.ts').sort()).toEqual([
      'health-imports-no-other-edge: src/outbox/outbox-relay.ts',
      'health-imports-no-other-edge: src/platform/command-intake-starter.ts',
    ]);
  });

  it('accepts an edge meeting another ring’s port: history module, kafka → outbox, database → health', () => {
    expect(broken('src/history/history.module.ts')).toEqual([]);
    expect(broken('src/history/writer/transition-writer.ts')).toEqual([]);
    expect(broken('src/kafka/events-worker.ts')).toEqual([]);
    expect(broken('src/database/database-readiness.ts')).toEqual([]);
    expect(broken('src/health/health.controller.ts')).toEqual([]);
  });

  it('rejects a cycle', () => {
    expect(broken('src/consoles/cycle-a.ts')).toEqual(['no-circular: src/consoles/cycle-b.ts']);
  });
});

describe('dependency rule: SQL only behind the history, database, outbox and auth', () => {
  it('rejects a use case that imports typeorm', () => {
    expect(broken('src/use-cases/imports-typeorm.ts').sort()).toEqual([
      expect.stringMatching(
        /^database-only-in-history-database-outbox-auth: .*node_modules\/typeorm\//,
      ),
      expect.stringMatching(/^middle-ring-imports-no-edge-package: .*node_modules\/typeorm\//),
    ]);
  });

  it('rejects pg in service code outside those folders', () => {
    expect(broken('src/consoles/imports-pg.ts')).toEqual([
      expect.stringMatching(/^database-only-in-history-database-outbox-auth: .*node_modules\/pg\//),
    ]);
  });

  it('accepts typeorm in the history', () => {
    expect(broken('src/history/reader/uses-typeorm.ts')).toEqual([]);
  });
});
