import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Kafka,
  ResourcePatternTypes,
} from 'kafkajs';
import { ensureKafkaTopics } from '../kafka/kafka-topics';
import type { PlatformAcl, PlatformKafkaPlan } from './platform-kafka-plan';

const OPERATIONS = {
  read: AclOperationTypes.READ,
  write: AclOperationTypes.WRITE,
  describe: AclOperationTypes.DESCRIBE,
} as const;

/**
 * Applies a platform's plan through the Kafka admin API (as a principal allowed to create topics
 * and ACLs: the studio's): its topics made when missing, its ACLs added (adding one that exists
 * changes nothing). Returns the topics it made.
 */
export async function applyPlatformKafkaPlan(
  kafka: Kafka,
  plan: PlatformKafkaPlan,
): Promise<string[]> {
  const created = await ensureKafkaTopics(kafka, plan.topics);
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createAcls({ acl: plan.acls.flatMap((acl) => aclEntries(plan.principal, acl)) });
  } finally {
    await admin.disconnect();
  }
  return created;
}

function aclEntries(principal: string, acl: PlatformAcl) {
  return acl.operations.map((op) => ({
    resourceType: acl.resourceType === 'topic' ? AclResourceTypes.TOPIC : AclResourceTypes.GROUP,
    resourceName: acl.name,
    resourcePatternType:
      acl.pattern === 'literal' ? ResourcePatternTypes.LITERAL : ResourcePatternTypes.PREFIXED,
    principal,
    host: '*',
    operation: OPERATIONS[op],
    permissionType: AclPermissionTypes.ALLOW,
  }));
}
