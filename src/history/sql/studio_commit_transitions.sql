-- Group commit: the transitions of several tables that are ready together in one call and one
-- commit (a commit's WAL flush and round trip shared), each still all-or-nothing on its own.
--
-- `ts` is a JSON array of studio_commit_transition's `t` (each for a different table), `ss` their
-- states. Each transition runs studio_commit_transition in a subtransaction (the EXCEPTION block):
-- one that fails its lease fence (SL001), version (SL002), chain head (SL003) or anything else
-- leaves nothing behind and answers `{error, message}` in its place, while the others commit. The
-- answer is a JSON array in the order of `ts`. Callers keep groups well under 64 transitions
-- (PostgreSQL caches that many subtransactions per backend; past it snapshots get slower).
--
-- The lease rows of the whole group are locked first, in table order: the group holds several at
-- once until its commit, and the lease renewal (also in table order) must not lock them in an
-- order that deadlocks with it.
CREATE OR REPLACE FUNCTION studio_commit_transitions(ts jsonb, ss json[]) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  results jsonb := '[]';
  i int;
BEGIN
  PERFORM 1 FROM table_leases
    WHERE table_id IN (SELECT x->>'tableId' FROM jsonb_array_elements(ts) AS x)
    ORDER BY table_id FOR KEY SHARE;
  FOR i IN 1 .. cardinality(ss) LOOP
    BEGIN
      results := results || jsonb_build_array(studio_commit_transition(ts->(i - 1), ss[i]));
    EXCEPTION WHEN OTHERS THEN
      results := results || jsonb_build_array(
        jsonb_build_object('error', SQLSTATE, 'message', SQLERRM));
    END;
  END LOOP;
  RETURN results;
END
$fn$;
