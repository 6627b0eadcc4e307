import express, { json, type RequestHandler } from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commandsAreJson, isJson } from './body-limits';

/** What a command route sees: its parsed body, or the refusal's status. */
async function seen(parser: RequestHandler, type: string | undefined, body: string) {
  const app = express();
  app.use('/platform', commandsAreJson, parser);
  app.post('/platform/x', (request, response) => {
    response.json({ body: request.body as unknown, typeOf: typeof request.body });
  });
  app.use(
    (error: { status?: number }, _request: unknown, response: express.Response, _next: unknown) => {
      response.status(error.status ?? 500).json({ refused: error.status });
    },
  );
  const server = createServer(app);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/platform/x`, {
      method: 'POST',
      headers: type ? { 'content-type': type } : {},
      body,
    });
    return [answer.status, await answer.text()];
  } finally {
    await new Promise((ok) => server.close(ok));
  }
}

describe('isJson', () => {
  it.each([
    ['application/json', '{"a":1}'],
    ['application/json; charset=utf-8', '{"a":1}'],
    ['Application/JSON', '{"a":1}'],
    ['application/merge-patch+json', '{"a":1}'],
    ['application/x-www-form-urlencoded', ''],
    ['text/plain', ''],
    [undefined, ''],
    ['application/json', ''],
    ['application/json', 'not json'],
  ])("decides as body-parser's own type test: %s %j", async (type, body) => {
    expect(await seen(json({ limit: 1000, type: isJson }), type, body)).toEqual(
      await seen(json({ limit: 1000 }), type, body),
    );
  });
});
