export * from './entities';
export * from './outbox-writer';
