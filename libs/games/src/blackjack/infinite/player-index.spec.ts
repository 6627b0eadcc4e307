import fc from 'fast-check';
import { appendPlayers, indexOfPlayer } from './player-index';

function append(ids: readonly string[], added: string[]): readonly string[] {
  const a = appendPlayers(ids);
  for (const id of added) if (a.indexOf(id) < 0) a.add(id);
  return a.finish();
}

describe('player index', () => {
  it('finds every player of a column, and nobody else', () => {
    const ids = append([], ['a', 'b', 'c']);
    expect(['a', 'b', 'c', 'd'].map((id) => indexOfPlayer(ids, id))).toEqual([0, 1, 2, -1]);
  });

  it('stays correct for older states and forks that share an index', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 30 }), {
          minLength: 1,
          maxLength: 6,
        }),
        (batches) => {
          // A chain of states plus a fork from every state; every column must answer for itself.
          const states: (readonly string[])[] = [[]];
          for (const batch of batches) {
            const base = states[Math.floor(states.length / 2)];
            states.push(append(states[states.length - 1], batch));
            states.push(append(base, [...batch].reverse()));
          }
          // A column read back from JSON has no cached index and must rebuild it.
          states.push(JSON.parse(JSON.stringify(states[states.length - 1])) as string[]);
          for (const ids of states) {
            expect(new Set(ids).size).toBe(ids.length);
            ids.forEach((id, i) => expect(indexOfPlayer(ids, id)).toBe(i));
            for (const other of states.flat()) {
              if (!ids.includes(other)) expect(indexOfPlayer(ids, other)).toBe(-1);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
