import type {
  Accepted,
  CancelBetBody,
  DecideBody,
  HttpError,
  PlaceBetBody,
  PlatformRound,
  SettlementReport,
} from './http-types';

/** The platform's HTTP routes (docs/openapi-platform.json), with its X-Platform-Key. */
export class StudioHttpClient {
  constructor(private readonly options: { baseUrl: string; platformKey: string }) {}

  placeBet(tableId: string, body: PlaceBetBody) {
    return this.post(`/platform/tables/${encodeURIComponent(tableId)}/bets`, body);
  }

  decide(tableId: string, body: DecideBody) {
    return this.post(`/platform/tables/${encodeURIComponent(tableId)}/decisions`, body);
  }

  /** Takes a bet back while betting is open, named by the betId of its answer. */
  cancelBet(tableId: string, betId: string, body: CancelBetBody) {
    return this.post(
      `/platform/tables/${encodeURIComponent(tableId)}/bets/${encodeURIComponent(betId)}/cancel`,
      body,
    );
  }

  /** Takes a bet back while betting is open, named by its PlaceBet's commandId (no answer came). */
  cancelBetByCommand(tableId: string, betCommandId: string, body: CancelBetBody) {
    return this.post(
      `/platform/tables/${encodeURIComponent(tableId)}/bet-commands/${encodeURIComponent(betCommandId)}/cancel`,
      body,
    );
  }

  /**
   * The settlement report per UTC day, table and currency (`from`, `to`: YYYY-MM-DD), to reconcile
   * against the sum of the settlements received (docs/wallet-model.md, rule 7) once `final`.
   */
  settlementReport(from: string, to?: string) {
    const query = new URLSearchParams(to === undefined ? { from } : { from, to });
    return this.get<SettlementReport>(`/platform/reports/settlements?${query}`);
  }

  /** A round's cards and results with this platform's players' bets and outcomes (a dispute). */
  round(roundId: string) {
    return this.get<PlatformRound>(`/platform/rounds/${encodeURIComponent(roundId)}`);
  }

  private async get<T>(path: string): Promise<{ status: number; body: T | HttpError }> {
    const response = await fetch(new URL(path, this.options.baseUrl), {
      headers: { 'x-platform-key': this.options.platformKey },
    });
    return { status: response.status, body: (await response.json()) as T | HttpError };
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
