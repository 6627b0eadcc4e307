import { commandKey, commandKeyOf, PLATFORM_ID_PATTERN, playerKey } from '../../common/player-key';
import { commandFingerprint } from '../common/command-fingerprint';
import { rejected } from '../common/table-command';
import type { BatchItem, CancelBetFields, CommandRejection } from '../common/tables.port';
import type { BetReference, PlacedBet, PlacedBets } from './placed-bets.port';

export type { CancelBetFields };

/**
 * A platform takes back its player's accepted bet while betting is open (the wallet could not
 * take the stake, or the platform never learnt whether it did). The bet is looked up among the
 * player's stored bets first (`resolve`); the table then refuses or cancels it.
 */
export class CancelBetCommand {
  private found?: PlacedBet | null;

  private constructor(
    readonly fields: CancelBetFields,
    readonly reference: BetReference,
  ) {}

  static create(fields: CancelBetFields): CancelBetCommand | CommandRejection {
    if (typeof fields.playerId !== 'string' || fields.playerId.trim() === '') {
      return rejected('invalid-command', 'A cancellation needs the playerId of the bet');
    }
    if (typeof fields.platformId !== 'string' || !PLATFORM_ID_PATTERN.test(fields.platformId)) {
      return rejected('invalid-command', 'A cancellation needs the platform that sends it');
    }
    const { betId, betCommandId } = fields;
    const named = (v: unknown): v is string => typeof v === 'string' && v !== '';
    if (named(betId) === named(betCommandId)) {
      return rejected('invalid-command', 'A cancellation names its bet by betId or betCommandId');
    }
    return new CancelBetCommand(fields, named(betId) ? { betId } : { betCommandId: betCommandId! });
  }

  get tableId(): string {
    return this.fields.tableId;
  }

  get player(): string {
    return playerKey(this.fields.platformId, this.fields.playerId);
  }

  /** Looks the bet up among the player's own (null: none such, whoever else holds that id). */
  async resolve(bets: PlacedBets): Promise<void> {
    // A PlaceBet's command id is stored as its platform's command key.
    const reference =
      'betId' in this.reference
        ? this.reference
        : { betCommandId: commandKey(this.fields.platformId, this.reference.betCommandId) };
    this.found = await bets.find(this.tableId, this.player, reference, this.fields.roundId);
  }

  /** The table input; `resolve` first. */
  toItem(): { item: BatchItem } {
    if (this.found === undefined) throw new Error('CancelBetCommand.toItem before resolve');
    const c = this.fields;
    const player = this.player;
    const commandId = commandKeyOf(c.platformId, c.commandId);
    return {
      item: {
        input: {
          type: 'cancel-bet',
          cancel: {
            commandId,
            playerId: player,
            reference:
              'betId' in this.reference ? this.reference.betId : this.reference.betCommandId,
            bet: this.found,
          },
        },
        meta: {
          commandId,
          kind: 'cancel-bet',
          fingerprint: commandId
            ? commandFingerprint('cancel-bet', [
                c.tableId,
                c.roundId,
                player,
                c.betId,
                c.betCommandId,
              ])
            : undefined,
        },
      },
    };
  }
}

/** Looks up the bets of every cancellation among these commands (one query each, in parallel). */
export async function resolveCancellations(
  commands: readonly unknown[],
  bets: PlacedBets,
): Promise<void> {
  await Promise.all(
    commands.filter((c) => c instanceof CancelBetCommand).map((c) => c.resolve(bets)),
  );
}
