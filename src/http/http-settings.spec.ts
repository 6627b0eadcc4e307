import { ConfigError } from '../common/config-error';
import { EnvReader } from '../config/env-reader';
import { readHttpLimits } from './http-settings';
import { checkingInterval } from './limited-express-adapter';

const limits = (env: Record<string, string>) => readHttpLimits(new EnvReader(env));

describe('HTTP server limits', () => {
  it('has sane defaults', () => {
    expect(limits({})).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnectionsPerAddress: 100,
      bodyLimits: { signIn: 4096, commands: 16_384, other: 102_400 },
      trustProxy: false,
    });
  });

  it('refuses a value out of range, naming the variable', () => {
    expect(() => limits({ HTTP_HEADERS_TIMEOUT_MS: '0' })).toThrow(
      'HTTP_HEADERS_TIMEOUT_MS must be an integer from 500 to 300000 (got "0")',
    );
    expect(() => limits({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: 'many' })).toThrow(ConfigError);
    expect(() => limits({ HTTP_BODY_LIMIT_SIGNIN_BYTES: '100' })).toThrow(
      'HTTP_BODY_LIMIT_SIGNIN_BYTES must be an integer from 512 to 1048576 (got "100")',
    );
  });

  it('refuses a request timeout shorter than the header timeout', () => {
    expect(() =>
      limits({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow(
      'HTTP_REQUEST_TIMEOUT_MS (10000) must not be below HTTP_HEADERS_TIMEOUT_MS (20000): the headers are part of the request',
    );
  });

  it.each([
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    [
      '10.1.2.3, 192.168.0.0/16 ,::1,fd00::/8,loopback',
      ['10.1.2.3', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback'],
    ],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(limits({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    '0',
    '11',
    '10.0.0.0/33',
    '::1/129',
    'proxy.example',
    '10.0.0/8',
    '10.0.0.1/8/1',
    'true',
  ])('refuses TRUST_PROXY=%s with a clear message', (value) => {
    expect(() => limits({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY /);
  });

  it('checks the timeouts a tenth of the header timeout apart, 50 ms to 1 s', () => {
    expect([500, 2_000, 10_000, 60_000].map(checkingInterval)).toEqual([50, 200, 1_000, 1_000]);
  });
});
