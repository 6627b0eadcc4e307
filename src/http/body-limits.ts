import { type INestApplication, UnsupportedMediaTypeException } from '@nestjs/common';
import { json, type NextFunction, type Request, urlencoded } from 'express';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { duplicateKeyOf } from './duplicate-keys';
import type { HttpLimits } from './http-settings';

/** Routes whose bodies are commands: platform bets and decisions, dealers' and supervisors' table actions. */
export const COMMAND_ROUTES = ['/platform', '/tables'];
export const SIGN_IN_ROUTE = '/auth/login';

/**
 * Body parsers with a size limit per route, in place of Nest's one parser of 100 KiB for all: a
 * sign-in and a command are a few hundred bytes, so a larger body is refused early with 413
 * `payload-too-large` before it is read into memory. The first parser that matches reads the body
 * (body-parser skips a body already read). A command's body is JSON only (`commandsAreJson`).
 */
export function useBodyLimits(app: INestApplication, limits: HttpLimits['bodyLimits']): void {
  const parsers = (limit: number) => [
    json({ limit, verify: strictJson }),
    urlencoded({ extended: true, limit }),
  ];
  app.use(SIGN_IN_ROUTE, ...parsers(limits.signIn));
  app.use(COMMAND_ROUTES, commandsAreJson, commandJson(limits.commands));
  app.use(...parsers(limits.other));
}

/** The JSON parser of command routes: UTF-8 JSON up to `limit` bytes. */
export function commandJson(limit: number) {
  return json({ limit, type: isJson, verify: strictJson });
}

/** An error the body parser passes on as it is (status and type, which name the refusal). */
function refusal(status: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { status, type, expose: true });
}

/**
 * JSON is UTF-8 (RFC 8259 §8.1). The body parser would otherwise decode a UTF-16 body as such
 * (garbage to the JSON parser) and turn each byte that is not UTF-8 into U+FFFD, so that
 * `"p\xff"` and `"p\xfe"` were stored as one and the same playerId, unlike what was sent; and
 * `JSON.parse` keeps the last of a name given twice (`{"amount":100,"amount":100000}`) where
 * another parser may keep the first. All are refused before parsing: 415 `unsupported-charset`,
 * 400 `invalid-json` (the repeated name's pointer in the message).
 */
function strictJson(_request: unknown, _response: unknown, body: Buffer, charset: string): void {
  const name = charset.toLowerCase();
  if (name !== 'utf-8' && name !== 'utf8') {
    throw refusal(
      415,
      'charset.unsupported',
      `unsupported charset "${charset.toUpperCase()}": JSON is sent in UTF-8`,
    );
  }
  if (!isUtf8(body)) {
    throw refusal(400, 'entity.parse.failed', 'The body is not valid UTF-8 (JSON is UTF-8)');
  }
  const twice = duplicateKeyOf(body.toString('utf8'));
  if (twice !== undefined) {
    throw refusal(
      400,
      'entity.parse.failed',
      `body ${twice} is given twice: each name once per object (parsers differ on which counts)`,
    );
  }
}

const IS_JSON = Symbol('isJson');
type TypedRequest = Request & { [IS_JSON]?: string | false | null };

/**
 * The JSON parser's test of a command's type (body-parser's default, `type: 'application/json'`),
 * taken from `commandsAreJson`, which asked it already: the type is parsed once per command.
 */
export function isJson(message: IncomingMessage): boolean {
  const request = message as TypedRequest;
  const known = request[IS_JSON];
  return Boolean(known === undefined ? request.is('application/json') : known);
}

/**
 * 415 `unsupported-media-type` for a command whose body is not JSON. Without it, a form (what
 * `curl --data` sends) or plain text reached validation as an empty body and was refused for a
 * missing field, which sent a platform's engineer looking in the wrong place. A request without
 * a body, or with an empty one (close betting, end the shoe), passes.
 */
export function commandsAreJson(request: Request, _response: unknown, next: NextFunction): void {
  // An empty body (a POST with Content-Length: 0, as fetch sends one without a body) is no body.
  const empty = request.headers['content-length'] === '0';
  if (empty) return next();
  const type = request.is('application/json');
  (request as TypedRequest)[IS_JSON] = type;
  if (type !== false) return next();
  const given = (request.headers['content-type'] ?? 'none').slice(0, 100);
  next(
    new UnsupportedMediaTypeException(
      `A command's body is JSON: send it with Content-Type: application/json (this one's type: ${given})`,
    ),
  );
}
