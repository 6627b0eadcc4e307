import { oneLine } from './one-line';

describe('oneLine', () => {
  it('gives an error’s message with its code, on one line', () => {
    const error = Object.assign(new Error('connect\n  refused'), { code: 'ECONNREFUSED' });
    expect(oneLine(error)).toBe('connect refused (ECONNREFUSED)');
  });

  it('joins the errors of an AggregateError', () => {
    expect(oneLine(new AggregateError([new Error('a'), new Error('b')]))).toBe('a; b');
  });

  it('says what a thrown object that is not an Error holds, never [object Object]', () => {
    // PGlite's file system (Emscripten) throws these on a folder it cannot use.
    expect(oneLine({ name: 'ErrnoError', errno: 2 })).toBe('ErrnoError (errno 2)');
    expect(oneLine({ message: 'bad thing', code: 'E1' })).toBe('bad thing (E1)');
    expect(oneLine({ reason: 'x' })).toBe('{"reason":"x"}');
    expect(oneLine('plain')).toBe('plain');
    expect(oneLine(undefined)).toBe('undefined');
  });
});
