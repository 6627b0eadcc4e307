import { commandFingerprint } from '../use-cases/common/command-fingerprint';
import { commandRecord, replayRepeat, replayStored } from './command-replay';

const bet = (playerId: string, amount: number) =>
  commandFingerprint('place-bet', ['pd-1', undefined, playerId, 'player', '1', amount, null]);

describe('command replay', () => {
  const first = { commandId: 'c-1', kind: 'place-bet', fingerprint: bet('alice', 1_000) };
  const answer = { accepted: true as const, reply: { betId: 'b-1' } };

  it('stores what the command asked beside its answer', () => {
    expect(commandRecord(first.commandId, first, answer)).toEqual({
      commandId: 'c-1',
      kind: 'place-bet',
      result: { accepted: true, reply: { betId: 'b-1' }, fingerprint: first.fingerprint },
    });
  });

  it('answers a repeat of the same command with the first answer, without the fingerprint', () => {
    const stored = commandRecord(first.commandId, first, answer).result;
    expect(replayStored(stored, { ...first })).toEqual({ ...answer, duplicate: true });
  });

  it('refuses the same id on a different command', () => {
    const stored = commandRecord(first.commandId, first, answer).result;
    const other = { ...first, fingerprint: bet('bob', 1_000) };
    expect(replayStored(stored, other)).toMatchObject({
      accepted: false,
      code: 'command-id-reused',
      message: expect.stringContaining('c-1'),
    });
    expect(replayStored(stored, { ...first, fingerprint: bet('alice', 2_000) })).toMatchObject({
      code: 'command-id-reused',
    });
  });

  it('replays an answer stored before fingerprints existed as before', () => {
    expect(replayStored({ ...answer }, { ...first, fingerprint: bet('bob', 5) })).toEqual({
      ...answer,
      duplicate: true,
    });
  });

  it('tells repeats within one batch apart the same way', () => {
    expect(replayRepeat(answer, first, { ...first })).toEqual({ ...answer, duplicate: true });
    expect(replayRepeat(answer, first, { ...first, fingerprint: bet('bob', 1_000) })).toMatchObject(
      { accepted: false, code: 'command-id-reused' },
    );
  });
});

describe('commandFingerprint', () => {
  it('does not depend on key order or on absent versus undefined fields', () => {
    expect(commandFingerprint('place-bet', ['t', { b: 1, a: 2 }, undefined])).toBe(
      commandFingerprint('place-bet', ['t', { a: 2, b: 1 }, null]),
    );
    expect(commandFingerprint('place-bet', ['t', 1])).not.toBe(
      commandFingerprint('decide', ['t', 1]),
    );
  });

  it('is 16 hex digits that differ for commands that differ in any field', () => {
    const base = ['pd-1', 'r-1', 'alice', 'player', '1', 1_000, null];
    const print = commandFingerprint('place-bet', base);
    expect(print).toMatch(/^[0-9a-f]{16}$/);
    base.forEach((_, i) => {
      const changed = [...base];
      changed[i] = i === 5 ? 1_001 : `${String(base[i])}x`;
      expect(commandFingerprint('place-bet', changed)).not.toBe(print);
    });
  });
});
