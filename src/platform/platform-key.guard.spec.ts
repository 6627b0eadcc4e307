import { UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import type { PlatformDirectory } from '../platforms/platform-directory';
import { PlatformKeyGuard } from './platform-key.guard';

describe('PlatformKeyGuard', () => {
  const asked: string[] = [];
  const directory = {
    authenticate: async (key: string) => {
      asked.push(key);
      return { ok: false, code: 'unknown-api-key', message: 'No platform has this key' };
    },
  } as unknown as PlatformDirectory;
  const guard = new PlatformKeyGuard(directory);
  const contextWith = (key: string) =>
    ({
      switchToHttp: () => ({ getRequest: () => ({ headers: { 'x-platform-key': key } }) }),
    }) as unknown as ExecutionContext;

  beforeEach(() => (asked.length = 0));

  it('refuses a key longer than any key before the directory hashes, looks up and caches it', async () => {
    // 16 KiB of random keys per request had the directory hold each one: ~250 MB for 10,000.
    const answer = guard.canActivate(contextWith('k'.repeat(15_000)));
    await expect(answer).rejects.toBeInstanceOf(UnauthorizedException);
    await expect(answer).rejects.toMatchObject({ response: { error: 'unknown-api-key' } });
    expect(asked).toEqual([]);
  });

  it('asks the directory about a key of a key’s length', async () => {
    const key = `psk_${'a'.repeat(43)}`;
    await expect(guard.canActivate(contextWith(key))).rejects.toMatchObject({
      response: { error: 'unknown-api-key' },
    });
    expect(asked).toEqual([key]);
  });
});
