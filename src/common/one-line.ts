/** Renders any thrown value as one log-friendly line (AggregateError included, codes appended). */
export function oneLine(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map((e) => oneLine(e)).join('; ');
  }
  const message = error instanceof Error ? error.message || error.name : messageOf(error);
  const code = (error as { code?: string } | null)?.code;
  const text = code && !message.includes(code) ? `${message} (${code})` : message;
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A thrown value that is not an Error: its message or name (PGlite's file system throws
 * `{ name: 'ErrnoError', errno: 2 }`), else what it holds, never "[object Object]".
 */
function messageOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { message, name, errno } = error as { message?: unknown; name?: unknown; errno?: unknown };
  if (typeof message === 'string' && message) return message;
  if (typeof name === 'string' && name) {
    return typeof errno === 'number' ? `${name} (errno ${errno})` : name;
  }
  const text = String(error);
  if (text !== '[object Object]') return text;
  try {
    return JSON.stringify(error).slice(0, 200);
  } catch {
    return text;
  }
}
