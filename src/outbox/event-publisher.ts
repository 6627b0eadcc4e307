/** One Kafka message as the relay hands it to the publisher. */
export interface OutgoingMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface PublisherStatus {
  enabled: boolean;
  connected: boolean;
  lastError?: string;
}

/**
 * The edge between the outbox and the message broker. The relay depends on this, not on kafkajs,
 * so it is unit-testable and publishing can be switched off (embedded default).
 */
export abstract class EventPublisher {
  abstract readonly enabled: boolean;
  /**
   * Connects and makes sure the topics exist; after a failed publish, starts afresh. Throws when
   * the broker cannot be reached.
   */
  abstract connect(topics: string[]): Promise<void>;
  /**
   * Resolves only when every message is acknowledged by all in-sync replicas. Publishes may be
   * asked for before the ones before them are acknowledged: they reach the broker in the order
   * asked, and once one fails, every later one fails without being tried until connect() is
   * called again, so nothing reaches the broker past a gap.
   */
  abstract publish(topic: string, messages: OutgoingMessage[]): Promise<void>;
  /**
   * Makes sure topics first met while publishing exist (a platform's private events topic), in
   * order with the publishes: those asked for after it wait for it. Does not reset a failure.
   */
  abstract prepareTopics(topics: string[]): Promise<void>;
  abstract status(): PublisherStatus;
  abstract disconnect(): Promise<void>;
}

/** Used when KAFKA_BROKERS is not set: events stay in the outbox until a broker is configured. */
export class DisabledEventPublisher extends EventPublisher {
  readonly enabled = false;
  async connect(): Promise<void> {}
  async publish(): Promise<void> {
    throw new Error('Kafka publishing is switched off (KAFKA_BROKERS is not set)');
  }
  async prepareTopics(): Promise<void> {}
  status(): PublisherStatus {
    return { enabled: false, connected: false };
  }
  async disconnect(): Promise<void> {}
}
