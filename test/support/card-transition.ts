import type { ScannerReading } from '@studio/scanner-protocol';
import type { ReadingRecord } from '../../src/history/scanner-history.repository';
import { UNSTORED_READING } from '../../src/table-core/table-writes';
import {
  emptyWrites,
  MachineOutcome,
  TableState,
  TableWrites,
} from '../../src/table-core/table-machine';

/** The table, shoe and round a test's card transitions belong to. */
export interface CardTable {
  id: string;
  shoe: string;
  round: string;
}

/** The n-th card reading of a table as the scanner records it (stored by its transition). */
export function cardReading(table: Pick<CardTable, 'id'>, sequence: number): ReadingRecord {
  const scanned = {
    kind: 'card',
    code: 'AS',
    card: { rank: 'A', suit: 'S' },
    raw: new Uint8Array(Buffer.from(`card ${sequence}`)),
    receivedAt: Date.UTC(2026, 10, 30, 12, 0, sequence),
    sequence,
  } as ScannerReading;
  return {
    tableId: table.id,
    port: '/dev/test',
    wireFormat: 'studio-framed-v1',
    reading: scanned,
    outcome: 'recorded',
  };
}

/**
 * A card reading's transition as the machine writes it (its reading not stored yet): the card and
 * two events, one of them public.
 */
export function cardOutcome(
  table: CardTable,
  n: number,
  extra: Partial<TableWrites> = {},
): MachineOutcome {
  const writes: TableWrites = {
    ...emptyWrites(),
    cards: [
      {
        slot: `p${n}`,
        card: 'AS',
        faceDown: false,
        roundId: table.round,
        shoeId: table.shoe,
        readingId: UNSTORED_READING,
      },
    ],
    readingOutcome: { readingId: UNSTORED_READING, outcome: 'applied', detail: { slot: `p${n}` } },
    events: [
      { type: 'ReadingProcessed', visibility: 'restricted', payload: { n }, roundId: table.round },
      { type: 'CardDealt', visibility: 'public', payload: { n }, roundId: table.round },
    ],
    ...extra,
  };
  return { state: { tableId: table.id, cards: n } as unknown as TableState, writes };
}
