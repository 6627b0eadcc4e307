/** What the consoles' overview stream said of each table's card readings waiting for the database. */
export interface ConsoleWaits {
  /** The most readings seen waiting at once, per table. */
  most: Map<string, number>;
  /** The last view's `databaseWait` per table (null: none waiting). */
  last: Map<string, unknown>;
  stop(): void;
}

/**
 * Reads the supervisors' overview stream (`/console/api/tables/stream`) for as long as it runs,
 * opening it again whenever it ends (an outage may end it), and keeps what each table's views said
 * of the readings waiting for the database.
 */
export function watchConsoleWaits(url: string, token: string): ConsoleWaits {
  const waits: ConsoleWaits = { most: new Map(), last: new Map(), stop: () => undefined };
  const controller = new AbortController();
  waits.stop = () => controller.abort();
  const seen = (block: string) => {
    const [event, data] = block.split('\n');
    if (event !== 'event: table' || !data?.startsWith('data: ')) return;
    const view = JSON.parse(data.slice('data: '.length)) as {
      tableId: string;
      databaseWait: { readings: number } | null;
    };
    waits.last.set(view.tableId, view.databaseWait);
    const n = view.databaseWait?.readings ?? 0;
    waits.most.set(view.tableId, Math.max(waits.most.get(view.tableId) ?? 0, n));
  };
  void (async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(`${url}/console/api/tables/stream`, {
          headers: { authorization: `Bearer ${token}` },
          signal: controller.signal,
        });
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let pending = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          pending += decoder.decode(value, { stream: true });
          const blocks = pending.split('\n\n');
          pending = blocks.pop()!;
          blocks.forEach(seen);
        }
      } catch {
        // Cut off (the service busy with the outage, or stopped): open it again.
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return waits;
}
