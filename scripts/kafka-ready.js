// Exits 0 when a Kafka broker at the given address answers metadata requests, 1 otherwise.
// KAFKA_READY_SASL=user:password signs in with SCRAM-SHA-256 (the broker's SASL mode).
const { Kafka, logLevel } = require('kafkajs');

const broker = process.argv[2] || '127.0.0.1:19092';
const sasl = process.env.KAFKA_READY_SASL;
const kafka = new Kafka({
  ...(sasl
    ? {
        sasl: {
          mechanism: 'scram-sha-256',
          username: sasl.slice(0, sasl.indexOf(':')),
          password: sasl.slice(sasl.indexOf(':') + 1),
        },
      }
    : {}),
  clientId: 'studio-kafka-ready',
  brokers: [broker],
  logLevel: logLevel.NOTHING,
  connectionTimeout: 1000,
  retry: { retries: 0 },
});
const admin = kafka.admin();
admin
  .connect()
  .then(() => admin.describeCluster())
  .then((cluster) => admin.disconnect().then(() => cluster))
  .then((cluster) => {
    if (!cluster.brokers.length) process.exit(1);
    process.exit(0);
  })
  .catch(() => process.exit(1));
