import type { MachineOutcome } from '../table-core/table-machine';

/** What an operator wants to hear about one committed transition (nothing for most of them). */
export type TransitionNote =
  | { kind: 'round-started'; roundId: string; roundNumber: number; shoeNumber: number }
  | {
      kind: 'round-ended';
      roundId: string;
      status: 'completed' | 'voided';
      voidReason?: string;
      bets: number;
      players: number;
      staked: number;
      /** Sum of players' net results in minor units (negative: the house won). */
      playersNet: number;
    }
  | { kind: 'automatic-pause'; roundId: string | null; reason: string; cause: string }
  | {
      kind: 'supervisor-action';
      action: string;
      actor: string;
      roundId: string | null;
      reason: string | null;
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
    });
  }
  const status = w.roundStatus;
  if (status?.ended && (status.status === 'completed' || status.status === 'voided')) {
    const settlements = w.settlements.filter((s) => s.roundId === status.id);
    notes.push({
      kind: 'round-ended',
      roundId: status.id,
      status: status.status,
      ...(status.voidReason ? { voidReason: status.voidReason } : {}),
      bets: settlements.length,
      players: new Set(settlements.map((s) => s.playerId)).size,
      staked: settlements.reduce((sum, s) => sum + s.stake, 0),
      playersNet: settlements.reduce((sum, s) => sum + s.net, 0),
    });
  }
  return notes;
}
