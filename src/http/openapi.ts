import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { USER_ROLES } from '@studio/persistence';
import type { NextFunction, Request, Response } from 'express';
import { AuthenticateToken } from '../auth/authenticate-token/authenticate-token.use-case';
import { bearerToken } from '../auth/roles.guard';
import { PlatformKeyGuard } from '../platform/platform-key.guard';
import { BEARER, PLATFORM_KEY } from './api-docs';
import { finishOpenApi, platformOpenApi } from './openapi-document';

export const DOCS_PATH = 'docs';
export const OPENAPI_JSON_PATH = `/${DOCS_PATH}/openapi.json`;
/** The platform routes' own document, readable with a platform key (docs/openapi-platform.json). */
export const PLATFORM_OPENAPI_JSON_PATH = `/${DOCS_PATH}/platform/openapi.json`;

/** The OpenAPI 3 document generated from every controller's routes and schemas. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Live-dealer studio')
    .setDescription(
      'Tables, dealer and supervisor actions, the platform command API (also on Kafka: see the ' +
        "AsyncAPI document), the consoles' API, auditor history and health. Request bodies and " +
        'parameters are described by the JSON Schemas the service validates them with.',
    )
    .setVersion('1')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer' }, BEARER)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Platform-Key' }, PLATFORM_KEY)
    .build();
  // Tags are the ones the decorators give (TAGS), not one per controller class as well.
  return finishOpenApi(SwaggerModule.createDocument(app, config, { autoTagControllers: false }));
}

/**
 * The platform document answers a valid X-Platform-Key (checked by the platform routes' own guard,
 * so it accepts exactly the keys they do) or a staff token; it is built once, on first request.
 */
function platformDocument(app: INestApplication, staff: ReturnType<typeof staffOnly>) {
  let document: OpenAPIObject | undefined;
  const guard = app.get(PlatformKeyGuard, { strict: false });
  return (request: Request, response: Response, next: NextFunction) => {
    const send = () => {
      document ??= platformOpenApi(buildOpenApiDocument(app));
      response.status(200).json(document);
    };
    if (request.headers['x-platform-key'] === undefined) {
      staff(request, response, send);
      return;
    }
    const context = { switchToHttp: () => ({ getRequest: () => request }) };
    Promise.resolve()
      .then(() => guard.canActivate(context as never))
      .then(
        (ok) => (ok ? send() : response.status(401).json(PLATFORM_REFUSAL)),
        () => response.status(401).json(PLATFORM_REFUSAL),
      )
      .catch(next);
  };
}

const PLATFORM_REFUSAL = {
  error: 'unauthenticated',
  message: 'Send a valid X-Platform-Key header',
};

/**
 * The document is for staff: `/docs` (Swagger UI) and `/docs/openapi.json` answer 401 without a
 * valid bearer token of any role (a browser sends it with a header tool, or a console's fetch).
 */
function staffOnly(app: INestApplication) {
  const authenticate = app.get(AuthenticateToken);
  return (request: Request, response: Response, next: NextFunction) => {
    const token = bearerToken(request);
    const refuse = (message: string) =>
      response.status(401).json({ error: 'unauthenticated', message });
    if (!token) {
      refuse('Sign in first: send Authorization: Bearer <token> from POST /auth/login');
      return;
    }
    authenticate
      .execute(token)
      .then((user) => {
        if (user && (USER_ROLES as readonly string[]).includes(user.role)) next();
        else refuse('The token is unknown, expired or revoked; sign in again');
      })
      .catch(() =>
        response
          .status(503)
          .json({ error: 'unavailable', message: 'Cannot check the token now; try again' }),
      );
  };
}

/**
 * Serves Swagger UI at /docs and the document at /docs/openapi.json (staff), the platform routes'
 * document at /docs/platform/openapi.json (platforms and staff). Call before app.init().
 */
export function setupOpenApi(app: INestApplication): void {
  const staff = staffOnly(app);
  app.use(PLATFORM_OPENAPI_JSON_PATH, platformDocument(app, staff));
  app.use(`/${DOCS_PATH}`, staff);
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Studio API',
  });
}
