import fc from 'fast-check';
import { arrayLiteral } from './transition-call';

/**
 * What PostgreSQL's array input makes of a literal of quoted or bare elements (text[] semantics):
 * a quoted element loses its quotes and each backslash escapes the next character; a bare NULL
 * (any case) is null; other bare elements are taken as written.
 */
function readArray(literal: string): (string | null)[] {
  expect(literal.startsWith('{') && literal.endsWith('}')).toBe(true);
  const out: (string | null)[] = [];
  let i = 1;
  while (i < literal.length - 1) {
    if (literal[i] === '"') {
      let text = '';
      for (i += 1; literal[i] !== '"'; i += 1)
        text += literal[i] === '\\' ? literal[++i] : literal[i];
      out.push(text);
      i += 1;
    } else {
      const end = literal.indexOf(',', i) === -1 ? literal.length - 1 : literal.indexOf(',', i);
      const bare = literal.slice(i, end);
      out.push(bare.toUpperCase() === 'NULL' ? null : bare);
      i = end;
    }
    if (literal[i] === ',') i += 1;
  }
  return out;
}

/** Any text, often made of what an array literal treats specially. */
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('"', '\\', ',', '{', '}', ' ', 'a', '\n', '\u0000', 'NULL') }),
);

describe('arrayLiteral', () => {
  it('quotes text, escapes a double quote and a backslash, and writes null for absent values', () => {
    expect(arrayLiteral(['a', 'b"c', 'd\\e', '{x,y}', '', null, undefined])).toBe(
      '{"a","b\\"c","d\\\\e","{x,y}","",null,null}',
    );
  });

  it('writes numbers and booleans bare', () => {
    expect(arrayLiteral([1_000, -5, 0, true, false])).toBe('{1000,-5,0,true,false}');
  });

  it('writes an empty column as an empty array', () => {
    expect(arrayLiteral([])).toBe('{}');
  });

  it('writes a control character or a surrogate as itself (JSON would write an escape)', () => {
    expect(arrayLiteral(['a\nb', null, true])).toBe('{"a\nb",NULL,t}');
    expect(arrayLiteral(['😀', 'x'])).toBe('{"😀","x"}');
  });

  it('leaves a number JSON cannot write for PostgreSQL to refuse, not null', () => {
    expect(arrayLiteral([1, Number.NaN])).toBe('{1,NaN}');
  });

  it('keeps JSON answers whole: PostgreSQL reads back the same text', () => {
    const answer = JSON.stringify({ accepted: true, reply: { note: 'a "quoted" \\ path\n' } });
    expect(readArray(arrayLiteral([answer]))).toEqual([answer]);
  });

  it('reads back any text as sent, whichever way the literal is built', () => {
    fc.assert(
      fc.property(fc.array(fc.option(text, { nil: null })), (values) => {
        expect(readArray(arrayLiteral(values))).toEqual(values);
      }),
    );
  });
});
