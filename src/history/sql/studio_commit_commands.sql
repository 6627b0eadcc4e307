-- A batch of platform commands (a window's bets or decisions, with their answers) in one call:
-- studio_commit_transition's checks and rows, then the bet and decision rows (each accepted
-- command's answer in its first row) and the answers kept on their own (`processed_commands`),
-- all in the one statement and so in one commit. Each bet is in its own currency (`b_currency`;
-- null: the table's default).
--
-- The rows come as column arrays (unnest), not JSON: PostgreSQL reads them without building a
-- record per row. An error keeps its SQLSTATE (a NUL in a text value is 22021, a command id stored
-- twice 23505), so the intake still isolates a command the database refuses.
--
-- With `t.lookUpAnswers` (the caller did not look the command ids up before stepping, the usual
-- case of an HTTP request: one round trip instead of two), it first looks them up, and when any was
-- answered before it writes nothing and returns those answers (`answeredBefore`): the caller steps
-- the batch again without them.
CREATE OR REPLACE FUNCTION studio_commit_commands(
  t jsonb, s json,
  b_id text[], b_round uuid[], b_player text[], b_command text[], b_type text[],
  b_spot text[], b_amount bigint[], b_deducted bigint[], b_answer text[], b_currency text[],
  d_round uuid[], d_player text[], d_hand text[], d_action text[], d_automatic boolean[],
  d_command text[], d_answer text[], d_window int[],
  c_id text[], c_kind text[], c_result text[]) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  v_table text := t->>'tableId';
  v_at timestamptz := (t->>'at')::timestamptz;
  r jsonb;
BEGIN
  IF (t->>'lookUpAnswers')::boolean THEN
    SELECT jsonb_object_agg(a.command_id, a.result) INTO r
      FROM studio_find_answers(b_command || d_command || c_id) AS a;
    IF r IS NOT NULL THEN
      RETURN jsonb_build_object('answeredBefore', r);
    END IF;
  END IF;
  r := studio_commit_transition(t, s);
  IF cardinality(b_id) > 0 THEN
    INSERT INTO bets (id, round_id, table_id, player_id, command_id, bet_type, spot, amount,
                      deducted, currency, status, placed_at, answer)
    SELECT b.id, b.round_id, v_table, b.player_id, b.command_id, b.bet_type, b.spot, b.amount,
           b.deducted, COALESCE(b.currency, st.currency), 'accepted', v_at, b.answer::jsonb
      FROM unnest(b_id, b_round, b_player, b_command, b_type, b_spot, b_amount, b_deducted, b_answer, b_currency)
           WITH ORDINALITY AS b(id, round_id, player_id, command_id, bet_type, spot, amount, deducted, answer, currency, n)
      JOIN studio_tables st ON st.id = v_table
     ORDER BY b.n;
  END IF;
  IF cardinality(d_round) > 0 THEN
    INSERT INTO decisions (round_id, player_id, hand, action, automatic, command_id, decided_at,
                           answer, decision_window)
    SELECT d.round_id, d.player_id, d.hand, d.action, d.automatic, d.command_id, v_at,
           d.answer::jsonb, d.decision_window
      FROM unnest(d_round, d_player, d_hand, d_action, d_automatic, d_command, d_answer, d_window)
           WITH ORDINALITY AS d(round_id, player_id, hand, action, automatic, command_id, answer, decision_window, n)
     ORDER BY d.n;
  END IF;
  IF cardinality(c_id) > 0 THEN
    INSERT INTO processed_commands (command_id, table_id, kind, result, received_at)
    SELECT c.command_id, v_table, c.kind, c.result::jsonb, v_at
      FROM unnest(c_id, c_kind, c_result) AS c(command_id, kind, result);
  END IF;
  RETURN r;
END
$fn$;
