import { Logger } from '@nestjs/common';
import { LogEntry, logLevel } from 'kafkajs';

/**
 * kafkajs log lines through the service's logger. kafkajs reports every failed response and
 * connection at ERROR (a coordinator not ready yet at start-up, a heartbeat refused while the group
 * rebalances during a rolling restart, a broker restarting) although its consumer retries them
 * itself: those become warnings, so that an error line means an error an operator must look at (a
 * consumer crash, retries exhausted).
 */
export function kafkaLogCreator(context: string) {
  const logger = new Logger(context);
  return () =>
    ({ namespace, level, log }: LogEntry): void => {
      const { message, ...extra } = log;
      const line = `kafkajs ${namespace}: ${String(message)} ${JSON.stringify(extra)}`;
      if (level === logLevel.ERROR && namespace !== 'Connection') logger.error(line);
      else if (level <= logLevel.WARN) logger.warn(line);
      else if (level === logLevel.INFO) logger.log(line);
      else logger.debug(line);
    };
}
