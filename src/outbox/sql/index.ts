import { join } from 'node:path';

/** The outbox's server-side functions, one `.sql` file each (see migrations/functions.ts). */
export const OUTBOX_FUNCTION_FILES = ['studio_append_outbox'].map((name) =>
  join(__dirname, `${name}.sql`),
);
