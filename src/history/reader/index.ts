export * from './bets.reader';
export * from './history-query';
export * from './history-reader';
export * from './readings.reader';
export * from './round-cards.reader';
export * from './round-events.reader';
export * from './rounds.reader';
export * from './supervisor-actions.reader';
