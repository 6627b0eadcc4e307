const { TestEnvironment } = require('jest-environment-node');
const { Server, Socket } = require('node:net');
const { appendFileSync, readFileSync } = require('node:fs');
const { relative, resolve } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { createHook } = require('node:async_hooks');

const ROOT = resolve(__dirname, '..', '..');
/** jest-worker's message asking a worker to end (its `CHILD_MESSAGE_END`, build/types.js). */
const CHILD_MESSAGE_END = 2;

/**
 * The integration files' environment: jest's node environment, plus a check when a file ends that
 * it closed what it opened (sockets, servers, child processes, timers). A file that leaves
 * something open is named with what it left; a child process it left is killed, the rest unref'd,
 * so the jest worker (or the in-band run) can still end: no --forceExit, and a clean run prints
 * nothing here.
 */
class IntegrationEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = relative(ROOT, context.testPath);
    reportWhatOutlivesTheWorker(this.testPath);
  }

  async setup() {
    await super.setup();
    await waitForSharedBroker(this.testPath);
    this.handlesBefore = new Set(activeHandles());
    this.timersBefore = timerCount();
    this.requestsBefore = pendingRequests();
    // TRACE_OPEN_TIMERS=1: a timer left open is named by the stack that created it.
    if (process.env.TRACE_OPEN_TIMERS) this.timerTrace = traceTimers();
  }

  async teardown() {
    let left = [];
    let timers = 0;
    let requests = [];
    for (let waited = 0; waited <= 3_000; waited += 250) {
      left = activeHandles().filter((h) => !this.handlesBefore.has(h));
      timers = timerCount() - this.timersBefore;
      requests = newRequests(this.requestsBefore, pendingRequests());
      if (left.length === 0 && timers <= 0 && requests.length === 0) break;
      await sleep(250);
    }
    if (left.length > 0 || timers > 0 || requests.length > 0) {
      const what = left.map(describe);
      if (timers > 0) what.push(`${timers} timer(s)`);
      // A request still pending (a read on a pseudo-terminal nobody closed, a DNS lookup) keeps
      // the worker alive as a handle does, and has no object to unref.
      what.push(...requests);
      if (timers > 0 && this.timerTrace) what.push(...this.timerTrace.open());
      process.stdout.write(`\nleft open by ${this.testPath}: ${what.join('; ')}\n`);
      for (const handle of left) {
        // A service left running would hold its ports and data folder against the next file.
        if ('spawnargs' in handle) killChild(handle);
        handle.unref?.();
        if (handle instanceof Socket && handle.remotePort === undefined) handle.destroy();
      }
    }
    this.timerTrace?.stop();
    await super.teardown();
  }
}

/**
 * `npm test` starts the integration files while its shared Kafka broker still starts (a JVM that
 * took 40–90 s beside the unit tests and the gates): a file that names the shared broker
 * (TEST_KAFKA_BROKERS or TEST_KAFKA_PORT, test/support/environment.ts) waits here until the
 * broker step has written its exit status to TEST_KAFKA_READY_FILE, and fails if the broker did
 * not start. The files that do not use it (outages, crashes, consoles) run meanwhile. Without
 * TEST_KAFKA_READY_FILE (jest run by hand, or its global setup starting the broker), no wait.
 */
async function waitForSharedBroker(testPath) {
  const statusFile = process.env.TEST_KAFKA_READY_FILE;
  if (!statusFile) return;
  if (!/\bTEST_KAFKA_(BROKERS|PORT)\b/.test(readFileSync(resolve(ROOT, testPath), 'utf8'))) return;
  const deadline = Date.now() + 600_000;
  for (;;) {
    let status;
    try {
      status = readFileSync(statusFile, 'utf8').trim();
    } catch {
      // not written yet: the broker is still starting
    }
    if (status === '0') return;
    if (status) {
      throw new Error(
        `the shared Kafka broker did not start (exit ${status}): see test-artifacts/ci/broker.log`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`the shared Kafka broker was not ready within 600 s (${statusFile})`);
    }
    await sleep(250);
  }
}

/**
 * Jest asks a worker to end once its files are done and sends SIGTERM when it has not ended 500 ms
 * later ("A worker process has failed to exit gracefully"). Before dying of that signal, the worker
 * says what still held it, and which file it ran last: what the per-file check above cannot see
 * (something opened before a file began, or with no JavaScript handle).
 */
function reportWhatOutlivesTheWorker(testPath) {
  process.integrationLastFile = testPath;
  if (process.integrationExitReport) return;
  process.integrationExitReport = true;
  // Jest's "end" message (sent once every file's results are in): exit now. Left to end by itself, a worker that ran twenty files spends ~0.7 s of CPU
  // tearing its heap down, past the 500 ms jest allows, and is force-exited with a warning that
  // looks like a leak. What a file leaves open is checked when the file ends (teardown above).
  process.on('message', (message) => {
    if (Array.isArray(message) && message[0] === CHILD_MESSAGE_END) process.exit(0);
  });
  process.once('SIGTERM', () => {
    const handles = activeHandles().map(describe);
    const resources = process.getActiveResourcesInfo();
    const line =
      `a jest worker still held at its end (last file ${process.integrationLastFile}): ` +
      `${[...handles, ...resources].join('; ') || 'nothing JavaScript can see'}\n`;
    // Also to a file: jest may no longer show a worker's output once it has asked it to end.
    process.stderr.write(`\n${line}`);
    appendFileSync(resolve(ROOT, 'test-artifacts', 'logs', 'jest-workers-held.log'), line);
    process.kill(process.pid, 'SIGTERM');
  });
}

/** The timers created from now on that are still pending and keep the process alive. */
function traceTimers() {
  const timers = new Map();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type !== 'Timeout') return;
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 30;
      const stack = new Error().stack
        .split('\n')
        .slice(2)
        .filter((line) => !/node:internal|node_modules\/jest-|integration-environment/.test(line))
        .slice(0, 8)
        .map((line) => line.trim().replace(/^at /, ''))
        .join(' <- ');
      Error.stackTraceLimit = limit;
      timers.set(id, { resource, stack });
    },
    destroy(id) {
      timers.delete(id);
    },
  }).enable();
  return {
    open: () =>
      [...timers.values()]
        .filter(({ resource }) => resource.hasRef?.() && !resource._destroyed)
        .map(({ stack }) => `timer from ${stack.replace(/\s+/g, ' ')}`),
    stop: () => hook.disable(),
  };
}

/**
 * Every handle but the process's own stdio. A pipe counts too: the worker's own pipes (its channel
 * to jest) exist before a file begins, while a child's stdout still open after the file (held by
 * a grandchild, such as a socat the child started) keeps the worker alive.
 */
function activeHandles() {
  return process
    ._getActiveHandles()
    .filter((h) => h !== process.stdout && h !== process.stderr && h !== process.stdin);
}

function killChild(child) {
  try {
    process.kill(-child.pid, 'SIGKILL'); // its process group, when it has one of its own
  } catch {
    child.kill('SIGKILL');
  }
}

/** Pending libuv requests by kind (file system, DNS, ...): active resources other than handles. */
const HANDLE_KINDS = new Set([
  'Timeout',
  'Immediate',
  'TCPSocketWrap',
  'TCPServerWrap',
  'PipeWrap',
  'ProcessWrap',
  'TTYWrap',
  'UDPWrap',
  'SignalWrap',
  'FSEventWrap',
  'StatWatcher',
  'MessagePort',
]);

function pendingRequests() {
  const counts = new Map();
  for (const kind of process.getActiveResourcesInfo()) {
    if (!HANDLE_KINDS.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

function newRequests(before, now) {
  return [...now]
    .filter(([kind, n]) => n > (before.get(kind) ?? 0))
    .map(([kind, n]) => `${n - (before.get(kind) ?? 0)} pending ${kind}`);
}

function timerCount() {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

function describe(handle) {
  if (handle instanceof Socket && handle.remotePort === undefined) {
    return `pipe (fd ${handle._handle?.fd})`;
  }
  if (handle instanceof Socket) return `socket to ${handle.remoteAddress}:${handle.remotePort}`;
  if (handle instanceof Server) return `server on ${JSON.stringify(handle.address())}`;
  if ('spawnargs' in handle) {
    return `child process ${handle.pid} (${handle.spawnargs.join(' ').slice(0, 120)})`;
  }
  return handle.constructor?.name ?? typeof handle;
}

module.exports = IntegrationEnvironment;
