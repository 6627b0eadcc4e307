const Sequencer = require('@jest/test-sequencer').default;

/**
 * Integration files that wait for minutes on purpose (database and broker outages, crashes, a
 * rolling restart). Jest orders files by their last durations, but a clean clone has none and it
 * falls back to file size, which could start these last and leave one worker waiting alone at the
 * end; so, without durations, they start first and the other files fill the other workers. The
 * outage files lead: they mostly wait, while `npm test` still runs the unit tests and the gates;
 * the ones that need the CPU on time (a rolling restart's leases, a process start) come after.
 */
const LONG_WAITS = [
  'test/e2e/database-outage-long.e2e-spec.ts',
  'test/e2e/database-outage-short.e2e-spec.ts',
  'test/e2e/kafka-outage.e2e-spec.ts',
  'test/e2e/crash-recovery.e2e-spec.ts',
  'test/e2e/kafka-broker-restart.e2e-spec.ts',
  'test/e2e/studio-roll.e2e-spec.ts',
  'test/e2e/service-process.e2e-spec.ts',
];

class LongFilesFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const rank = (test) => {
      if (test.duration != null) return LONG_WAITS.length;
      const i = LONG_WAITS.findIndex((file) => test.path.endsWith(file));
      return i < 0 ? LONG_WAITS.length : i;
    };
    // A stable sort: the rest keep jest's order.
    return sorted
      .map((test, i) => ({ test, i }))
      .sort((a, b) => rank(a.test) - rank(b.test) || a.i - b.i)
      .map(({ test }) => test);
  }
}

module.exports = LongFilesFirst;
