import { crc16 } from './crc16';
import { asciiBytes } from './formats/bytes';

describe('crc16 (CRC-16/CCITT-FALSE)', () => {
  it('gives the catalogue check value 0x29B1 for "123456789"', () => {
    expect(crc16(asciiBytes('123456789'))).toBe(0x29b1);
  });

  it('differs when two characters are swapped', () => {
    expect(crc16(asciiBytes('00001,C:AS'))).not.toBe(crc16(asciiBytes('00001,C:SA')));
  });

  it('covers only the requested range', () => {
    const bytes = asciiBytes('xx123456789yy');
    expect(crc16(bytes, 2, 11)).toBe(0x29b1);
  });
});
