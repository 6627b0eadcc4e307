/**
 * ISO 4217 codes: the currencies the runtime's ICU knows (kept current with Node), plus what ISO
 * lists beside them that ICU leaves out: precious metals (XPT: the practice table's points), the
 * special codes (XDR, XSU, XUA, XTS for tests, XXX for none) and the fund codes.
 */
const BESIDE_ICU = [
  ...['XAU', 'XAG', 'XPD', 'XPT', 'XDR', 'XSU', 'XUA', 'XTS', 'XXX'],
  ...['XBA', 'XBB', 'XBC', 'XBD'],
  ...['BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW', 'VED'],
];

const KNOWN = new Set<string>([...Intl.supportedValuesOf('currency'), ...BESIDE_ICU]);

/** Whether `code` is an ISO 4217 currency code (three capital letters ISO assigns). */
export function isIsoCurrency(code: string): boolean {
  return KNOWN.has(code);
}
