import type { OpenAPIObject } from '@nestjs/swagger';
import type {
  LicenseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { BEARER, PLATFORM_KEY } from './api-docs';
import { ERROR_BODY } from './http-schemas';
import { openApiComponents, openApiSchema } from './openapi-schema';

type Operation = {
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
};

/** The tags the operations use, described (an operation's tag must be one of these). */
export const TAGS: Record<string, string> = {
  platform: 'The platform command API (the same commands as on Kafka), with X-Platform-Key.',
  tables: 'What dealers, supervisors and auditors see of the tables.',
  'table actions': "Dealers' and supervisors' actions on a table.",
  consoles: "The consoles' data: live streams, the action log, the outbox, hold monitoring.",
  'console pages': 'The consoles themselves (HTML, scripts and styles), public.',
  audit: 'Round history, replays and the hash chain, for auditors.',
  auth: 'Staff sign-in, sign-out and accounts.',
  health: 'Liveness and readiness for load balancers and orchestrators.',
  operations: 'Prometheus metrics.',
};

const UNAVAILABLE = {
  description:
    'Unavailable: the database is out (`database-unavailable`), or the client address has too ' +
    'many open connections (`too-many-connections`). Retry after the Retry-After seconds.',
  headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } },
  content: { 'application/json': { schema: openApiSchema(ERROR_BODY) } },
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

function operations(doc: OpenAPIObject): Operation[] {
  return Object.values(doc.paths).flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([, op]) => op as Operation),
  );
}

/** Names of the component schemas `value` references, and those they reference in turn. */
function referenced(value: unknown, all: Record<string, unknown>, found = new Set<string>()) {
  if (Array.isArray(value)) value.forEach((v) => referenced(v, all, found));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const prefix = '#/components/schemas/';
      if (key === '$ref' && typeof v === 'string' && v.startsWith(prefix)) {
        const name = v.slice(prefix.length);
        if (!found.has(name)) {
          found.add(name);
          referenced(all[name], all, found);
        }
      } else referenced(v, all, found);
    }
  }
  return found;
}

/** Only the component schemas and tags the document's operations use. */
function pruned(doc: OpenAPIObject, all: Record<string, SchemaObject>): OpenAPIObject {
  const used = referenced({ paths: doc.paths, responses: doc.components?.responses }, all);
  const schemas = Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
  const paths = JSON.stringify(doc.paths);
  const responses = Object.fromEntries(
    Object.entries(doc.components?.responses ?? {}).filter(([name]) =>
      paths.includes(`"#/components/responses/${name}"`),
    ),
  );
  const tagNames = new Set(operations(doc).flatMap((op) => op.tags ?? []));
  return {
    ...doc,
    tags: Object.entries(TAGS)
      .filter(([name]) => tagNames.has(name))
      .map(([name, description]) => ({ name, description })),
    components: { ...doc.components, schemas, responses },
  };
}

/**
 * The generated document made complete: OpenAPI 3.1, one of each tag, every operation's 503
 * (the connection cap and the database filter answer it on any route), the named schemas, the
 * bearer token described as what it is (opaque, not a JWT).
 */
export function finishOpenApi(generated: OpenAPIObject): OpenAPIObject {
  const doc: OpenAPIObject = structuredClone(generated);
  doc.openapi = '3.1.0';
  // OpenAPI 3.1's SPDX `identifier` (package.json says UNLICENSED: not an open-source licence).
  doc.info.license = {
    name: 'UNLICENSED (proprietary)',
    identifier: 'LicenseRef-Proprietary',
  } as LicenseObject;
  doc.servers = [
    { url: '/', description: 'the instance (or load balancer) serving this document' },
  ];
  for (const op of operations(doc)) {
    if (op.tags) op.tags = [...new Set(op.tags)];
    op.responses['503'] ??= { $ref: '#/components/responses/Unavailable' };
  }
  doc.components = {
    ...doc.components,
    responses: { Unavailable: UNAVAILABLE },
    securitySchemes: {
      [BEARER]: {
        type: 'http',
        scheme: 'bearer',
        description: 'An opaque session token from POST /auth/login (not a JWT: nothing to decode)',
      },
      [PLATFORM_KEY]: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Platform-Key',
        description: "A casino platform's API key",
      },
    },
  };
  return pruned(doc, openApiComponents());
}

/** The routes a casino platform calls (those secured by X-Platform-Key), as a document of their own. */
export function platformOpenApi(full: OpenAPIObject): OpenAPIObject {
  const paths: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(full.paths)) {
    const kept = Object.entries(item).filter(
      ([method, op]) =>
        METHODS.has(method) && ((op as Operation).security ?? []).some((s) => PLATFORM_KEY in s),
    );
    if (kept.length) paths[path] = Object.fromEntries(kept);
  }
  const doc: OpenAPIObject = structuredClone({
    ...full,
    info: {
      ...full.info,
      title: `${full.info.title}: platform API`,
      description:
        'The HTTP routes for casino platforms, authenticated with X-Platform-Key. The same ' +
        'commands travel on Kafka (see the AsyncAPI document, docs/asyncapi.json).',
    },
    paths,
  });
  doc.components!.securitySchemes = {
    [PLATFORM_KEY]: full.components!.securitySchemes![PLATFORM_KEY],
  };
  return pruned(doc, (full.components?.schemas ?? {}) as Record<string, SchemaObject>);
}
