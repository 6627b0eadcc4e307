export * from './envelope';
export * from './table-events';
export * from './topics';
