import { CreateTablesAndOutbox1764400000000 } from './1764400000000-CreateTablesAndOutbox';

/** Every migration, in order. Listed explicitly so the same array works from TS and compiled JS. */
export const STUDIO_MIGRATIONS = [CreateTablesAndOutbox1764400000000];
