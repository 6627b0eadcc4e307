export * from './ev';
export * from './rules';
export * from './table';
export * from './generated/european-all-stakes';
export * from './generated/european-original-bets-only';
export * from './generated/infinite';
export * from './generated/lux';
