import { PlatformTopics } from './platform-topics';

describe('platform topics', () => {
  const topics = new PlatformTopics('prod.');

  it('names the platform of a commands topic: v1 serves `default`, other topics none', () => {
    expect(topics.platformOfCommandTopic('prod.studio.platform-commands.v1')).toBe('default');
    expect(topics.platformOfCommandTopic('prod.studio.platform.casino-a.commands.v2')).toBe(
      'casino-a',
    );
    expect(topics.platformOfCommandTopic('prod.studio.platform.casino-a.results.v2')).toBeNull();
    expect(topics.platformOfCommandTopic('studio.platform.casino-a.commands.v2')).toBeNull();
    expect(topics.platformOfCommandTopic('prod.studio.platform.a.b.commands.v2')).toBeNull();
    expect(topics.platformOfCommandTopic('prodxstudio.platform.casino-a.commands.v2')).toBeNull();
  });

  it('answers on the results topic of the way the command came', () => {
    expect(topics.resultsTopicFor('prod.studio.platform-commands.v1')).toBe(
      'prod.studio.command-results.v1',
    );
    expect(topics.resultsTopicFor('prod.studio.platform.casino-b.commands.v2')).toBe(
      'prod.studio.platform.casino-b.results.v2',
    );
  });

  it("dead-letters a platform's unreadable command to that platform's own topic, v1's to v1's", () => {
    expect(topics.deadLettersTopicFor('prod.studio.platform.casino-b.commands.v2')).toBe(
      'prod.studio.platform.casino-b.dead-letters.v2',
    );
    expect(topics.deadLettersTopicFor('prod.studio.platform-commands.v1')).toBe(
      'prod.studio.platform-commands.dead-letter.v1',
    );
  });

  it('names the shared and the private events topics', () => {
    expect(topics.sharedEvents).toBe('prod.studio.table-events.v2');
    expect(topics.eventsTopic('casino-a')).toBe('prod.studio.platform.casino-a.events.v2');
    expect(topics.v1Events).toBe('prod.studio.table-events.v1');
  });
});
