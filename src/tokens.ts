/** Injection tokens for values that are not classes. */
export const STUDIO_CONFIG = Symbol('STUDIO_CONFIG');
