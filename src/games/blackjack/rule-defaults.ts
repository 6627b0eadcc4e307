import { BLACKJACK_RULES, BlackjackVariant } from '@studio/games/blackjack';

/** The blackjack rules a table's `rules` may override (the variant is the game's own). */
export function blackjackRuleDefaults(variant: BlackjackVariant): Record<string, unknown> {
  const rules: Record<string, unknown> = { ...BLACKJACK_RULES[variant] };
  delete rules.variant;
  return rules;
}
