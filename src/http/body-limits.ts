import type { INestApplication } from '@nestjs/common';
import { json, urlencoded } from 'express';
import type { HttpLimits } from './http-settings';

/** Routes whose bodies are commands: platform bets and decisions, dealers' and supervisors' table actions. */
export const COMMAND_ROUTES = ['/platform', '/tables'];
export const SIGN_IN_ROUTE = '/auth/login';

/**
 * Body parsers with a size limit per route, in place of Nest's one parser of 100 KiB for all: a
 * sign-in and a command are a few hundred bytes, so a larger body is refused early with 413
 * `payload-too-large` before it is read into memory. The first parser that matches reads the body
 * (body-parser skips a body already read).
 */
export function useBodyLimits(app: INestApplication, limits: HttpLimits['bodyLimits']): void {
  const parsers = (limit: number) => [json({ limit }), urlencoded({ extended: true, limit })];
  app.use(SIGN_IN_ROUTE, ...parsers(limits.signIn));
  app.use(COMMAND_ROUTES, ...parsers(limits.commands));
  app.use(...parsers(limits.other));
}
