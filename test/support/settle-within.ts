/**
 * What `work` settles to, or `late` after `ms`. The timer is cleared either way: a plain
 * `Promise.race` with `setTimeout` leaves the timer pending for a test file's teardown to find.
 */
export async function settleWithin<T, L>(work: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<L>((resolve) => {
        timer = setTimeout(resolve, ms, late);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
