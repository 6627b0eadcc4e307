import { CHAIN_CHECKPOINT } from '@studio/contracts';
import { describeAnchor } from './audit-cli';
import { checkpointOf } from './kafka-checkpoints';

const HASH = 'ab'.repeat(32);

const envelope = (payload: Record<string, unknown>, type: string = CHAIN_CHECKPOINT) =>
  Buffer.from(
    JSON.stringify({
      eventId: '5b0c1c57-8f7e-4a53-9d51-2f0e8d8d6a10',
      type,
      schemaVersion: 1,
      tableId: 'pd-1',
      seq: 4,
      occurredAt: '2026-11-30T12:00:00.000Z',
      payload,
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
    expect(line).toContain(`pd-1: chain ends at 37 but checkpoint at 40 (hash ${HASH})`);
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
});
