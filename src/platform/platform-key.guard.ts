import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request } from 'express';
import { MAX_PLATFORM_API_KEY_LENGTH } from '../common/player-key';
import { Platform, PlatformDirectory } from '../platforms/platform-directory';

type PlatformRequest = Request & { platform?: Platform };

/**
 * Casino platforms authenticate with X-Platform-Key: a key of the platforms registry or of
 * `PLATFORM_API_KEYS` (the `default` platform's). The request then acts as that platform only.
 * Unknown key 401 `unknown-api-key`, revoked 401 `api-key-revoked`, suspended platform 403
 * `platform-suspended`: refused before any use case runs, so nothing is written.
 */
@Injectable()
export class PlatformKeyGuard implements CanActivate {
  constructor(private readonly directory: PlatformDirectory) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<PlatformRequest>();
    const given = request.headers['x-platform-key'];
    if (typeof given !== 'string' || given === '') {
      throw new UnauthorizedException({
        error: 'unknown-api-key',
        message: 'Send the platform API key in the X-Platform-Key header',
      });
    }
    // No key is this long: refused before the directory hashes, looks up and caches it.
    if (given.length > MAX_PLATFORM_API_KEY_LENGTH) {
      throw new UnauthorizedException({
        error: 'unknown-api-key',
        message: 'No platform has this key',
      });
    }
    const answer = await this.directory.authenticate(given);
    if (answer.ok) {
      request.platform = answer.platform;
      return true;
    }
    const body = { error: answer.code, message: answer.message };
    throw answer.code === 'platform-suspended'
      ? new ForbiddenException(body)
      : new UnauthorizedException(body);
  }
}

/** The platform the guard authenticated (a route without the guard has none: a bug, so it throws). */
export const CurrentPlatform = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const platform = context.switchToHttp().getRequest<PlatformRequest>().platform;
  if (!platform) throw new Error('No authenticated platform: the route lacks PlatformKeyGuard');
  return platform;
});
