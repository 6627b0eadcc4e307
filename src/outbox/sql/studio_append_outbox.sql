-- The transactional outbox's one way in: a table's new public events (`p_events`, a JSON array of
-- {eventId, topic, roundId, type, schemaVersion, occurredAt, payload, chain?}, in their order) appended
-- with the table's next sequence numbers, gap-free and in commit order: the bump locks the table's
-- studio_tables row, so a second transaction of the same table waits for the first to end.
-- Called by the transition functions inside their statement, and by appendTableEvents
-- (src/outbox/outbox-writer.ts) for the events written outside a table's transition.
-- Returns the first event's sequence number (NULL for no event).
CREATE OR REPLACE FUNCTION studio_append_outbox(p_table text, p_events jsonb) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  v_count int := COALESCE(jsonb_array_length(p_events), 0);
  v_last bigint;
BEGIN
  IF v_count = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE studio_tables SET last_event_seq = last_event_seq + v_count WHERE id = p_table
  RETURNING last_event_seq INTO v_last;
  IF v_last IS NULL THEN
    RAISE EXCEPTION 'Unknown table "%": cannot append events for it', p_table;
  END IF;
  INSERT INTO outbox (event_id, topic, table_id, round_id, seq, type, schema_version, occurred_at,
                      payload, publish_attempts, chain_event_no, chain_hash)
  SELECT (o->>'eventId')::uuid, o->>'topic', p_table, o->>'roundId',
         v_last - v_count + n, o->>'type', (o->>'schemaVersion')::int,
         (o->>'occurredAt')::timestamptz, o->'payload', 0,
         (o->'chain'->>'eventNo')::bigint, o->'chain'->>'hash'
    FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(o, n);
  RETURN v_last - v_count + 1;
END
$fn$;
