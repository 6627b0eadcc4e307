export * from './core';
export * from './infinite';
export * from './lux';
export * from './side-bets';
export * from './european';
