import { studioFramedV1Frame } from '@studio/scanner-protocol';
import { PtyPair, SerialPortSink } from '@studio/virtual-shoe';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningStudio } from '../../src/bootstrap';
import type { TableDefinition } from '../../src/config/tables-config';
import { ScannerService } from '../../src/scanner/scanner.service';
import { startTestStudio, waitFor } from '../support/studio-harness';
import { createTestDatabase, TestDatabase } from '../support/test-database';

jest.setTimeout(60_000);

/**
 * A reader on a real pseudo-terminal whose sequence numbers cannot be trusted: the service holds
 * the slot, raises a supervisor alert and keeps the reading; a true repeat is still dropped.
 */
describe('serial sequence integrity (socat pty, real service)', () => {
  let db: TestDatabase;
  let studio: RunningStudio;
  let ptyDir: string;
  let pty: PtyPair;
  let sink: SerialPortSink;

  beforeAll(async () => {
    ptyDir = mkdtempSync(join(tmpdir(), 'studio-sequence-'));
    pty = await PtyPair.start(ptyDir, { shoe: 'seq.shoe', reader: 'seq.reader' });
    sink = new SerialPortSink({ path: pty.shoePath, baudRate: 9600 });
    db = await createTestDatabase('sequence_integrity');
    studio = await startTestStudio({
      databaseUrl: db.url,
      tables: [
        {
          id: 'pd-seq',
          name: 'Pok Deng Sequence',
          game: 'pok-deng',
          currency: 'THB',
          scanner: { wireFormat: 'studio-framed-v1', path: pty.readerPath, baudRate: 9600 },
        } as unknown as TableDefinition,
      ],
    });
  });

  afterAll(async () => {
    await studio?.close();
    await sink?.close().catch(() => undefined);
    await pty?.stop().catch(() => undefined);
    if (ptyDir) rmSync(ptyDir, { recursive: true, force: true });
    await db?.drop();
  });

  const readings = () =>
    studio.database.dataSource.query(
      `SELECT device_seq, decoded->>'code' AS code, outcome, raw FROM scanner_readings
        WHERE table_id = 'pd-seq' AND kind = 'card' ORDER BY id`,
    ) as Promise<Array<{ device_seq: number; code: string; outcome: string; raw: Buffer }>>;
  const alerts = () =>
    studio.database.dataSource.query(
      `SELECT payload FROM outbox WHERE table_id = 'pd-seq' AND type = 'SupervisorAlert' ORDER BY seq`,
    ) as Promise<Array<{ payload: Record<string, unknown> }>>;

  async function send(sequence: number, code: string, expectedCount: number) {
    await sink.write(studioFramedV1Frame(sequence, `C:${code}`));
    return waitFor(`reading ${sequence} ${code} processed`, async () => {
      const rows = await readings();
      return rows.length === expectedCount && rows.at(-1)!.outcome !== 'recorded' && rows;
    });
  }

  it('holds a repeated number with another card and a number going backwards, alerting each time', async () => {
    await waitFor('the reader to connect', async () =>
      studio.app
        .get(ScannerService)
        .states()
        .some((s) => s.status === 'connected'),
    );
    // The shoe's first card (the burn card shown) is applied.
    let rows = await send(500, '3C', 1);
    expect(rows[0].outcome).toBe('applied');

    // The same number again with the same card: a true repeat, dropped silently.
    rows = await send(500, '3C', 2);
    expect(rows[1].outcome).toBe('duplicate');
    expect(await alerts()).toEqual([]);

    // The same number with another card: held, alert, reading kept with its bytes.
    rows = await send(500, 'KD', 3);
    expect(rows[2]).toMatchObject({ device_seq: 500, code: 'KD', outcome: 'held' });
    expect(rows[2].raw.equals(studioFramedV1Frame(500, 'C:KD'))).toBe(true);

    // A number going backwards (not a wrap): held, alert.
    rows = await send(7, '4H', 4);
    expect(rows[3]).toMatchObject({ device_seq: 7, code: '4H', outcome: 'held' });

    const raised = await alerts();
    expect(raised.map((a) => a.payload)).toEqual([
      {
        kind: 'scanner-sequence',
        reason: 'repeated-with-other-content',
        sequence: 500,
        previousSequence: 500,
      },
      { kind: 'scanner-sequence', reason: 'backwards', sequence: 7, previousSequence: 500 },
    ]);
    // The public alert names no card.
    expect(JSON.stringify(raised)).not.toMatch(/KD|4H/);

    // The slot was held, not filled: the next good frame fills it.
    rows = await send(8, '4H', 5);
    expect(rows[4].outcome).toBe('applied');
    const cards = await studio.database.dataSource.query(
      `SELECT card FROM round_cards WHERE table_id = 'pd-seq' ORDER BY id`,
    );
    expect(cards.map((c: { card: string }) => c.card)).toEqual(['3C', '4H']);
  });
});
