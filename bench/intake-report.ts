/** One measure of a scenario: the project's seconds and its floors' in the same run. */
export interface Measure {
  label: string;
  players: number;
  project: number;
  /**
   * The kafka round storing each batch by COPY before answering it, on the project's topics (one
   * commands and one results topic per platform): the floor judged against.
   */
  stored: number;
  /** The same round on one commands and one results topic (how much the topics alone cost). */
  storedOneTopic?: number;
  kafka: number;
  copy: number;
}

/** A measure's `project | floor | ratio` line. */
export function printMeasure(m: Measure, platforms: number): void {
  const alone = Math.max(m.kafka, m.copy);
  const topics = platforms > 0 ? `, on the same ${platforms} platforms' topics` : '';
  const oneTopic =
    m.storedOneTopic === undefined
      ? ''
      : `; ${(m.project / m.storedOneTopic).toFixed(2)} to the same round on one topic, ${m.storedOneTopic.toFixed(2)} s`;
  console.log(
    `${m.players} ${m.label} accepted, persisted, answered | project ${m.project.toFixed(2)} s | ` +
      `floor ${m.stored.toFixed(2)} s (kafka round storing each batch by COPY${topics}; kafka round alone ` +
      `${m.kafka.toFixed(2)} s, COPY alone ${m.copy.toFixed(2)} s) | ratio ${(m.project / m.stored).toFixed(2)} ` +
      `(${(m.project / alone).toFixed(2)} to the larger of the two alone${oneTopic})`,
  );
}

/**
 * Every measure again, the median of repeated runs of a player count (BENCH_PLAYERS=100000,100000,
 * 100000: on a noisy machine one run's figures move by a third, so one run is no verdict), and the
 * cost per command of each player count.
 */
export function printSummary(measures: readonly Measure[], platforms: number): void {
  console.log(
    `\n=== intake (${platforms > 0 ? `players spread over ${platforms} platforms` : 'v1 topics'}): ` +
      'project | floor (same run) | ratio',
  );
  for (const m of measures) printMeasure(m, platforms);
  const groups = new Map<string, Measure[]>();
  for (const m of measures) {
    const key = `${m.players} ${m.label}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  for (const [key, runs] of groups) {
    if (runs.length < 2) continue;
    // Each run's ratio pairs the project with the floor measured right after it.
    const ratios = runs.map((m) => m.project / m.stored).sort((a, b) => a - b);
    console.log(
      `${key} accepted, persisted, answered (median of ${runs.length} runs) | project ` +
        `${median(runs.map((m) => m.project)).toFixed(2)} s | floor ${median(runs.map((m) => m.stored)).toFixed(2)} s | ` +
        `ratio ${median(ratios).toFixed(2)} (the runs' ratios: ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
  }
  for (const label of new Set(measures.map((m) => m.label))) {
    const runs = measures.filter((m) => m.label === label);
    const perCommand = runs.map(
      (m) => `${m.players}: ${((m.project / m.players) * 1e6).toFixed(1)} µs`,
    );
    const spread = runs.map((m) => m.project / m.players);
    console.log(
      `${label} cost per command | ${perCommand.join(' | ')} | largest/smallest ` +
        `${(Math.max(...spread) / Math.min(...spread)).toFixed(2)}`,
    );
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
