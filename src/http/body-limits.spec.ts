import express, { json, type RequestHandler } from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commandJson, commandsAreJson, isJson } from './body-limits';

/** What a command route sees: its parsed body, or the refusal's status. */
async function seen(parser: RequestHandler, type: string | undefined, body: string | Uint8Array) {
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

describe('commandJson', () => {
  const parser = commandJson(1000);
  const bytes = (...parts: Array<string | number[]>) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

  it('parses UTF-8 JSON, with or without a byte order mark, whatever the charset is spelt', async () => {
    const body = '{"playerId":"ünïcödé 🂡"}';
    const parsed = JSON.stringify({ body: JSON.parse(body), typeOf: 'object' });
    for (const type of ['application/json', 'application/json; charset=UTF-8']) {
      expect(await seen(parser, type, body)).toEqual([200, parsed]);
    }
    expect(await seen(parser, 'application/json', bytes([0xef, 0xbb, 0xbf], body))).toEqual([
      200,
      parsed,
    ]);
  });

  it.each([
    ['a byte that is never UTF-8', [0xff]],
    ['a lone continuation byte', [0x80]],
    ['an overlong "/"', [0xc0, 0xaf]],
    ['a UTF-8-encoded lone surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
  ])('refuses %s with 400 instead of storing U+FFFD in its place', async (_what, bad) => {
    const body = bytes('{"playerId":"p', bad, '"}');
    const [status, text] = await seen(parser, 'application/json', body);
    expect(status).toBe(400);
    expect(JSON.parse(text as string)).toEqual({ refused: 400 });
  });

  it('refuses a name given twice in one object, which parsers read differently', async () => {
    const body = '{"playerId":"p","amount":100,"amount":100000}';
    expect(await seen(parser, 'application/json', body)).toEqual([400, '{"refused":400}']);
    const apart = '{"a":{"amount":1},"b":{"amount":2}}';
    expect((await seen(parser, 'application/json', apart))[0]).toBe(200);
  });

  it('refuses a charset other than UTF-8 (RFC 8259) with 415, not as mangled JSON', async () => {
    for (const charset of ['utf-16', 'utf-16le', 'utf-32', 'latin1']) {
      const [status] = await seen(parser, `application/json; charset=${charset}`, '{"a":1}');
      expect(status).toBe(415);
    }
  });
});
