import { parseTableDefinitions, tableCurrencyCodes } from '../config/tables-config';
import { tableRunSettings } from './table-settings';

const SOURCE = 'TABLES_FILE "tables.json"';
const parse = (table: Record<string, unknown>) =>
  parseTableDefinitions([{ id: 'pd-1', name: 'Pok Deng 1', game: 'pok-deng', ...table }], SOURCE);
const fails = (table: Record<string, unknown>) => () => parse(table);

describe('table currencies and their limits', () => {
  it('keeps the single currency and limits form as one currency', () => {
    const [table] = parse({ currency: 'THB', limits: { player: { min: 500, max: 9_000 } } });
    expect(table.currency).toBe('THB');
    expect(tableCurrencyCodes(table)).toEqual(['THB']);
    const settings = tableRunSettings(table);
    expect(settings.currencies).toEqual(['THB']);
    expect(settings.limits.player).toEqual({ min: 500, max: 9_000 });
    expect(settings.limitsByCurrency).toEqual({ THB: settings.limits });
  });

  it('reads limits per currency, each defaulting to the game’s, the first currency the default', () => {
    const [table] = parse({
      currencies: { EUR: { player: { min: 100, max: 5_000 } }, THB: {} },
    });
    expect(table.currency).toBe('EUR');
    expect(tableCurrencyCodes(table)).toEqual(['EUR', 'THB']);
    const settings = tableRunSettings(table);
    expect(settings.limitsByCurrency!.EUR.player).toEqual({ min: 100, max: 5_000 });
    expect(settings.limitsByCurrency!.THB).toEqual({
      player: { min: 1_000, max: 1_000_000 },
      pair: { min: 1_000, max: 100_000 },
    });
    expect(settings.limits).toBe(settings.limitsByCurrency!.EUR);
  });

  it('takes `currency` beside `currencies` as the default, which must be one of them', () => {
    const [table] = parse({ currency: 'THB', currencies: { EUR: {}, THB: {} } });
    expect(tableCurrencyCodes(table)).toEqual(['THB', 'EUR']);
    expect(tableRunSettings(table).currencies).toEqual(['THB', 'EUR']);
    expect(fails({ currency: 'USD', currencies: { EUR: {}, THB: {} } })).toThrow(
      `${SOURCE} table #1 ("pd-1"): "currency" USD (the default) is not one of "currencies" (EUR, THB)`,
    );
  });

  it.each([
    [{ currency: 'thb' }, '"currency" must be a three-letter ISO 4217 code (got "thb")'],
    [{}, '"currency" must be a three-letter ISO 4217 code (got undefined)'],
    [{ currency: 'ZZZ' }, '"currency" ZZZ is not an ISO 4217 currency code'],
    [{ currencies: { EUR: {}, EUX: {} } }, '"currencies.EUX" EUX is not an ISO 4217 currency code'],
    [{ currencies: [] }, '"currencies" must be an object of currency → limits'],
    [{ currencies: {} }, '"currencies" must be an object of currency → limits'],
    [{ currencies: { Euro: {} } }, '"currencies.Euro" must be a three-letter ISO 4217 code'],
    [
      { currencies: { EUR: { main: { min: 1 } } } },
      '"currencies.EUR.main" is not a bet of pok-deng (bets: player, pair)',
    ],
    [
      { currencies: { EUR: {}, THB: { player: { min: 9_000, max: 100 } } } },
      '"currencies.THB.player" has min 9000 above max 100',
    ],
    [
      { currencies: { THB: { pair: { max: 1.5 } } } },
      '"currencies.THB.pair.max" must be a whole number from 1 to',
    ],
    [{ currencies: { THB: [] } }, '"currencies.THB" must be an object like'],
    [
      { currencies: { THB: {} }, limits: { player: { min: 1 } } },
      '"limits" and "currencies" cannot both be given',
    ],
  ])('refuses %j at start-up, naming the table and the field', (table, message) => {
    expect(fails(table)).toThrow(`${SOURCE} table #1 ("pd-1"): ${message}`);
  });
});
