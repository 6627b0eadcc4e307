export * from './core';
export * from './side-bets';
