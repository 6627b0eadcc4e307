export * from './hand';
export * from './roadmap';
export * from './round';
export * from './rules';
export * from './settlement';
export * from './table';
export * from './view';
