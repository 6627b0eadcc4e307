export * from './bot-runner';
export * from './engine';
export * from './state';
export * from './random';
export * from './shoe-driver';
// The practice table's bots and the strategy/verification library travel with it.
export * from '../bots';
export * from '../strategy';
export * from '../strategy/seeded-random';
export * from '../strategy/side-bet-tables';
export * from '../strategy/simulation-totals';
export * from '../strategy/simulator';
export * from '../strategy/side-bet-returns';
