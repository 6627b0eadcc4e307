import { arrayLiteral } from './transition-call';

describe('arrayLiteral', () => {
  it('quotes text, escapes only a double quote and a backslash, and writes NULL for absent values', () => {
    expect(arrayLiteral(['a', 'b"c', 'd\\e', '{x,y}', '', null, undefined])).toBe(
      '{"a","b\\"c","d\\\\e","{x,y}","",NULL,NULL}',
    );
  });

  it('writes numbers and booleans bare', () => {
    expect(arrayLiteral([1_000, -5, 0, true, false])).toBe('{1000,-5,0,t,f}');
  });

  it('writes an empty column as an empty array', () => {
    expect(arrayLiteral([])).toBe('{}');
  });

  it('keeps JSON answers whole: PostgreSQL reads back the same text', () => {
    const answer = JSON.stringify({ accepted: true, reply: { note: 'a "quoted" \\ path' } });
    const literal = arrayLiteral([answer]);
    // What PostgreSQL's array input does with a quoted element: drop the quotes, unescape \x.
    const read = literal.slice(2, -2).replace(/\\(.)/g, '$1');
    expect(read).toBe(answer);
  });
});
