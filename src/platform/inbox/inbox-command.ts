import type { CommandMessage } from '@studio/contracts';
import type { SupervisionInput } from '../../table-core/table-input';
import type {
  CancelBetFields,
  DecideFields,
  PlaceBetFields,
} from '../../use-cases/common/tables.port';
import type { RawCommandMessage } from '../../kafka/raw-command-message';

/** Where a Kafka command was read: a dead letter names it. */
export interface CommandSource {
  topic: string;
  partition: number;
  offset: string;
}

/** A command waiting in the inbox for its table's owner, as the owner needs it. */
export type InboxCommand =
  | { via: 'kafka'; message: CommandMessage; source: CommandSource }
  | { via: 'http'; kind: 'bet'; command: PlaceBetFields }
  | { via: 'http'; kind: 'decision'; command: DecideFields }
  | { via: 'http'; kind: 'cancel-bet'; command: CancelBetFields }
  /** A dealer's or supervisor's action, checked by its use case on the instance that took it. */
  | { via: 'http'; kind: 'supervision'; input: SupervisionInput };

export type HttpInboxCommand = Extract<InboxCommand, { via: 'http' }>;

/** The message a forwarded Kafka command arrived as, for its dead letter. */
export function sourceMessage(command: Extract<InboxCommand, { via: 'kafka' }>): RawCommandMessage {
  return {
    ...command.source,
    key: command.message.tableId,
    value: Buffer.from(JSON.stringify(command.message), 'utf8'),
  };
}
