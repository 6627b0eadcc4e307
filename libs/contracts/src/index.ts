export * from './envelope';
export * from './table-events';
export * from './topics';
export * from './event-visibility';
export * from './scanner-events';
export * from './schemas';
