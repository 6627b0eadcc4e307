import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudioConfig } from '../config/studio-config';
import { kafkaConnection } from './kafka-connection';

function config(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'kafka-config-'));
  const tables = join(dir, 'tables.json');
  writeFileSync(
    tables,
    JSON.stringify([{ id: 'ibj-1', name: 'IBJ', game: 'infinite-blackjack', currency: 'EUR' }]),
  );
  return loadStudioConfig({ TABLES_FILE: tables, KAFKA_BROKERS: 'k1:9093', ...env });
}

describe('Kafka link security settings', () => {
  it('default to plaintext without SASL, with the command intake on', () => {
    const kafka = config({}).kafka!;
    expect(kafkaConnection(kafka)).toEqual({ brokers: ['k1:9093'], connectionTimeout: 5000 });
    expect(kafka.commands).toMatchObject({ enabled: true, groupId: 'live-dealer-studio-commands' });
  });

  it('pass SCRAM credentials and TLS with a CA file to every client', () => {
    const ca = join(mkdtempSync(join(tmpdir(), 'kafka-ca-')), 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n');
    const kafka = config({
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'studio',
      KAFKA_SASL_PASSWORD: 's3cret',
      KAFKA_TLS_CA_FILE: ca,
      KAFKA_COMMAND_GROUP_ID: 'floor-2',
    }).kafka!;
    expect(kafkaConnection(kafka)).toEqual({
      brokers: ['k1:9093'],
      connectionTimeout: 5000,
      ssl: { rejectUnauthorized: true, ca: [expect.stringContaining('BEGIN CERTIFICATE')] },
      sasl: { mechanism: 'scram-sha-512', username: 'studio', password: 's3cret' },
    });
    expect(kafka.commands.groupId).toBe('floor-2');
  });

  it('refuse a SASL mechanism without credentials, naming the variables', () => {
    expect(() => config({ KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toThrow(
      /KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD are required/,
    );
    expect(() => config({ KAFKA_SASL_MECHANISM: 'kerberos' })).toThrow(/KAFKA_SASL_MECHANISM/);
  });
});
