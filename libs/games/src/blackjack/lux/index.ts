export * from './engine';
export * from './settlement';
export * from './state';
export * from './view';
export * from './seat-commands';
