import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SOCAT_PATHS = ['/usr/bin/socat', '/usr/local/bin/socat', '/bin/socat'];

/** The socat binary, or undefined where it is not installed. */
export function findSocat(): string | undefined {
  return SOCAT_PATHS.find((p) => existsSync(p));
}

/**
 * Two connected pseudo-terminals made by socat: whatever is written to one end can be read from the
 * other, exactly like a null-modem cable between the virtual shoe and the scanner adapter. The
 * ends are symlinks with stable names in `dir`, so a pair that is stopped and started again
 * reappears at the same paths (what an unplugged and re-plugged USB reader looks like).
 */
export class PtyPair {
  private exited = false;
  private readonly exitListeners: Array<() => void> = [];
  /** socat's own pid, which the shell prints first. */
  private socatPid?: number;

  private constructor(
    private readonly child: ChildProcess,
    readonly shoePath: string,
    readonly readerPath: string,
  ) {
    child.stdout?.once('data', (d: Buffer) => (this.socatPid = Number.parseInt(d.toString(), 10)));
    child.once('exit', () => {
      this.exited = true;
      child.stdin?.destroy();
      child.stdout?.destroy();
      this.exitListeners.splice(0).forEach((l) => l());
    });
  }

  static async start(
    dir: string,
    names: { shoe: string; reader: string } = { shoe: 'shoe', reader: 'reader' },
    timeoutMs = 5000,
  ): Promise<PtyPair> {
    const socat = findSocat();
    if (!socat) throw new Error(`socat is not installed (looked in ${SOCAT_PATHS.join(', ')})`);
    mkdirSync(dir, { recursive: true });
    const shoePath = join(dir, names.shoe);
    const readerPath = join(dir, names.reader);
    // raw,echo=0: bytes pass untouched (no CR/LF translation, no echo back to the writer).
    // socat runs under a small shell in a process group of its own, so a Ctrl-C meant for the
    // service does not pull the cable before the service has closed its ports, and it watches a
    // pipe from this process: when this process dies, even by SIGKILL, socat is ended too.
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        'exec 3<&0; s=$1; shift; "$s" "$@" 3<&- </dev/null & p=$!; echo $p; (cat <&3 >/dev/null; kill $p 2>/dev/null) & wait $p',
        'pty-pair',
        socat,
        `pty,raw,echo=0,link=${shoePath}`,
        `pty,raw,echo=0,link=${readerPath}`,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'], detached: true },
    );
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const pair = new PtyPair(child, shoePath, readerPath);
    const started = Date.now();
    while (!(existsSync(shoePath) && existsSync(readerPath))) {
      if (pair.exited || Date.now() - started > timeoutMs) {
        await pair.stop();
        throw new Error(
          `socat did not create ${shoePath} and ${readerPath}: ${stderr.trim() || 'timed out'}`,
        );
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return pair;
  }

  get running(): boolean {
    return !this.exited;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Ends socat and waits until it has exited, so its pty ends are closed and hung up (after
   * SIGTERM socat removes the link paths; after SIGKILL they are left dangling).
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (!this.exited) {
      const done = new Promise<void>((resolve) => this.exitListeners.push(resolve));
      this.signalGroup(signal);
      const timer = setTimeout(() => this.signalGroup('SIGKILL'), 2000);
      await done;
      clearTimeout(timer);
    }
    // The shell can die before socat, killed in the same breath, has closed its ends.
    const deadline = Date.now() + 2000;
    while (this.socatRunning() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }

  /** A zombie counts as gone: its files are already closed. */
  private socatRunning(): boolean {
    if (!this.socatPid) return false;
    try {
      const stat = readFileSync(`/proc/${this.socatPid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    } catch {
      return false;
    }
  }

  /** The shell, socat and the watcher share one process group: signal them all. */
  private signalGroup(signal: NodeJS.Signals): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid, signal);
    } catch {
      // already gone
    }
  }
}
