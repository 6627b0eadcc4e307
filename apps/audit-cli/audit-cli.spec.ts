import { CHAIN_CHECKPOINT } from '@studio/contracts';
import { describeAnchor, describeUnanchored } from './audit-cli';
import { checkpointOf } from './kafka-checkpoints';

const HASH = 'ab'.repeat(32);

const envelope = (
  payload: Record<string, unknown>,
  type: string = CHAIN_CHECKPOINT,
  chain?: Record<string, unknown>,
) =>
  Buffer.from(
    JSON.stringify({
      eventId: '5b0c1c57-8f7e-4a53-9d51-2f0e8d8d6a10',
      type,
      schemaVersion: 1,
      tableId: 'pd-1',
      seq: 4,
      occurredAt: '2026-11-30T12:00:00.000Z',
      payload,
      ...(chain ? { chain } : {}),
    }),
  );

describe('audit CLI: chain checkpoints', () => {
  it('names the table, both ends and the number of missing events of a truncated chain', () => {
    const line = describeAnchor({
      tableId: 'pd-1',
      status: 'truncated',
      checkpoint: {
        tableId: 'pd-1',
        eventNo: 40,
        hash: HASH,
        checkpointAt: '2026-11-30T12:00:00Z',
      },
      chainEnd: 37,
      missing: 3,
    });
    expect(line).toContain(`pd-1: chain ends at 37 but published head at 40 (hash ${HASH})`);
    expect(line).toContain('3 events missing');
  });

  it('reads a valid ChainCheckpoint message, skips other events and flags a malformed checkpoint', () => {
    const payload = {
      tableId: 'pd-1',
      eventNo: 40,
      hash: HASH,
      checkpointAt: '2026-11-30T12:00:00.000Z',
    };
    expect(checkpointOf(envelope(payload))).toEqual(payload);
    expect(checkpointOf(envelope({ shoeNumber: 1 }, 'RoundCompleted'))).toBeUndefined();
    expect(checkpointOf(Buffer.from('not json'))).toBeUndefined();
    expect(checkpointOf(null)).toBeUndefined();
    expect(checkpointOf(envelope({ ...payload, hash: 'xyz' }))).toBe('invalid');
    expect(checkpointOf(envelope({ ...payload, eventNo: 0 }))).toBe('invalid');
    expect(checkpointOf(envelope({ ...payload, extra: true }))).toBe('invalid');
  });

  it("reads a round event's envelope head as an anchor and flags a malformed one", () => {
    const event = (chain: Record<string, unknown>) =>
      checkpointOf(envelope({ shoeNumber: 1 }, 'RoundCompleted', chain));
    expect(event({ eventNo: 41, hash: HASH })).toEqual({
      tableId: 'pd-1',
      eventNo: 41,
      hash: HASH,
      checkpointAt: '2026-11-30T12:00:00.000Z',
    });
    expect(event({ eventNo: 0, hash: HASH })).toBe('invalid');
    expect(event({ eventNo: 41, hash: 'AB'.repeat(32) })).toBe('invalid');
    expect(event({ eventNo: '41', hash: HASH })).toBe('invalid');
  });

  it('says how far the chain is anchored and what is not published yet', () => {
    const checkpoint = { tableId: 'pd-1', eventNo: 40, hash: HASH, checkpointAt: 'T' };
    const anchor = { tableId: 'pd-1', status: 'anchored' as const, checkpoint };
    expect(describeAnchor(anchor)).toContain('pd-1: anchored up to 40');
    expect(
      describeUnanchored({ anchor, unanchored: { events: 3, oldestAt: 'T', ageSeconds: 12 } }),
    ).toBe(
      'UNPUBLISHED pd-1: 3 event(s) after the newest published head are not anchored yet, the oldest 12 s old',
    );
  });
});
