// Exits 0 when a Kafka broker at the given address answers metadata requests, 1 otherwise.
const { Kafka, logLevel } = require('kafkajs');

const broker = process.argv[2] || '127.0.0.1:19092';
const kafka = new Kafka({
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
