/**
 * Resolves with the first value `read` gives that is not undefined (checked every `everyMs`);
 * rejects after `timeoutMs` naming `what` and the last error `read` threw, if any.
 */
export async function waitFor<T>(
  read: () => T | undefined | Promise<T | undefined>,
  { timeoutMs, what, everyMs = 100 }: { timeoutMs: number; what: string; everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
      if (error instanceof Fatal) throw error.cause;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${what}: not seen in ${timeoutMs} ms${last ? ` (last: ${String(last)})` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Thrown inside `read` to stop waiting at once (a process that exited cannot become ready). */
export class Fatal extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}
