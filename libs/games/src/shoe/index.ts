export * from './burn-values';
export * from './shoe';
