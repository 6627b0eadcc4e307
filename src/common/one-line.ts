/** Renders any thrown value as one log-friendly line (AggregateError included, codes appended). */
export function oneLine(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map((e) => oneLine(e)).join('; ');
  }
  const message = error instanceof Error ? error.message || error.name : String(error);
  const code = (error as { code?: string } | null)?.code;
  const text = code && !message.includes(code) ? `${message} (${code})` : message;
  return text.replace(/\s+/g, ' ').trim();
}
