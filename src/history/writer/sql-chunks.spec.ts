import { chunks, copyField } from './sql-chunks';

describe('sql-chunks', () => {
  it('splits rows into statements of at most the given size', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 2)).toEqual([]);
  });

  it('writes values as COPY text fields: NULL as \\N, separators and backslashes escaped', () => {
    expect(copyField(null)).toBe('\\N');
    expect(copyField(undefined)).toBe('\\N');
    expect(copyField(1_000)).toBe('1000');
    expect(copyField('p1')).toBe('p1');
    // The string "\N" is data, not NULL: its backslash is escaped.
    expect(copyField('\\N')).toBe('\\\\N');
    expect(copyField('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
    expect(copyField('{"m":"say \\"hi\\""}')).toBe('{"m":"say \\\\"hi\\\\""}');
  });
});
