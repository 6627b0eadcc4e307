import { BOT_DIFFICULTIES, BotDifficulty } from '@studio/games/blackjack';
import { ConfigError } from '../../common/config-error';

export interface PracticeBot {
  seat: number;
  level: BotDifficulty;
}

export const DEFAULT_PRACTICE_BOTS: readonly PracticeBot[] = [
  { seat: 1, level: 'easy' },
  { seat: 2, level: 'hard' },
];

/** A bot stakes one virtual unit (100 minor units of XPT) a round. */
export const BOT_STAKE = 100;

/** The bots of a practice table from its `rules.bots`; a bad list is a configuration error. */
export function parseBots(raw: unknown): PracticeBot[] {
  if (raw === undefined) return DEFAULT_PRACTICE_BOTS.map((b) => ({ ...b }));
  const problem = (why: string) =>
    new ConfigError(
      `practice table "rules.bots" ${why}; expected e.g. [{"seat": 1, "level": "hard"}] (levels: ${BOT_DIFFICULTIES.join(', ')})`,
    );
  if (!Array.isArray(raw)) throw problem('must be a list');
  const seen = new Set<number>();
  return raw.map((entry: unknown) => {
    const b = (entry ?? {}) as Record<string, unknown>;
    const seat = b.seat;
    if (typeof seat !== 'number' || !Number.isInteger(seat) || seat < 1 || seat > 7) {
      throw problem(`has a seat ${JSON.stringify(seat)} outside 1-7`);
    }
    if (seen.has(seat)) throw problem(`names seat ${seat} twice`);
    seen.add(seat);
    if (!(BOT_DIFFICULTIES as readonly unknown[]).includes(b.level)) {
      throw problem(`has an unknown level ${JSON.stringify(b.level)}`);
    }
    return { seat, level: b.level as BotDifficulty };
  });
}
