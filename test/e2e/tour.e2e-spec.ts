import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../support/environment';
import { ServiceProcess, spawnService } from '../support/service-process';

jest.setTimeout(480_000);

const TOUR = resolve(REPO_ROOT, 'docs/tour.md');
/** The tour's first block names the address `npm start` listens on; the test's service has its own. */
const TOUR_ADDRESS = 'S=http://127.0.0.1:3000';

interface TourBlock {
  script: string;
  /** The `# →` lines: each a list of alternative answers. */
  answers: RegExp[];
}

/** The ```sh blocks of docs/tour.md, in order, with the answers each one says to expect. */
function tourBlocks(): TourBlock[] {
  const text = readFileSync(TOUR, 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, script]) => ({
    script,
    answers: script
      .split('\n')
      .filter((line) => line.startsWith('# → '))
      .flatMap((line) => line.slice('# → '.length).split(/\s{2}or\s{2}/))
      .map(answerPattern),
  }));
}

/** `409 {"error":"betting-closed",…}` matches the body `{"error":"betting-closed",...}`. */
function answerPattern(answer: string): RegExp {
  const body = answer.trim().replace(/^\d{3} /, '');
  const escaped = body.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/…/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Runs the blocks in one bash, as a reader pastes them into one shell; output per block. */
async function runTour(blocks: TourBlock[], url: string, timeoutMs: number): Promise<string[]> {
  const marker = (i: number) => `@@tour-block-${i}-done@@`;
  const script = blocks
    .map((b, i) => `${b.script.replace(TOUR_ADDRESS, `S=${url}`)}\necho; echo '${marker(i)}'\n`)
    .join('');
  const bash = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  bash.stdout.on('data', (d) => (out += d.toString()));
  bash.stderr.on('data', (d) => (err += d.toString()));
  const timer = setTimeout(() => bash.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((r) => bash.once('exit', r));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`the tour's shell ended with ${code}: ${err}\n${out}`);
  const outputs: string[] = [];
  let rest = out;
  for (let i = 0; i < blocks.length; i += 1) {
    const at = rest.indexOf(marker(i));
    if (at < 0) throw new Error(`block ${i + 1} of the tour never finished:\n${out}`);
    outputs.push(rest.slice(0, at));
    rest = rest.slice(at + marker(i).length);
  }
  return outputs;
}

const lines = (output: string) =>
  output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** The service's log messages at info and above (it logs JSON when not on a terminal). */
function infoMessages(service: ServiceProcess): Array<{ level: number; msg: string }> {
  return lines(service.stdout())
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level >= 30);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function auditorGet(url: string, path: string): Promise<any> {
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'auditor', password: 'auditor-demo' }),
  });
  const { token } = (await login.json()) as { token: string };
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.json();
}

/**
 * docs/tour.md as a newcomer runs it: every shell block, in order, in one shell, against the
 * service `npm start` runs (embedded database, demo tables, demo players), each answer checked
 * against the answers the tour says to expect. The terminal the newcomer watches at the same time
 * is checked too: supervisor actions and the void are told, the demo players' refusals are not.
 */
describe('the tour (docs/tour.md)', () => {
  let dataDir: string;
  let service: ServiceProcess | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'studio-tour-'));
  });

  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.killGroup('SIGKILL');
      await service.exited().catch(() => undefined);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('works as written against a started service, and the log tells what it did', async () => {
    const blocks = tourBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    expect(blocks[0].script).toContain(TOUR_ADDRESS);

    service = spawnService({ PORT: '0', PGLITE_DATA_DIR: dataDir });
    const url = await service.listening(180_000);
    const outputs = await runTour(blocks, url, 300_000);

    blocks.forEach((block, i) => {
      const printed = lines(outputs[i]);
      if (block.answers.length === 0) {
        expect({ block: i + 1, printed }).toEqual({ block: i + 1, printed: [] });
        return;
      }
      expect({ block: i + 1, printed: printed.length > 0 }).toEqual({
        block: i + 1,
        printed: true,
      });
      for (const line of printed) {
        const known = block.answers.some((answer) => answer.test(line));
        expect({ block: i + 1, line, known }).toEqual({ block: i + 1, line, known: true });
      }
    });

    // What the answers say beyond their shape: the repeat of an accepted bet is that bet, the
    // round voided is the one the auditor finds, and the metrics count it.
    const byScript = (part: string) => outputs[blocks.findIndex((b) => b.script.includes(part))];
    expect(blocks.slice(1, 3).map((b) => b.script.includes('"commandId":"tour-bet-1"'))).toEqual([
      true,
      true,
    ]);
    const [first, repeat] = outputs.slice(1, 3).map((o) => JSON.parse(lines(o)[0]));
    if (first.accepted) expect(repeat).toEqual({ ...first, duplicate: true });
    else expect(repeat).toEqual(first);
    // The decision is the tour player's in the round it bet on; only a dealer blackjack, which
    // ends that round before any decision window, leaves it without one.
    const bet = JSON.parse(lines(byScript('/platform/tables/ibj-1/bets'))[0]);
    const decision = JSON.parse(lines(byScript('/platform/tables/ibj-1/decisions'))[0]);
    if (decision.accepted) expect(decision.reply.roundId).toBe(bet.reply.roundId);
    else {
      expect(decision.error).toBe('unknown-player');
      const timeline = await auditorGet(url, `/audit/rounds/${bet.reply.roundId}/timeline`);
      expect(timeline.round.status).toBe('completed');
      expect(JSON.stringify(timeline.timeline)).not.toContain('"DecisionWindowOpened"');
    }
    const voided = JSON.parse(lines(byScript('status=voided'))[0]) as {
      items: Array<{ tableId: string; status: string; voidReason: string }>;
    };
    expect(voided.items[0]).toMatchObject({
      tableId: 'pokdeng-1',
      status: 'voided',
      voidReason: 'Card dropped on the floor',
    });
    expect(byScript('/metrics')).toMatch(
      /^studio_rounds_total\{table="pokdeng-1",game="pok-deng",outcome="voided"\} [1-9]/m,
    );

    service.child.kill('SIGINT');
    expect(await service.exited(60_000)).toEqual({ code: 0, signal: null });
    const told = infoMessages(service).map((l) => l.msg);
    const said = (pattern: RegExp) => told.filter((m) => pattern.test(m));
    expect(said(/^Table ibj-1 is running: taken fresh/)).toHaveLength(1);
    expect(
      said(
        /^Blackjack Lux 1 \(lux-1\): supervisor "supervisor" paused the (round|table): Dealer change/,
      ),
    ).toHaveLength(1);
    expect(
      said(/^Blackjack Lux 1 \(lux-1\): supervisor "supervisor" resumed the (round|table)/),
    ).toHaveLength(1);
    expect(
      said(
        /^Pok Deng 1 \(pokdeng-1\): round \d+ of shoe \d+ voided by supervisor "supervisor" \(Card dropped on the floor\): /,
      ),
    ).toHaveLength(1);
    // The demo players' own refusals (and the tour's refused tries) are not an operator's news.
    expect(said(/^(bet|decide) refused|^POST \/platform\/.* 409$/)).toEqual([]);
    expect(said(/^Studio service stopping on SIGINT/)).toHaveLength(1);
    expect(told[told.length - 1]).toMatch(/^Studio service stopped \(\d+\.\d s\)$/);
    expect(said(/scanner connected -> stopped/)).toEqual([]);
  });
});
