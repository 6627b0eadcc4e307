export * from './core';
export * from './infinite';
export * from './side-bets';
export * from './european';
