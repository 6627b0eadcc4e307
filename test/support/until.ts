/** Resolves once `condition` holds (checked every 5 ms), rejects after `timeoutMs`. */
export function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (condition()) resolve();
      else if (Date.now() > deadline) reject(new Error('condition not met in time'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}
