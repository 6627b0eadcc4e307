export * from './generated/messages';
export * from './validation';
export * from './topics';
export * from './event-order';
export * from './client';
export * from './http-client';
export * from './http-types';
