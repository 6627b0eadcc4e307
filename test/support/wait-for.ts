/**
 * Resolves with the first value `probe` gives that is neither undefined nor false (checked every
 * `intervalMs`); rejects after `timeoutMs` naming `what` and the last error `probe` threw, if any.
 * A probe that throws `Fatal` stops the wait at once (a process that exited cannot become ready).
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value as T;
    } catch (error) {
      if (error instanceof Fatal) throw error.cause;
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Thrown inside a probe to stop waiting at once, rejecting with `cause`. */
export class Fatal extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}
