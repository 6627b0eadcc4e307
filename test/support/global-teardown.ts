import { TEST_KAFKA_HOME, TEST_KAFKA_PORT } from './environment';
import { KafkaBroker } from './kafka-broker';

export default async function globalTeardown(): Promise<void> {
  if (!process.env.TEST_KAFKA_BROKERS) {
    await new KafkaBroker(TEST_KAFKA_PORT, TEST_KAFKA_HOME).stop();
  }
}
