/**
 * A table's `rules` (tables file) override the game's default rules key by key, shallowly: a
 * value replaces the default whole. So each override must have its default's shape, or the engine
 * meets what it cannot play mid-round: `{"payouts": {"pair": {"a": 15, "b": 1}}}` replaced every
 * Pok Deng payout by that one, and the table's first round failed for good ("Cannot read
 * properties of undefined"), as did a rule name spelt wrong, silently kept at its default.
 */
export function ruleOverrideProblem(
  rules: Readonly<Record<string, unknown>>,
  defaults: Readonly<Record<string, unknown>>,
  /** Rules the adapter reads and checks itself (e.g. the practice table's bots). */
  extras: readonly string[] = [],
): string | undefined {
  for (const [key, value] of Object.entries(rules)) {
    if (extras.includes(key)) continue;
    if (!Object.hasOwn(defaults, key)) {
      return `"rules.${key}" is not a rule of this game (rules: ${[...Object.keys(defaults), ...extras].join(', ')})`;
    }
    const problem = shapeProblem(value, defaults[key], `rules.${key}`);
    if (problem) return problem;
  }
  return undefined;
}

function shapeProblem(value: unknown, model: unknown, path: string): string | undefined {
  if (typeof model === 'number') return numberProblem(value, model, path);
  if (typeof model === 'boolean' || typeof model === 'string') {
    return typeof value === typeof model
      ? undefined
      : `"${path}" must be a ${typeof model}, as its default ${JSON.stringify(model)} (got ${JSON.stringify(value)})`;
  }
  if (Array.isArray(model)) return listProblem(value, model, path);
  if (typeof model === 'object' && model !== null) {
    return objectProblem(value, model as Record<string, unknown>, path);
  }
  return undefined;
}

function numberProblem(value: unknown, model: number, path: string): string | undefined {
  const got = JSON.stringify(value);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    return `"${path}" must be a number of at least 0, as its default ${model} (got ${got})`;
  }
  if (Number.isInteger(model) && !Number.isInteger(value)) {
    return `"${path}" must be a whole number, as its default ${model} (got ${got})`;
  }
  return undefined;
}

function listProblem(value: unknown, model: readonly unknown[], path: string): string | undefined {
  if (!Array.isArray(value)) {
    return `"${path}" must be a list, as its default ${JSON.stringify(model)} (got ${JSON.stringify(value)})`;
  }
  if (model.length === 0) return undefined;
  for (const [i, item] of value.entries()) {
    const problem = shapeProblem(item, model[0], `${path}[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

function objectProblem(
  value: unknown,
  model: Record<string, unknown>,
  path: string,
): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `"${path}" must be an object like its default ${JSON.stringify(model)} (got ${JSON.stringify(value)})`;
  }
  const given = value as Record<string, unknown>;
  const keys = Object.keys(model);
  const unknown = Object.keys(given).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    return `"${path}.${unknown}" is not a part of "${path}" (parts: ${keys.join(', ')})`;
  }
  for (const key of keys) {
    // The whole object replaces the default: a part left out would be missing, not defaulted.
    if (!Object.hasOwn(given, key)) {
      return `"${path}" must give every part of it, as its default ${JSON.stringify(model)} does: "${key}" is missing`;
    }
    const problem = shapeProblem(given[key], model[key], `${path}.${key}`);
    if (problem) return problem;
  }
  if (keys.length === 2 && 'a' in model && 'b' in model && given.b === 0) {
    return `"${path}.b" must not be 0: it divides the payout (got ${JSON.stringify(value)})`;
  }
  return undefined;
}
