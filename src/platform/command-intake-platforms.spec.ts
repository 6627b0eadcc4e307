import type { CommandMessage } from '@studio/contracts';
import type { Clock, IdGenerator } from '../clock/clock';
import { PlatformTopics } from '../kafka/platform-topics';
import type { RawCommandMessage } from '../kafka/raw-command-message';
import { ApplyCommands } from '../use-cases/apply-commands/apply-commands.use-case';
import type { Tables } from '../use-cases/common/tables.port';
import { CommandApplier } from './command-applier';
import { CommandIntake } from './command-intake';
import type { CommandInbox } from './inbox/command-inbox';
import { platformCommandOf } from './command-applier';
import { PlatformCurrencies } from './platform-currencies';
import { PlaceBetCommand } from '../use-cases/place-bet/place-bet.command';
import { isRejection } from '../use-cases/common/table-command';

/** Every table is driven elsewhere: the intake stores each command as read, platform included. */
function forwardingIntake(prefix = '', currencies?: PlatformCurrencies) {
  const stored: Array<
    CommandMessage & { platformId?: string; platformCurrencies?: readonly string[] }
  > = [];
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
    currencies,
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

  it("keys each command id by the topic's platform: the same id on two topics is two commands", async () => {
    const { intake, stored } = forwardingIntake();
    await intake.processBatch([
      raw('studio.platform.casino-a.commands.v2', bet({ commandId: 'same' })),
      raw('studio.platform.casino-b.commands.v2', bet({ commandId: 'same' })),
      raw('studio.platform-commands.v1', bet({ commandId: 'same' })),
    ]);
    const keys = stored.map((message) => {
      const command = platformCommandOf(message);
      if (isRejection(command) || !(command instanceof PlaceBetCommand)) throw new Error('no bet');
      const item = command.toItem({ currencies: ['EUR'] }, 'bet-1');
      if (!('item' in item)) throw new Error(item.message);
      return [
        item.item.meta.commandId,
        (item.item.input as { bet: { commandId: string } }).bet.commandId,
      ];
    });
    expect(keys).toEqual([
      ['casino-a:same', 'casino-a:same'],
      ['casino-b:same', 'casino-b:same'],
      ['same', 'same'],
    ]);
  });
});

describe("command intake: a platform's currencies", () => {
  const registry = new PlatformCurrencies({
    listActive: async () => [
      { id: 'casino-th', name: 'TH', currencies: ['THB'], status: 'active' as const },
    ],
  });

  it('stamps the currencies of the platform on its commands, and the owner checks the bet in them', async () => {
    const { intake, stored } = forwardingIntake('', registry);
    await intake.processBatch([
      raw('studio.platform.casino-th.commands.v2', bet({ commandId: 'named', currency: 'EUR' })),
      raw('studio.platform.casino-th.commands.v2', bet({ commandId: 'omitted' })),
      raw('studio.platform.casino-x.commands.v2', bet({ commandId: 'unknown', currency: 'EUR' })),
    ]);
    expect(stored.map((c) => [c.commandId, c.platformCurrencies])).toEqual([
      ['named', ['THB']],
      ['omitted', ['THB']],
      ['unknown', undefined],
    ]);
    // What the table's owner makes of them, at a table of EUR (its default) and THB.
    const table = { currencies: ['EUR', 'THB'] };
    const items = stored.map((message) => {
      const command = platformCommandOf(message);
      if (isRejection(command) || !(command instanceof PlaceBetCommand)) throw new Error('no bet');
      const item = command.toItem(table, 'bet-1');
      return 'item' in item
        ? ((item.item.input as { bet: { currency?: string } }).bet.currency ?? 'EUR')
        : item.code;
    });
    expect(items).toEqual(['currency-not-used-by-platform', 'THB', 'EUR']);
  });
});

describe('command intake: a suspended or unknown platform', () => {
  const platforms = [
    { id: 'casino-a', name: 'A', currencies: ['EUR'], status: 'active' as const },
    { id: 'casino-s', name: 'S', currencies: ['EUR'], status: 'suspended' as const },
  ];
  const registry = new PlatformCurrencies({
    listActive: async () => platforms.filter((p) => p.status === 'active'),
    get: async (id: string) => platforms.find((p) => p.id === id),
  });

  it('answers platform-suspended (nothing applied) on a suspended platform’s topic, as HTTP does', async () => {
    const { intake, stored } = forwardingIntake('', registry);
    const outcomes = await intake.processBatch([
      raw('studio.platform.casino-s.commands.v2', bet({ commandId: 's1' })),
      raw('studio.platform.ghost.commands.v2', bet({ commandId: 'g1' })),
      raw('studio.platform.casino-a.commands.v2', bet({ commandId: 'a1' })),
    ]);
    expect(stored.map((c) => c.commandId)).toEqual(['a1']);
    expect(outcomes[0]).toEqual(
      expect.objectContaining({
        kind: 'answered',
        result: expect.objectContaining({ status: 'rejected', code: 'platform-suspended' }),
      }),
    );
    expect(outcomes[1]).toEqual(
      expect.objectContaining({
        kind: 'answered',
        result: expect.objectContaining({ status: 'rejected', code: 'unknown-platform' }),
      }),
    );
    expect(outcomes[2].kind).toBe('forwarded');
  });
});
