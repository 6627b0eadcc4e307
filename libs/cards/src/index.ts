export * from './card';
export * from './composition';
