export * from './dealer';
export * from './engine';
export * from './hand';
export * from './money';
export * from './player-hands';
export * from './rules';
export * from './settle';
