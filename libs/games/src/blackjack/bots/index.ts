export * from './bots';
export * from './normal-chart';
export * from './view';
