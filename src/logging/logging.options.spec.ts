import { requestLogLevel } from './logging.options';

describe('requestLogLevel', () => {
  it('keeps successes and the rules-refusals (409) out of an info log, and failures in it', () => {
    expect(requestLogLevel(200)).toBe('debug');
    expect(requestLogLevel(409)).toBe('debug');
    expect(requestLogLevel(400)).toBe('info');
    expect(requestLogLevel(401)).toBe('info');
    expect(requestLogLevel(404)).toBe('info');
    expect(requestLogLevel(503)).toBe('error');
    expect(requestLogLevel(200, new Error('socket hang up'))).toBe('error');
  });
});
