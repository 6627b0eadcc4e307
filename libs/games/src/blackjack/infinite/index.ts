export * from './engine';
export { indexOfPlayer } from './player-index';
export * from './settlement';
export * from './state';
export * from './view';
