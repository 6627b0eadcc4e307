export * from './json-schema';
export * from './event-schemas';
export * from './command-schemas';
export * from './contract-document';
export * from './shared-defs';
export * from './asyncapi-document';
export { PLATFORM_QUOTA_CONFIG } from './contract-platforms';
