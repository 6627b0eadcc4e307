import type { Decide, PlaceBet } from './generated/messages';

/** A command's HTTP body: the command without what the path says (`tableId`) or implies. */
type HttpBody<C> = Omit<C, 'type' | 'schemaVersion' | 'tableId' | 'commandId'> & {
  commandId?: string;
};

export type PlaceBetBody = HttpBody<PlaceBet>;
export type DecideBody = HttpBody<Decide>;

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
