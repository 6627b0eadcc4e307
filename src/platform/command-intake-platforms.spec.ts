import type { CommandMessage } from '@studio/contracts';
import type { Clock, IdGenerator } from '../clock/clock';
import { PlatformTopics } from '../kafka/platform-topics';
import type { RawCommandMessage } from '../kafka/raw-command-message';
import { ApplyCommands } from '../use-cases/apply-commands/apply-commands.use-case';
import type { Tables } from '../use-cases/common/tables.port';
import { CommandApplier } from './command-applier';
import { CommandIntake } from './command-intake';
import type { CommandInbox } from './inbox/command-inbox';

/** Every table is driven elsewhere: the intake stores each command as read, platform included. */
function forwardingIntake(prefix = '') {
  const stored: Array<CommandMessage & { platformId?: string }> = [];
  const inbox = {
    route: () => 'inbox',
    forwardKafka: async (entries: Array<{ message: CommandMessage }>) => {
      stored.push(...entries.map((e) => e.message));
    },
  } as unknown as CommandInbox;
  const clock: Clock = { now: () => new Date('2026-12-02T04:00:00Z') };
  const ids: IdGenerator = { newId: () => 'id' };
  const intake = new CommandIntake(
    new CommandApplier(new ApplyCommands({} as Tables, ids)),
    inbox,
    clock,
    new PlatformTopics(prefix),
  );
  return { intake, stored };
}

const bet = (extra: Record<string, unknown> = {}) => ({
  commandId: 'c1',
  type: 'PlaceBet',
  schemaVersion: 1,
  tableId: 'ibj-1',
  playerId: 'p-123',
  betType: 'main',
  amount: 500,
  ...extra,
});

const raw = (topic: string, value: unknown): RawCommandMessage => ({
  topic,
  partition: 0,
  offset: '1',
  key: 'ibj-1',
  value: Buffer.from(JSON.stringify(value)),
});

describe('command intake: the topic names the platform', () => {
  it("sets platformId from a platform's commands topic, and `default` for the v1 topic", async () => {
    const { intake, stored } = forwardingIntake('test.');
    const outcomes = await intake.processBatch([
      raw('test.studio.platform.casino-b.commands.v2', bet({ commandId: 'b' })),
      raw('test.studio.platform-commands.v1', bet({ commandId: 'v1' })),
      raw('test.studio.platform.casino-a.commands.v2', bet({ commandId: 'a' })),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(['forwarded', 'forwarded', 'forwarded']);
    expect(stored.map((c) => [c.commandId, c.playerId, c.platformId])).toEqual([
      ['b', 'p-123', 'casino-b'],
      ['v1', 'p-123', 'default'],
      ['a', 'p-123', 'casino-a'],
    ]);
  });

  it("refuses a command that names a platform itself: on A's topic it cannot speak for B", async () => {
    const { intake, stored } = forwardingIntake();
    const [outcome] = await intake.processBatch([
      raw('studio.platform.casino-a.commands.v2', bet({ platformId: 'casino-b' })),
    ]);
    expect(outcome).toEqual(
      expect.objectContaining({ kind: 'dead-letter', code: 'schema-violation' }),
    );
    expect(outcome.kind === 'dead-letter' && outcome.reason).toMatch(/platformId/);
    expect(stored).toEqual([]);
  });
});
