/**
 * Who may see each table event, in one table: what every platform may see goes to the shared
 * topic, what names a player goes only to that player's platform. Decided per event type; a type
 * missing here is treated as private (never on the shared topic) until it is given a line.
 *
 * - `public`: the whole event on the shared topic (round lifecycle, cards once face up, results,
 *   aggregate counts).
 * - `private`: a named player's own event (a bet, a decision, an answer to an offer): the whole
 *   event only on the player's platform's topic (`payload.platformId`).
 * - `redacted`: a seat's public fact that also names its player (a seat taken, a turn): the whole
 *   event on the player's platform's topic, and on the shared topic without `drop`.
 * - `split`: many players' items in one event (a window's bets, a batch of settlements): each
 *   platform gets the event with only its players' items (`item.platformId`), `count` recounted;
 *   the shared topic gets it without the list (the aggregate fields stay, but not the fields of
 *   `perPlatform`: numbers that count one platform's items). An event of the type that carries no
 *   list at all (a game whose event has none) is public.
 */
export type Visibility =
  | { kind: 'public' }
  | { kind: 'private' }
  | { kind: 'redacted'; drop: readonly string[] }
  | { kind: 'split'; list: string; count?: string; perPlatform?: readonly string[] };

const PUBLIC: Visibility = { kind: 'public' };
const PRIVATE: Visibility = { kind: 'private' };
const REDACTED: Visibility = { kind: 'redacted', drop: ['playerId', 'platformId'] };

export const EVENT_VISIBILITY: Readonly<Record<string, Visibility>> = {
  // A named player's own bets, decisions and answers.
  BetAccepted: PRIVATE,
  BehindBetAccepted: PRIVATE,
  SeatBetAccepted: PRIVATE,
  SeatBetFailed: PRIVATE,
  DecisionAccepted: PRIVATE,
  FollowChoiceSet: PRIVATE,
  InsuranceAnswered: PRIVATE,
  PreDecisionSet: PRIVATE,
  BetCancelled: PRIVATE,
  // Many players' items: each platform its own, the shared topic the counts.
  BetsAccepted: { kind: 'split', list: 'bets', count: 'accepted' },
  DecisionsAccepted: { kind: 'split', list: 'decisions', count: 'accepted' },
  // A round's settlements are batched per platform (`batch` of `batches` among the platform's own).
  BetsSettled: { kind: 'split', list: 'settlements', perPlatform: ['batch', 'batches'] },
  BetsRefunded: { kind: 'split', list: 'settlements', perPlatform: ['batch', 'batches'] },
  BetsReturned: { kind: 'split', list: 'bets' },
  BetsCancelled: { kind: 'split', list: 'bets' },
  // Blackjack Lux settles each seat's and bettor's hands in `records`, naming their players; the
  // other games' RoundSettled has no `records` and stays whole on the shared topic.
  RoundSettled: { kind: 'split', list: 'records' },
  // What happens at a seat everyone watches, its player named only to the player's platform.
  SeatTaken: REDACTED,
  SeatLeft: REDACTED,
  SeatRemoved: REDACTED,
  SeatSitsOut: REDACTED,
  TurnStarted: REDACTED,
  AutoPlayed: REDACTED,
  DecisionRequested: REDACTED,
  // Round lifecycle, cards once face up, results, aggregate counts, the table itself.
  AllCardsDealt: PUBLIC,
  BettingClosed: PUBLIC,
  BettingOpened: PUBLIC,
  BurnCardShown: PUBLIC,
  BurnCompleted: PUBLIC,
  CardBurnt: PUBLIC,
  CardCorrected: PUBLIC,
  CardCorrectedFaceDown: PUBLIC,
  CardDealt: PUBLIC,
  CardDealtFaceDown: PUBLIC,
  CardNotExpected: PUBLIC,
  CardRejected: PUBLIC,
  ChainCheckpoint: PUBLIC,
  CommonCardDrawn: PUBLIC,
  DealerCardDrawn: PUBLIC,
  DealerChecked: PUBLIC,
  Decision: PUBLIC,
  DecisionApplied: PUBLIC,
  DecisionWindowClosed: PUBLIC,
  DecisionWindowOpened: PUBLIC,
  HandRevealed: PUBLIC,
  HiddenCardRevealed: PUBLIC,
  HoleCardRevealed: PUBLIC,
  InsuranceClosed: PUBLIC,
  InsuranceOffered: PUBLIC,
  LastRoundOfShoe: PUBLIC,
  PreDecisionApplied: PUBLIC,
  RescanRequired: PUBLIC,
  RoundCompleted: PUBLIC,
  RoundEnded: PUBLIC,
  RoundPaused: PUBLIC,
  RoundResult: PUBLIC,
  RoundResumed: PUBLIC,
  RoundStarted: PUBLIC,
  RoundVoided: PUBLIC,
  ScannerStatusChanged: PUBLIC,
  ShoeFinished: PUBLIC,
  ShoeLoaded: PUBLIC,
  ShoeStarted: PUBLIC,
  SupervisorAlert: PUBLIC,
  TableRegistered: PUBLIC,
};

export function visibilityOf(type: string): Visibility {
  return EVENT_VISIBILITY[type] ?? PRIVATE;
}

/**
 * The payload fields the shared topic leaves out of an event of this type (as the relay routes
 * it): a redacted event's player, a split event's list, its `platformId` and the numbers it
 * counts per platform; none for a public type. The v1 topic carries another platform's players'
 * events so too.
 */
export function sharedTopicOmits(type: string): readonly string[] {
  const v = visibilityOf(type);
  if (v.kind === 'redacted') return v.drop;
  if (v.kind === 'split') return [v.list, 'platformId', ...(v.perPlatform ?? [])];
  return [];
}
