import type { MachineOutcome } from '../table-core/table-machine';

/** What an operator wants to hear about one committed transition (nothing for most of them). */
export type TransitionNote =
  | { kind: 'round-started'; roundId: string; roundNumber: number; shoeNumber: number }
  | {
      kind: 'round-ended';
      roundId: string;
      /** From the round's RoundCompleted / RoundEnded event (known after a restart too). */
      roundNumber?: number;
      shoeNumber?: number;
      status: 'completed' | 'voided';
      voidReason?: string;
      bets: number;
      players: number;
      /**
       * Per currency (a table may take several; never added together): what was staked and the
       * players' net result in its minor units (negative: the house won).
       */
      money: Array<{ currency: string; staked: number; playersNet: number }>;
    }
  | { kind: 'automatic-pause'; roundId: string | null; reason: string; cause: string }
  /** A supervisor alert that pauses nothing (a rescan limit is told as its automatic pause). */
  | { kind: 'alert'; roundId: string | null; message: string }
  | {
      kind: 'supervisor-action';
      action: string;
      actor: string;
      roundId: string | null;
      reason: string | null;
      /** A void that waits for a second supervisor's approval. */
      pending?: boolean;
      /** The second supervisor who approved this void. */
      approvedBy?: string;
    };

/** The system pauses a table by itself after a restart mid-round or an escalated rescan. */
const SYSTEM_ACTOR = 'system';

/**
 * Reads a committed outcome's writes. Only public facts: no card of any kind is looked at, so a
 * face-down card cannot leak into a log line built from these notes.
 */
export function summariseTransition(outcome: MachineOutcome): TransitionNote[] {
  const w = outcome.writes;
  const notes: TransitionNote[] = [];
  if (w.newRound) {
    notes.push({
      kind: 'round-started',
      roundId: w.newRound.id,
      roundNumber: w.newRound.roundNumber,
      shoeNumber: w.newRound.shoeNumber,
    });
  }
  for (const event of w.events) {
    if (event.type === 'SupervisorAlert') {
      const message = alertMessage(event.payload);
      if (message) notes.push({ kind: 'alert', roundId: event.roundId, message });
      continue;
    }
    if (event.type !== 'RoundPaused') continue;
    const kind = String(event.payload.kind ?? '');
    if (kind === 'escalation' || event.actor === SYSTEM_ACTOR) {
      notes.push({
        kind: 'automatic-pause',
        roundId: event.roundId,
        reason: String(event.payload.reason ?? ''),
        cause: kind === 'escalation' ? 'scanner escalation' : 'restart',
      });
    }
  }
  const action = w.supervisorAction;
  if (action && action.actor !== SYSTEM_ACTOR) {
    notes.push({
      kind: 'supervisor-action',
      action: action.action,
      actor: action.actor,
      roundId: action.roundId,
      reason: action.reason,
      ...(action.pendingRequestId ? { pending: true } : {}),
      ...(action.approval ? { approvedBy: action.approval.approvedBy } : {}),
    });
  }
  const status = w.roundStatus;
  if (status?.ended && (status.status === 'completed' || status.status === 'voided')) {
    const settlements = w.settlements.filter((s) => s.roundId === status.id);
    const ended = w.events.find(
      (e) => e.roundId === status.id && (e.type === 'RoundCompleted' || e.type === 'RoundEnded'),
    )?.payload;
    notes.push({
      kind: 'round-ended',
      roundId: status.id,
      ...numbers(ended),
      status: status.status,
      ...(status.voidReason ? { voidReason: status.voidReason } : {}),
      bets: settlements.length,
      players: new Set(settlements.map((s) => s.playerId)).size,
      money: moneyPerCurrency(settlements),
    });
  }
  return notes;
}

function moneyPerCurrency(
  settlements: ReadonlyArray<{ currency?: string; stake: number; net: number }>,
): Array<{ currency: string; staked: number; playersNet: number }> {
  const byCurrency = new Map<string, { currency: string; staked: number; playersNet: number }>();
  for (const s of settlements) {
    const currency = s.currency ?? '';
    const m = byCurrency.get(currency) ?? { currency, staked: 0, playersNet: 0 };
    m.staked += s.stake;
    m.playersNet += s.net;
    byCurrency.set(currency, m);
  }
  return [...byCurrency.values()];
}

function numbers(payload: Record<string, unknown> | undefined) {
  const { roundNumber, shoeNumber } = payload ?? {};
  return typeof roundNumber === 'number' && typeof shoeNumber === 'number'
    ? { roundNumber, shoeNumber }
    : {};
}

/** The alert in words; a rescan limit pauses the table and is told by that pause. */
function alertMessage(payload: Record<string, unknown>): string | undefined {
  switch (payload.kind) {
    case 'composition':
      return `card composition: ${String(payload.message ?? 'more copies of a card than the shoe holds')}`;
    case 'scanner-gap':
      return String(payload.message ?? 'scanner frames never arrived');
    case 'scanner-sequence':
      return (
        `scanner frame ${String(payload.sequence)} ` +
        `${payload.reason === 'backwards' ? 'went backwards' : 'repeated with other content'}` +
        ` (previous ${String(payload.previousSequence ?? 'none')}): not applied, kept for review`
      );
    default:
      return undefined;
  }
}
