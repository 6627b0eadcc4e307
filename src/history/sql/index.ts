import { join } from 'node:path';

/**
 * The history module's server-side functions, one `.sql` file each, applied after the versioned
 * migrations whenever a file differs from what the database holds (migrations/functions.ts).
 * Listed, not discovered: a file the build failed to copy fails the start instead of going
 * unnoticed.
 */
export const HISTORY_FUNCTION_FILES = [
  'studio_commit_transition',
  'studio_commit_transitions',
  'studio_find_answers',
  'studio_commit_commands',
  'studio_write_settlements',
  'studio_sum_round_stakes',
  'studio_count_scanner_readings',
  'studio_count_round_hours',
  'studio_check_rounds_exist',
  'studio_refuse_reference_change',
  'studio_refuse_referenced_delete',
].map((name) => join(__dirname, `${name}.sql`));
