import { sharedTopicOmits, visibilityOf } from '../event-visibility';
import { platformTopicName, SHARED_TABLE_EVENTS_V2 } from '../topics';
import { COMMAND_TYPES } from './command-schemas';

type Messages = (names: readonly string[]) => Record<string, unknown>;
type OpMessages = (channel: string, names: readonly string[]) => unknown[];

const ref = (path: string) => ({ $ref: path });
const PLATFORM = {
  platformId: { description: 'the platform id (`[a-z0-9][a-z0-9-]{0,39}`)' },
};

/**
 * What the shared topic carries: the public event types whole, the redacted and split ones as
 * their `<type>Shared` messages, without their player fields (docs/kafka-contract.md,
 * "Platforms").
 */
export function sharedTopicMessages(eventTypes: readonly string[]): string[] {
  return eventTypes.flatMap((t) => {
    if (visibilityOf(t).kind === 'public') return [t];
    return sharedTopicOmits(t).length > 0 ? [`${t}Shared`] : [];
  });
}

/** The contract 2.0 channels: the shared events topic and each platform's own topics. */
export function platformChannels(messages: Messages, eventTypes: readonly string[]) {
  const sharedTypes = sharedTopicMessages(eventTypes);
  const privateTypes = eventTypes.filter((t) => visibilityOf(t).kind !== 'public');
  return {
    sharedTableEvents: {
      address: SHARED_TABLE_EVENTS_V2,
      description: 'What every platform may see; no message names a player or a platform.',
      messages: messages(sharedTypes),
    },
    platformCommandsV2: {
      address: platformTopicName('{platformId}', 'commands'),
      description: "One platform's commands; the topic names the platform.",
      parameters: PLATFORM,
      messages: messages(COMMAND_TYPES),
    },
    platformResultsV2: {
      address: platformTopicName('{platformId}', 'results'),
      description: "The answers to one platform's commands.",
      parameters: PLATFORM,
      messages: messages(['CommandResult']),
    },
    platformEventsV2: {
      address: platformTopicName('{platformId}', 'events'),
      description: "One platform's players' events only.",
      parameters: PLATFORM,
      messages: messages(privateTypes),
    },
    platformDeadLettersV2: {
      address: platformTopicName('{platformId}', 'dead-letters'),
      description: "One platform's commands that could not be answered, as sent.",
      parameters: PLATFORM,
      messages: messages(['DeadLetter']),
    },
  };
}

export function platformOperations(opMessages: OpMessages, eventTypes: readonly string[]) {
  const sharedTypes = sharedTopicMessages(eventTypes);
  const privateTypes = eventTypes.filter((t) => visibilityOf(t).kind !== 'public');
  return {
    publishSharedTableEvents: {
      action: 'send',
      summary: 'The studio publishes what every platform may see.',
      channel: ref('#/channels/sharedTableEvents'),
      messages: opMessages('sharedTableEvents', sharedTypes),
    },
    receivePlatformCommandsV2: {
      action: 'receive',
      summary:
        "The studio reads a platform's commands and answers on that platform's results topic.",
      channel: ref('#/channels/platformCommandsV2'),
      messages: opMessages('platformCommandsV2', COMMAND_TYPES),
      reply: {
        channel: ref('#/channels/platformResultsV2'),
        messages: opMessages('platformResultsV2', ['CommandResult']),
      },
    },
    publishPlatformEvents: {
      action: 'send',
      summary: "The studio publishes a platform's players' events to that platform only.",
      channel: ref('#/channels/platformEventsV2'),
      messages: opMessages('platformEventsV2', privateTypes),
    },
    publishPlatformDeadLetters: {
      action: 'send',
      summary: "The studio parks a platform's unreadable command on that platform's topic only.",
      channel: ref('#/channels/platformDeadLettersV2'),
      messages: opMessages('platformDeadLettersV2', ['DeadLetter']),
    },
  };
}
