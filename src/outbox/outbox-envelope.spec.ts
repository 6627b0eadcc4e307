import type { EventEnvelope } from '@studio/contracts';
import type { OutgoingMessage } from './event-publisher';
import {
  MAX_SEND_BYTES,
  compactJsonb,
  OutboxRow,
  groupByTopic,
  splitBySize,
  toOutgoingMessage,
} from './outbox-envelope';

/**
 * The contract's envelope of a row built the plain way (the driver's JSON.parse of jsonb's text,
 * the keys in the contract's order), which the relay's string assembly must match byte for byte.
 */
function envelopeOf(row: OutboxRow): EventEnvelope {
  const envelope: EventEnvelope = {
    eventId: row.eventId,
    type: row.type,
    schemaVersion: row.schemaVersion,
    tableId: row.tableId,
    seq: Number(row.seq),
    occurredAt: new Date(row.occurredAt).toISOString(),
    payload: JSON.parse(row.payload),
  };
  if (row.roundId) envelope.roundId = row.roundId;
  return envelope;
}

const base: OutboxRow = {
  id: '17',
  eventId: '0b9a4c1e-4a6f-4c52-9a0e-3b1f0e2d7c11',
  topic: 'studio.table-events.v1',
  tableId: 'bj-1',
  roundId: 'round-9',
  seq: '42',
  type: 'CardDealt',
  schemaVersion: 2,
  occurredAt: '2026-03-04T05:06:07.089Z',
  // jsonb's text output: spaces after ':' and ',', keys in jsonb order.
  payload:
    '{"card": {"rank": "Q", "suit": "hearts"}, "note": "a, b: \\"c\\" \\\\ \\n é 😀 \\u0001", "amount": {"minor": 1050}, "list": [1, 2.5, -3, true, null]}',
};

describe('toOutgoingMessage', () => {
  it.each([
    ['with a round', base],
    ['without a round', { ...base, roundId: null }],
    ['with an empty payload and odd ids', { ...base, tableId: 'tä"ble', payload: '{}' }],
  ])('publishes exactly the bytes of JSON.stringify of the row’s envelope %s', (_, row) => {
    const message = toOutgoingMessage(row);
    expect(message.value).toBe(JSON.stringify(envelopeOf(row)));
    expect(JSON.parse(message.value).seq).toBe(42);
  });

  it('keys the message by table and carries the event headers', () => {
    const message = toOutgoingMessage(base);
    expect(message.key).toBe('bj-1');
    expect(message.headers).toEqual({
      'event-id': base.eventId,
      'event-type': 'CardDealt',
      'schema-version': '2',
    });
  });
});

describe('groupByTopic', () => {
  it('keeps the rows order within each topic', () => {
    const rows = ['a', 'b', 'a', 'a', 'b'].map((topic, i) => ({
      ...base,
      topic,
      id: String(i),
      seq: String(i + 1),
    }));
    const grouped = groupByTopic(rows);
    expect([...grouped.keys()]).toEqual(['a', 'b']);
    expect(grouped.get('a')!.map((m) => JSON.parse(m.value).seq)).toEqual([1, 3, 4]);
    expect(grouped.get('b')!.map((m) => JSON.parse(m.value).seq)).toEqual([2, 5]);
  });
});

describe('splitBySize', () => {
  const message = (value: string): OutgoingMessage => ({ key: 'bj-1', value, headers: {} });

  it('cuts the messages, in order, into sends under the limit counted in bytes', () => {
    // 100 characters of "é" are 200 bytes in UTF-8.
    const messages = Array.from({ length: 10 }, (_, i) => message(`${i}${'é'.repeat(100)}`));
    const sends = splitBySize(messages, 1_000);
    expect(sends.flat()).toEqual(messages);
    expect(sends.map((s) => s.length)).toEqual([3, 3, 3, 1]);
  });

  it('sends a message larger than the limit on its own, and everything else as usual', () => {
    const messages = [message('a'), message('x'.repeat(5_000)), message('b'), message('c')];
    expect(splitBySize(messages, 1_000).map((s) => s.length)).toEqual([1, 1, 2]);
  });

  it('keeps a send of the relay batch size under the broker limit for large events', () => {
    const messages = Array.from({ length: 5_000 }, () => message('x'.repeat(1_000)));
    const sends = splitBySize(messages);
    expect(sends.flat()).toHaveLength(5_000);
    for (const send of sends) {
      expect(send.reduce((n, m) => n + m.value.length, 0)).toBeLessThan(MAX_SEND_BYTES);
    }
  });
});

describe('compactJsonb', () => {
  /** A value printed as jsonb prints it: a space after each ',' and ':' outside strings. */
  const asJsonb = (value: unknown): string =>
    JSON.stringify(value).replace(/("(?:[^"\\]|\\.)*")|([,:])/g, (_, text, mark) =>
      text ? text : `${mark} `,
    );

  it.each([
    base.payload,
    '{}',
    '[]',
    '"a string"',
    '{"a": false, "b": [true, null, -12, 0, 123456789012345]}',
    '{"fraction": 2.50}',
    '[1.0, -0.0]',
    '{"small": 0.0000001}',
    '{"exponent": 1E5}',
    '{"big": 12345678901234567890}',
    '{"a\\"": "b\\\\", "c": "", "d": "true, false: null 1.5 e E [] {}"}',
    '{"tab": "\\t\\r\\b\\f\\u001f", "quote": "\\"", "deep": [[{"x": [{}]}]]}',
  ])('is exactly JSON.stringify(JSON.parse(text)) for %s', (text) => {
    expect(compactJsonb(text)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('is exactly JSON.stringify(JSON.parse(text)) for generated payloads', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n);
    };
    const words = ['a', 'é 😀', 'x, y: z', 'q", "r', 'back\\slash', 'line\nbreak', '\u0001', ' '];
    const value = (depth: number): unknown => {
      switch (random(depth > 3 ? 5 : 7)) {
        case 0:
          return random(2_000_000) - 1_000_000;
        case 1:
          return words[random(words.length)];
        case 2:
          return [true, false, null][random(3)];
        case 3:
          return random(1000) / 8;
        case 4:
          return '';
        case 5:
          return Array.from({ length: random(4) }, () => value(depth + 1));
        default:
          return Object.fromEntries(
            Array.from({ length: random(5) }, (_, i) => [
              `${words[random(8)]}${i}`,
              value(depth + 1),
            ]),
          );
      }
    };
    for (let i = 0; i < 2_000; i++) {
      const text = asJsonb({ payload: value(0) });
      expect(compactJsonb(text)).toBe(JSON.stringify(JSON.parse(text)));
    }
  });
});
