import fc from 'fast-check';
import { canonicalJson } from '../../common/canonical-json';
import { commandFingerprint, fingerprintText } from './command-fingerprint';

describe('commandFingerprint', () => {
  it('hashes the canonical JSON of the kind and fields, whatever the fields hold', () => {
    const field = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.constant(null),
      fc.constant(undefined),
      fc.boolean(),
      fc.dictionary(fc.string(), fc.integer()),
    );
    fc.assert(
      fc.property(fc.string(), fc.array(field, { maxLength: 8 }), (kind, fields) => {
        const expected = canonicalJson([kind, ...fields.map((f) => (f === undefined ? null : f))]);
        expect(fingerprintText(kind, fields)).toBe(expected);
      }),
    );
  });

  // Fingerprints are stored beside answers: a repeat sent after an upgrade must still match the
  // one stored before it. These are the values the first implementation stored.
  it('gives the fingerprints stored by earlier versions', () => {
    expect(
      commandFingerprint('place-bet', ['pd-1', 'r-1', 'alice', 'player', '1', 1000, null]),
    ).toBe('2cf7a306a531f228');
    expect(commandFingerprint('decide', ['t', undefined, 'p', 'hit', undefined])).toBe(
      'dddd55bc7d539d46',
    );
    expect(
      commandFingerprint('place-bet', [
        't',
        'r',
        'p',
        'main',
        undefined,
        5,
        { pairs: 100, '21+3': 50 },
      ]),
    ).toBe('20ee764f9e15b6dd');
  });
});
