import type { CancelBet, Decide, PlaceBet } from './generated/messages';

/** A command's HTTP body: the command without what the path says (`tableId`) or implies. */
type HttpBody<C> = Omit<C, 'type' | 'schemaVersion' | 'tableId' | 'commandId'> & {
  commandId?: string;
};

export type PlaceBetBody = HttpBody<PlaceBet>;
export type DecideBody = HttpBody<Decide>;
/** A cancellation's body: the path names the bet (by betId or by its PlaceBet's commandId). */
export type CancelBetBody = Omit<HttpBody<CancelBet>, 'betId' | 'betCommandId'>;

export interface Accepted {
  accepted: true;
  duplicate?: boolean;
  [produced: string]: unknown;
}

export interface HttpError {
  error: string;
  message: string;
  pointer?: string;
}
