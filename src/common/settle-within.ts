/**
 * What `work` settles to, or `late` after `ms` (a bound on a wait, not a cancellation: the work
 * goes on). The timer is cleared either way: a plain `Promise.race` with `setTimeout` leaves it
 * pending, holding the process open and firing for nothing.
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
