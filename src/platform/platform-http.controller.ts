import {
  Body,
  CanActivate,
  Controller,
  ExecutionContext,
  HttpCode,
  Inject,
  Injectable,
  Param,
  Post,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { toHttp } from '../supervisor/http-result';
import { Decide } from '../use-cases/decide.use-case';
import { PlaceBet } from '../use-cases/place-bet.use-case';

export const PLATFORM_KEYS = Symbol('PLATFORM_KEYS');

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Casino platforms authenticate with X-Platform-Key (keys from PLATFORM_API_KEYS). */
@Injectable()
export class PlatformKeyGuard implements CanActivate {
  private readonly keys: Buffer[];
  constructor(@Inject(PLATFORM_KEYS) keys: string[]) {
    this.keys = keys.map(digest);
  }

  canActivate(context: ExecutionContext): boolean {
    const given = context.switchToHttp().getRequest<Request>().headers['x-platform-key'];
    const ok =
      typeof given === 'string' && this.keys.some((key) => timingSafeEqual(key, digest(given)));
    if (!ok) {
      throw new UnauthorizedException({
        error: 'unauthenticated',
        message: 'Send a valid X-Platform-Key header (configured in PLATFORM_API_KEYS)',
      });
    }
    return true;
  }
}

type Body = Record<string, unknown> | undefined;

/**
 * The platform command API over HTTP (the same use cases serve the Kafka command topic). Every
 * command may carry a commandId: a repeat gets the first answer, with `duplicate: true`.
 */
@Controller('platform/tables/:tableId')
@UseGuards(PlatformKeyGuard)
export class PlatformHttpController {
  constructor(
    private readonly placeBet: PlaceBet,
    private readonly decide: Decide,
  ) {}

  @Post('bets')
  @HttpCode(200)
  async bet(@Param('tableId') tableId: string, @Body() body: Body) {
    const b = body ?? {};
    return toHttp(
      await this.placeBet.execute({
        tableId,
        commandId: typeof b.commandId === 'string' ? b.commandId : undefined,
        roundId: typeof b.roundId === 'string' ? b.roundId : undefined,
        playerId: String(b.playerId ?? ''),
        betType: String(b.betType ?? ''),
        spot: b.spot === undefined ? undefined : String(b.spot),
        amount: typeof b.amount === 'number' ? b.amount : Number.NaN,
        sideBets: (b.sideBets as Record<string, number> | undefined) ?? undefined,
        currency: typeof b.currency === 'string' ? b.currency : undefined,
      }),
    );
  }

  @Post('decisions')
  @HttpCode(200)
  async decision(@Param('tableId') tableId: string, @Body() body: Body) {
    const b = body ?? {};
    return toHttp(
      await this.decide.execute({
        tableId,
        commandId: typeof b.commandId === 'string' ? b.commandId : undefined,
        roundId: typeof b.roundId === 'string' ? b.roundId : undefined,
        playerId: String(b.playerId ?? ''),
        action: String(b.action ?? ''),
        seat: b.seat === undefined ? undefined : String(b.seat),
      }),
    );
  }
}
