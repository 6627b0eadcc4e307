import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planAsCommands, platformKafkaPlan } from './platform-kafka-plan';

const settings = { topicPrefix: 'prod.', commandPartitions: 6, eventPartitions: 6 };

describe("a platform's Kafka set-up", () => {
  it('gives the platform its own topics and nothing of another platform', () => {
    const plan = platformKafkaPlan('casino-a', settings);
    expect(plan.principal).toBe('User:platform-casino-a');
    expect(plan.topics.map((t) => t.topic)).toEqual([
      'prod.studio.platform.casino-a.commands.v2',
      'prod.studio.platform.casino-a.results.v2',
      'prod.studio.platform.casino-a.events.v2',
      'prod.studio.platform.casino-a.dead-letters.v2',
      'prod.studio.table-events.v2',
    ]);
    expect(plan.acls).toEqual([
      expect.objectContaining({
        name: 'prod.studio.platform.casino-a.commands.v2',
        operations: ['write', 'describe'],
      }),
      expect.objectContaining({
        name: 'prod.studio.platform.casino-a.results.v2',
        operations: ['read', 'describe'],
      }),
      expect.objectContaining({
        name: 'prod.studio.platform.casino-a.events.v2',
        operations: ['read', 'describe'],
      }),
      // Its own commands that could not be read, its players' bets as sent: its own topic.
      expect.objectContaining({
        name: 'prod.studio.platform.casino-a.dead-letters.v2',
        operations: ['read', 'describe'],
      }),
      expect.objectContaining({
        name: 'prod.studio.table-events.v2',
        operations: ['read', 'describe'],
      }),
      { resourceType: 'group', pattern: 'prefixed', name: 'casino-a.', operations: ['read'] },
    ]);
    // Every topic ACL is literal: no prefix that another platform's names could fall under.
    expect(plan.acls.filter((a) => a.resourceType === 'topic' && a.pattern !== 'literal')).toEqual(
      [],
    );
    expect(plan.acls.some((a) => a.name.includes('v1'))).toBe(false);
  });

  it('keeps the v1 topics for the default platform only', () => {
    const names = platformKafkaPlan('default', settings).acls.map((a) => a.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'prod.studio.platform-commands.v1',
        'prod.studio.command-results.v1',
        'prod.studio.table-events.v1',
      ]),
    );
  });

  it('refuses an id that is not a platform id (it would reach into other topic names)', () => {
    expect(() => platformKafkaPlan('a.b', settings)).toThrow(/not a platform id/);
    expect(() => platformKafkaPlan('*', settings)).toThrow(/not a platform id/);
  });

  it('prints the same set-up as kafka-acls and kafka-topics commands', () => {
    const lines = planAsCommands(platformKafkaPlan('casino-b', settings), 'k1:9092');
    expect(lines).toContain(
      'kafka-acls --bootstrap-server k1:9092 --command-config <admin.properties> --add ' +
        '--allow-principal User:platform-casino-b --operation Write --operation Describe ' +
        '--topic prod.studio.platform.casino-b.commands.v2',
    );
    expect(lines).toContain(
      'kafka-acls --bootstrap-server k1:9092 --command-config <admin.properties> --add ' +
        '--allow-principal User:platform-casino-b --operation Read --group casino-b. ' +
        '--resource-pattern-type prefixed',
    );
    expect(lines.filter((l) => l.startsWith('kafka-topics'))).toHaveLength(5);
    expect(lines.filter((l) => l.startsWith('kafka-acls'))).toHaveLength(6);
    // The quotas the contract page asks for, all three (request_percentage was left out).
    const contract = readFileSync(join(__dirname, '../../docs/kafka-contract.md'), 'utf8');
    const documented = /--add-config '(producer_byte_rate=[^']*)'/.exec(contract)![1];
    expect(documented).toContain('request_percentage=25');
    expect(lines).toContain(
      'kafka-configs --bootstrap-server k1:9092 --command-config <admin.properties> --alter ' +
        `--entity-type users --entity-name platform-casino-b --add-config '${documented}'`,
    );
  });
});
