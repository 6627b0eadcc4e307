import type { Accepted, HttpError, PlaceBetBody, DecideBody } from './http-types';

/** The platform's HTTP routes (docs/openapi-platform.json), with its X-Platform-Key. */
export class StudioHttpClient {
  constructor(private readonly options: { baseUrl: string; platformKey: string }) {}

  placeBet(tableId: string, body: PlaceBetBody) {
    return this.post(`/platform/tables/${encodeURIComponent(tableId)}/bets`, body);
  }

  decide(tableId: string, body: DecideBody) {
    return this.post(`/platform/tables/${encodeURIComponent(tableId)}/decisions`, body);
  }

  private async post(
    path: string,
    body: unknown,
  ): Promise<{ status: number; body: Accepted | HttpError }> {
    const response = await fetch(new URL(path, this.options.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-platform-key': this.options.platformKey },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Accepted | HttpError };
  }
}
