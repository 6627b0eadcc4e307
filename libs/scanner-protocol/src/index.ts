export * from './crc16';
export * from './formats';
export * from './ingestion';
export * from './reading';
export { printable } from './formats/bytes';
