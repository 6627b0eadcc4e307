// The supervisor's alert list. Pure (unit-tested).

/**
 * Identical alerts (same table, kind, words and state) become one entry with a count and the time
 * of the latest; open alerts come before resolved ones, newest first.
 * @param {Array<{tableId: string, kind: string, text: string, at: string, resolved: boolean}>} alerts
 * @returns {Array<{tableId: string, kind: string, text: string, at: string, resolved: boolean, count: number}>}
 */
export function groupAlerts(alerts) {
  const groups = new Map();
  for (const alert of alerts) {
    const key = JSON.stringify([alert.tableId, alert.kind, alert.text, alert.resolved]);
    const group = groups.get(key);
    if (!group) groups.set(key, { ...alert, count: 1 });
    else {
      group.count += 1;
      if (String(alert.at) > String(group.at)) group.at = alert.at;
    }
  }
  return [...groups.values()].sort(
    (a, b) => Number(a.resolved) - Number(b.resolved) || String(b.at).localeCompare(String(a.at)),
  );
}
