-- Where each of these command ids' first answer is: its bet or decision row (`answer`), or
-- processed_commands; ids never answered are left out. One index probe per id (a nested loop over
-- the ids): with `command_id = ANY(...)` the planner scanned the whole bets table once it had grown
-- past its last ANALYZE, which is just what a betting window does, and the lookup grew with the
-- table instead of with the batch. A plain SQL function, so the planner inlines it where it is
-- called (the intake's lookup, studio_commit_commands, the answers recorded alone).
CREATE OR REPLACE FUNCTION studio_find_answers(ids text[])
RETURNS TABLE (command_id text, result jsonb)
LANGUAGE sql STABLE AS $fn$
  SELECT c.command_id, a.result
    FROM unnest(ids) AS c(command_id)
   CROSS JOIN LATERAL (
         SELECT p.result FROM processed_commands p WHERE p.command_id = c.command_id
          UNION ALL
         SELECT b.answer FROM bets b WHERE b.command_id = c.command_id AND b.answer IS NOT NULL
          UNION ALL
         SELECT d.answer FROM decisions d WHERE d.command_id = c.command_id AND d.answer IS NOT NULL
          LIMIT 1) a
$fn$;
