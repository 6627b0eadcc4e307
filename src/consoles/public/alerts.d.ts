// Types of alerts.js (a browser ES module, unit-tested from TypeScript).
export interface RaisedAlert {
  tableId: string;
  kind: string;
  text: string;
  at: string;
  resolved: boolean;
}
export function groupAlerts(alerts: readonly RaisedAlert[]): Array<RaisedAlert & { count: number }>;
