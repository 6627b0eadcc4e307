import {
  ACE,
  Composition,
  evaluateStartingHand,
  fullShoe,
  HandEvaluator,
  PlayPolicy,
  RootAction,
  StartingHandValues,
  startingHandWeight,
  TEN,
} from './ev';
import { rulesLabel, StrategyRules } from './rules';

/**
 * A basic-strategy table keyed by hard total, soft total or pair and the dealer's up card.
 * Codes: S stand, H hit, Dh double else hit, Ds double else stand, P split,
 * Rh / Rs / Rp surrender else hit / stand / split.
 */
export type StrategyCode = 'S' | 'H' | 'Dh' | 'Ds' | 'P' | 'Rh' | 'Rs' | 'Rp';

/** Column order of every row: dealer up card 2, 3, 4, 5, 6, 7, 8, 9, ten-value, ace. */
export const UP_COLUMNS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'A'] as const;

export type PairKey = 'A' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'T';

export interface StrategyTable {
  readonly label: string;
  readonly rules: StrategyRules;
  /** Hard totals 4..21. */
  readonly hard: Readonly<Record<number, readonly StrategyCode[]>>;
  /** Soft totals 12..21. */
  readonly soft: Readonly<Record<number, readonly StrategyCode[]>>;
  /** Pairs by card value ('T' = any two ten-value cards). */
  readonly pairs: Readonly<Record<PairKey, readonly StrategyCode[]>>;
}

/** Column of an up card value index (0 = ace, 9 = ten-value). */
export function upColumn(upIndex: number): number {
  return upIndex === ACE ? 9 : upIndex - 1;
}

export function pairKey(index: number): PairKey {
  return index === ACE ? 'A' : index === TEN ? 'T' : (String(index + 1) as PairKey);
}

/** Picks the table code for aggregated first-decision values. */
export function codeFor(values: Partial<Record<RootAction, number>>): StrategyCode {
  const ranked = (Object.entries(values) as [RootAction, number][]).sort((a, b) => b[1] - a[1]);
  const best = ranked[0][0];
  const next = (exclude: RootAction[]): RootAction =>
    ranked.find(([a]) => !exclude.includes(a))![0];
  switch (best) {
    case 'stand':
      return 'S';
    case 'hit':
      return 'H';
    case 'split':
      return 'P';
    case 'double':
      return (values.stand ?? -Infinity) > (values.hit ?? -Infinity) ? 'Ds' : 'Dh';
    case 'surrender': {
      const fallback = next(['surrender', 'double']);
      return fallback === 'split' ? 'Rp' : fallback === 'stand' ? 'Rs' : 'Rh';
    }
  }
}

export interface GeneratedStrategy {
  readonly table: StrategyTable;
  /** Expected main-game value per unit when the first decision follows the table. */
  readonly tableReturn: number;
  /** Expected main-game value per unit with the best first decision for every composition. */
  readonly compositionReturn: number;
  /**
   * Expected main-game value per unit when the table is followed at every decision (what the
   * simulator and the bots play); only computed when asked for.
   */
  readonly playedReturn?: number;
  /** Every starting hand's values, for inspection and tests. */
  readonly hands: readonly (StartingHandValues & { weight: number })[];
}

/** Computes the basic strategy of a rules variant from expected values. Takes a few seconds. */
export function generateStrategy(
  rules: StrategyRules,
  options: { played?: boolean } = {},
): GeneratedStrategy {
  const shoe = fullShoe(rules.decks);
  const hands: (StartingHandValues & { weight: number })[] = [];
  for (let up = 0; up < 10; up += 1) {
    const evaluator = new HandEvaluator(rules, up);
    for (let a = 0; a < 10; a += 1) {
      for (let b = a; b < 10; b += 1) {
        const weight = startingHandWeight(shoe, a, b, up);
        hands.push({ ...evaluateStartingHand(rules, shoe, a, b, up, evaluator), weight });
      }
    }
  }

  const hard: Record<number, StrategyCode[]> = {};
  const soft: Record<number, StrategyCode[]> = {};
  const pairs = {} as Record<PairKey, StrategyCode[]>;
  const aggregate = (
    select: (h: StartingHandValues) => boolean,
    up: number,
  ): Partial<Record<RootAction, number>> => {
    const sum: Partial<Record<RootAction, number>> = {};
    for (const h of hands) {
      if (h.upIndex !== up || !select(h)) continue;
      for (const [action, v] of Object.entries(h.values) as [RootAction, number][]) {
        if (action === 'split') continue;
        sum[action] = (sum[action] ?? 0) + v * h.weight;
      }
    }
    return sum;
  };
  const ups = UP_COLUMNS.map((_, col) => (col === 9 ? ACE : col + 1));
  for (let total = 4; total <= 21; total += 1) {
    hard[total] = ups.map((up) => {
      if (total === 21) return 'S';
      const isHard = (h: StartingHandValues): boolean =>
        h.firstIndex !== ACE && h.secondIndex !== ACE && h.firstIndex + h.secondIndex + 2 === total;
      const nonPair = (h: StartingHandValues): boolean =>
        isHard(h) && h.firstIndex !== h.secondIndex;
      const values = aggregate(hands.some((h) => nonPair(h)) ? nonPair : isHard, up);
      return codeFor(values);
    });
  }
  for (let total = 12; total <= 21; total += 1) {
    soft[total] = ups.map((up) => {
      if (total === 21) return 'S';
      const isSoft = (h: StartingHandValues): boolean =>
        (h.firstIndex === ACE || h.secondIndex === ACE) &&
        h.firstIndex + h.secondIndex + 12 === total;
      return codeFor(aggregate(isSoft, up));
    });
  }
  for (let p = 0; p < 10; p += 1) {
    pairs[pairKey(p)] = ups.map((up) => {
      const h = hands.find((x) => x.upIndex === up && x.firstIndex === p && x.secondIndex === p)!;
      return codeFor(h.values);
    });
  }
  const table: StrategyTable = { label: rulesLabel(rules), rules, hard, soft, pairs };

  let tableReturn = 0;
  let compositionReturn = 0;
  for (const h of hands) {
    const best = Math.max(...Object.values(h.values));
    compositionReturn += h.weight * best;
    const action = h.blackjack ? 'stand' : rootActionOf(table, h);
    tableReturn += h.weight * h.values[action]!;
  }
  const playedReturn = options.played ? playedReturnOf(table, shoe) : undefined;
  return { table, tableReturn, compositionReturn, playedReturn, hands };
}

/** Reads the table by total for the decisions after the first one. */
export function tablePolicy(table: StrategyTable, upIndex: number): PlayPolicy {
  const col = upColumn(upIndex);
  return (total, soft, mayDouble) => {
    const code = soft ? table.soft[total][col] : table.hard[Math.max(4, total)][col];
    switch (code) {
      case 'Dh':
        return mayDouble ? 'double' : 'hit';
      case 'Ds':
        return mayDouble ? 'double' : 'stand';
      case 'H':
      case 'Rh':
        return 'hit';
      default:
        return 'stand';
    }
  };
}

/** The main game's value when every decision follows the table (second pass, same method). */
export function playedReturnOf(table: StrategyTable, shoe: Composition): number {
  let total = 0;
  for (let up = 0; up < 10; up += 1) {
    const evaluator = new HandEvaluator(table.rules, up, tablePolicy(table, up));
    for (let a = 0; a < 10; a += 1) {
      for (let b = a; b < 10; b += 1) {
        const h = evaluateStartingHand(table.rules, shoe, a, b, up, evaluator);
        const action = h.blackjack ? 'stand' : rootActionOf(table, h);
        total += startingHandWeight(shoe, a, b, up) * h.values[action]!;
      }
    }
  }
  return total;
}

/** The first decision the table takes for a starting hand when every action is available. */
export function rootActionOf(table: StrategyTable, h: StartingHandValues): RootAction {
  const col = upColumn(h.upIndex);
  let code: StrategyCode;
  if (h.firstIndex === h.secondIndex && table.rules.maxHands >= 2) {
    code = table.pairs[pairKey(h.firstIndex)][col];
  } else if (h.firstIndex === ACE || h.secondIndex === ACE) {
    code = table.soft[h.firstIndex + h.secondIndex + 12][col];
  } else {
    code = table.hard[h.firstIndex + h.secondIndex + 2][col];
  }
  switch (code) {
    case 'S':
      return 'stand';
    case 'H':
      return 'hit';
    case 'Dh':
    case 'Ds':
      return 'double';
    case 'P':
      return 'split';
    default:
      return 'surrender';
  }
}

/** Renders a table as TypeScript source for the generated data file. */
export function tableSource(
  constName: string,
  generated: GeneratedStrategy,
  generator: string,
): string {
  const { table } = generated;
  const row = (codes: readonly StrategyCode[]): string =>
    `[${codes.map((c) => `'${c}'`).join(', ')}]`;
  const lines: string[] = [];
  lines.push(`// GENERATED by ${generator} - do not edit by hand.`);
  lines.push(`// Rules: ${table.label}`);
  lines.push(
    `// Expected return of the main game with this table at the first decision: ${(100 * (1 + generated.tableReturn)).toFixed(4)}%`,
  );
  lines.push(`import { StrategyTable } from '../table';`);
  lines.push('');
  lines.push(`// Columns: dealer up card ${UP_COLUMNS.join(' ')}`);
  lines.push(`export const ${constName}: StrategyTable = {`);
  lines.push(`  label: '${table.label}',`);
  lines.push(`  rules: ${JSON.stringify(table.rules)},`);
  lines.push('  hard: {');
  for (const [k, v] of Object.entries(table.hard)) lines.push(`    ${k}: ${row(v)},`);
  lines.push('  },');
  lines.push('  soft: {');
  for (const [k, v] of Object.entries(table.soft)) lines.push(`    ${k}: ${row(v)},`);
  lines.push('  },');
  lines.push('  pairs: {');
  for (const [k, v] of Object.entries(table.pairs)) lines.push(`    '${k}': ${row(v)},`);
  lines.push('  },');
  lines.push('};');
  return lines.join('\n') + '\n';
}
