import type { KafkaConfig as KafkajsConfig, SASLOptions } from 'kafkajs';
import { readFileSync } from 'node:fs';
import type { KafkaConfig } from '../config/studio-config';

/**
 * The connection settings every Kafka client of the service shares (outbox producer, command
 * consumer, results producer): brokers, TLS and SASL/SCRAM from the configuration.
 */
export function kafkaConnection(
  config: KafkaConfig,
): Pick<KafkajsConfig, 'brokers' | 'ssl' | 'sasl' | 'connectionTimeout'> {
  return {
    brokers: config.brokers,
    connectionTimeout: config.connectTimeoutMs,
    ...(config.tls
      ? {
          ssl: {
            rejectUnauthorized: config.tls.rejectUnauthorized,
            ...(config.tls.caFile ? { ca: [readFileSync(config.tls.caFile, 'utf8')] } : {}),
          },
        }
      : {}),
    ...(config.sasl
      ? {
          sasl: {
            mechanism: config.sasl.mechanism,
            username: config.sasl.username,
            password: config.sasl.password,
          } as SASLOptions,
        }
      : {}),
  };
}
