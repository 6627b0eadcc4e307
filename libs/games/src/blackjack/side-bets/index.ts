export * from './side-bets';
