import { Logger } from '@nestjs/common';
import { LogEntry, logLevel } from 'kafkajs';

/** Where a Kafka client's log lines go: the service's logger, or a worker's link to it. */
export interface KafkaLogSink {
  error(line: string): void;
  warn(line: string): void;
  log(line: string): void;
  debug(line: string): void;
}

/**
 * How a client's kafkajs lines are weighed. kafkajs reports every failed response and connection
 * at ERROR (a coordinator not ready yet at start-up, a heartbeat refused while the group
 * rebalances, a broker restarting) although it retries them itself; what an operator must look at
 * is an error line, so a client says which of kafkajs' errors are its errors.
 */
export interface KafkaLogPolicy {
  /**
   * `consumer-crash`: errors stay errors except connection-level ones (retried by the consumer);
   * `warnings`: every line is a warning, because the caller retries and reports the failures
   * that matter itself (the relay from its outbox, the intake by reading its batch again).
   */
  errors: 'consumer-crash' | 'warnings';
  /** Lines that describe what the caller does on purpose: dropped. */
  expected?: RegExp;
}

/** kafkajs log lines through the service's logger (a sink), weighed by the client's policy. */
export function kafkaLogCreator(sink: KafkaLogSink | string, policy: KafkaLogPolicy) {
  const to = typeof sink === 'string' ? new Logger(sink) : sink;
  return () =>
    ({ namespace, level, log }: LogEntry): void => {
      // The service's logger stamps its own time; kafkajs' timestamp and logger name are noise.
      const { message, timestamp: _at, logger: _by, ...extra } = log;
      if (policy.expected?.test(String(message))) return;
      const line = `kafkajs ${namespace}: ${String(message)} ${JSON.stringify(extra)}`;
      if (policy.errors === 'warnings' && level <= logLevel.WARN) to.warn(line);
      else if (level === logLevel.ERROR && namespace !== 'Connection') to.error(line);
      else if (level <= logLevel.WARN) to.warn(line);
      else if (level === logLevel.INFO) to.log(line);
      else to.debug(line);
    };
}

/** A sink that reports every line as a warning through one function (a worker's message port). */
export function warningSink(warn: (line: string) => void): KafkaLogSink {
  return { error: warn, warn, log: warn, debug: warn };
}
