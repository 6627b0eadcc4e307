import type { JsonSchema } from '@studio/contracts';
import { join } from 'node:path';
import {
  checkConformance,
  ConformanceRecord,
  conformanceLine,
  readSchemaFiles,
} from './conformance';
import { REPO_ROOT } from './contract-files';

/** The check run at the end of the integration suite, fed known-bad traffic: it must object. */
describe('conformance check over recorded traffic', () => {
  const shipped = () => readSchemaFiles(join(REPO_ROOT, 'libs/contracts/schemas'));
  let seq = 0;
  const event = (type: string, payload: unknown): ConformanceRecord => ({
    kind: 'event',
    source: 'unit',
    value: {
      eventId: '0b8f4a52-4f43-4e0a-9f7e-0d7f3b0c1a11',
      type,
      schemaVersion: 1,
      tableId: 'eu-1',
      roundId: '5d0c2f1e-8a7b-4c3d-9e2f-1a2b3c4d5e6f',
      seq: (seq += 1),
      occurredAt: '2026-11-29T13:45:00.000Z',
      payload,
    },
  });
  const roundStarted = event('RoundStarted', {
    shoeNumber: 1,
    roundNumber: 3,
    isLastRoundOfShoe: false,
    sideBetsNoLongerOffered: [],
    game: 'european-blackjack-practice',
    currency: 'EUR',
  });
  const answer: ConformanceRecord = {
    kind: 'answer',
    source: 'unit',
    value: {
      commandId: 'c-1',
      commandType: 'PlaceBet',
      tableId: 'ibj-1',
      playerId: 'p1',
      status: 'accepted',
      duplicate: false,
      answeredAt: '2026-11-29T13:45:00.000Z',
    },
  };

  it('passes valid traffic and prints the one line', () => {
    const report = checkConformance(
      [roundStarted, event('CardDealtFaceDown', { slot: '1/1' }), answer],
      shipped(),
    );
    expect(report.violations).toEqual([]);
    expect(report.answersValidated).toBe(1);
    expect(conformanceLine(report)).toBe(
      `events validated 2, types seen 2 of ${report.typesKnown.length}, violations 0`,
    );
    expect(report.neverSeen).not.toContain('RoundStarted');
    expect(report.neverSeen).toContain('HandRevealed');
  });

  it("finds the practice engine's own RoundStarted (round, seats, firstCardIndex, shoeNumber)", () => {
    const doubled = event('RoundStarted', {
      round: 3,
      seats: [1, 2],
      firstCardIndex: 12,
      shoeNumber: 1,
    });
    const report = checkConformance([roundStarted, doubled], shipped());
    expect(report.violations).toHaveLength(1);
    expect(report.violations[0]).toMatch(/^unit RoundStarted#\d+: /);
    for (const problem of [
      "/payload must have required property 'roundNumber'",
      '/payload/round is not allowed',
      '/payload/seats is not allowed',
      '/payload/firstCardIndex is not allowed',
    ]) {
      expect(report.violations[0]).toContain(problem);
    }
    expect(conformanceLine(report)).toMatch(/violations 1$/);
  });

  it('finds an extra field, an event type without a schema and a malformed answer', () => {
    const report = checkConformance(
      [
        event('CardDealtFaceDown', { slot: 'dealer-hole', card: 'AS' }),
        event('BetsExploded', {}),
        { ...answer, value: { ...(answer.value as object), status: 'maybe' } },
      ],
      shipped(),
    );
    expect(report.violations).toEqual([
      expect.stringMatching(/CardDealtFaceDown#\d+: \/payload\/card is not allowed$/),
      expect.stringContaining('no schema for event type BetsExploded'),
      expect.stringContaining('answer c-1: /status must be equal to one of the allowed values'),
    ]);
  });

  it('catches a schema file made loose again (every closed payload is checked as shipped)', () => {
    const files = shipped();
    const extra = event('HoleCardRevealed', { card: 'AS', dealerTotal: 21, debug: 'x' });
    expect(checkConformance([extra], files).violations).toHaveLength(1);
    const loosened = structuredClone(files);
    const schema = loosened['events/HoleCardRevealed.json'];
    (schema.properties!.payload as JsonSchema).additionalProperties = true;
    // The loosened file lets the extra field through: the check reads the files, not the code...
    expect(checkConformance([extra], loosened).violations).toEqual([]);
    // ...which is why every shipped payload must stay closed (drift test + this invariant).
    const open = Object.entries(files).filter(
      ([path, s]) =>
        path.startsWith('events/') &&
        (s.properties?.payload as JsonSchema).additionalProperties !== false,
    );
    expect(open.map(([path]) => path)).not.toContain('events/HoleCardRevealed.json');
  });
});
