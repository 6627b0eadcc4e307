-- A table transition of the common kind (a card reading: the reading row, the state delta, the
-- card, the round's progress, at its end the hands and settlements, the hash-chained events and
-- their outbox rows) in one call: one round trip and one commit.
--
-- `t` carries the transition's rows (see TransitionCallRepository); `s` the new state as JSON text
-- (`json`, not `jsonb`: the stored state keeps its key order) or its delta from the previous
-- version. The function checks, inside the statement and so inside its transaction:
-- - the lease fence (SL001): the caller still holds the table at its epoch. FOR KEY SHARE: a
--   takeover (it changes the epoch, a key column) waits for every write that passed the fence,
--   while a renewal (it changes only the expiry) does not;
-- - the state version (SL002): the state is still at the version the transition was computed from;
-- - the hash chain (SL003): the table's last event is the one the caller chained its events to
--   (the owner keeps it in memory instead of reading it first).
-- Any failure rolls the whole statement back: nothing of the transition is left.
CREATE OR REPLACE FUNCTION studio_commit_transition(t jsonb, s json) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  v_table text := t->>'tableId';
  v_at timestamptz := (t->>'at')::timestamptz;
  v_expected bigint := (t->>'expectedVersion')::bigint;
  v_version bigint;
  v_reading bigint;
  v_last_no bigint;
  v_last_hash text;
  v_seq bigint;
  v_count int;
  r jsonb;
BEGIN
  PERFORM 1 FROM table_leases
    WHERE table_id = v_table AND owner = t->>'owner' AND epoch = (t->>'epoch')::bigint
      AND expires_at >= clock_timestamp()
    FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'lease of table % lost', v_table USING ERRCODE = 'SL001';
  END IF;

  IF t->>'stateMode' = 'snapshot' THEN
    UPDATE table_state
       SET version = version + 1, snapshot_version = version + 1, state = s, updated_at = v_at
     WHERE table_id = v_table AND version = v_expected RETURNING version INTO v_version;
    IF v_version IS NULL THEN
      RAISE EXCEPTION 'table % is not at version %', v_table, v_expected USING ERRCODE = 'SL002';
    END IF;
    DELETE FROM table_state_deltas WHERE table_id = v_table AND version <= v_version;
  ELSE
    UPDATE table_state SET version = version + 1, updated_at = v_at
     WHERE table_id = v_table AND version = v_expected RETURNING version INTO v_version;
    IF v_version IS NULL THEN
      RAISE EXCEPTION 'table % is not at version %', v_table, v_expected USING ERRCODE = 'SL002';
    END IF;
    INSERT INTO table_state_deltas (table_id, version, delta) VALUES (v_table, v_version, s);
  END IF;

  r := t->'reading';
  IF jsonb_typeof(r) = 'object' THEN
    INSERT INTO scanner_readings (table_id, port, wire_format, kind, raw, decoded, device_seq,
                                  received_at, outcome, outcome_detail)
    VALUES (v_table, r->>'port', r->>'wireFormat', r->>'kind', decode(r->>'rawHex', 'hex'),
            r->'decoded', (r->>'deviceSeq')::int, (r->>'receivedAt')::timestamptz,
            r->>'outcome', CASE WHEN jsonb_typeof(r->'outcomeDetail') = 'object' THEN r->'outcomeDetail' END)
    RETURNING id INTO v_reading;
  END IF;

  r := t->'newShoe';
  IF jsonb_typeof(r) = 'object' THEN
    INSERT INTO shoes (id, table_id, shoe_number, deck_count, status, started_at)
    VALUES ((r->>'id')::uuid, v_table, (r->>'shoeNumber')::int, (r->>'deckCount')::int, 'open', v_at);
  END IF;
  r := t->'finishShoe';
  IF jsonb_typeof(r) = 'object' THEN
    UPDATE shoes SET status = 'finished', finished_at = v_at, finish_reason = r->>'reason'
     WHERE id = (r->>'id')::uuid;
  END IF;
  r := t->'newRound';
  IF jsonb_typeof(r) = 'object' THEN
    INSERT INTO rounds (id, table_id, shoe_id, shoe_number, round_number, game, status, phase, started_at, configuration)
    SELECT (r->>'id')::uuid, v_table, (r->>'shoeId')::uuid, (r->>'shoeNumber')::int,
           (r->>'roundNumber')::int, game, 'in-progress', 'started', v_at, configuration
      FROM studio_tables WHERE id = v_table;
  END IF;
  r := t->'roundStatus';
  IF jsonb_typeof(r) = 'object' THEN
    UPDATE rounds SET status = r->>'status', phase = r->>'phase',
           ended_at = CASE WHEN (r->>'ended')::boolean THEN v_at ELSE ended_at END,
           void_reason = COALESCE(r->>'voidReason', void_reason),
           final_state = CASE WHEN r ? 'finalState' THEN r->'finalState' ELSE final_state END
     WHERE id = (r->>'id')::uuid;
  END IF;

  INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, reading_id, face_down, dealt_at, revealed_at)
  SELECT (c->>'roundId')::uuid, (c->>'shoeId')::uuid, v_table, c->>'slot', c->>'card',
         CASE WHEN c->>'readingId' = 'unstored' THEN v_reading ELSE (c->>'readingId')::bigint END,
         (c->>'faceDown')::boolean, v_at,
         CASE WHEN (c->>'faceDown')::boolean THEN NULL ELSE v_at END
    FROM jsonb_array_elements(t->'cards') WITH ORDINALITY AS x(c, n) ORDER BY n;
  UPDATE round_cards rc SET revealed_at = v_at
    FROM jsonb_array_elements(t->'reveals') AS x(v)
   WHERE rc.round_id = (v->>'roundId')::uuid AND rc.slot = v->>'slot'
     AND rc.revealed_at IS NULL AND rc.corrected_by_id IS NULL;

  IF jsonb_array_length(t->'settlements') > 0 THEN
    INSERT INTO settlements (round_id, bet_id, player_id, bet_type, spot, stake, returned, net, outcome, rounded_down, settled_at)
    SELECT s.round_id, s.bet_id, s.player_id, s.bet_type, s.spot, s.stake, s.returned, s.net, s.outcome, s.rounded_down, v_at
      FROM jsonb_to_recordset(t->'settlements') AS s(round_id uuid, bet_id text, player_id text, bet_type text,
           spot text, stake bigint, returned bigint, net bigint, outcome text, rounded_down text);
    UPDATE bets SET status = CASE WHEN s.outcome = 'void-refund' THEN 'refunded' ELSE 'settled' END
      FROM jsonb_to_recordset(t->'settlements') AS s(bet_id text, outcome text)
     WHERE bets.id = s.bet_id;
  END IF;
  r := t->'hands';
  IF jsonb_typeof(r) = 'object' AND jsonb_array_length(r->'hands') > 0 THEN
    INSERT INTO round_hands (round_id, hand, owner, cards, total, result)
    SELECT (r->>'roundId')::uuid, h.hand, h.owner, ARRAY(SELECT jsonb_array_elements_text(h.cards)), h.total, h.result
      FROM jsonb_to_recordset(r->'hands') AS h(hand text, owner text, cards jsonb, total text, result text);
  END IF;

  r := t->'lapse';
  IF jsonb_typeof(r) = 'object' THEN
    UPDATE supervisor_actions
       SET status = 'lapsed',
           details = details || jsonb_build_object('lapsedAt', v_at,
             'lapsedBecause', 'the round ended before a second supervisor approved')
     WHERE status = 'pending-approval'
       AND (round_id = (r->>'roundId')::uuid
            OR id = ANY(ARRAY(SELECT jsonb_array_elements_text(r->'requestIds'))::bigint[]));
  END IF;

  r := t->'readingOutcome';
  IF jsonb_typeof(r) = 'object' THEN
    UPDATE scanner_readings SET outcome = r->>'outcome', outcome_detail = r->'detail'
     WHERE id = (r->>'readingId')::bigint AND table_id = v_table;
  END IF;

  IF jsonb_array_length(t->'events') > 0 THEN
    SELECT event_no, hash INTO v_last_no, v_last_hash
      FROM round_events WHERE table_id = v_table ORDER BY event_no DESC LIMIT 1;
    IF COALESCE(v_last_no, 0) <> (t->>'prevEventNo')::bigint
       OR COALESCE(v_last_hash, t->>'genesis') <> t->>'prevHash' THEN
      RAISE EXCEPTION 'hash chain of table % moved (last event %)', v_table, v_last_no
        USING ERRCODE = 'SL003';
    END IF;
    INSERT INTO round_events (table_id, event_no, round_id, type, visibility, payload, actor, occurred_at, prev_hash, hash)
    SELECT v_table, e."eventNo", e."roundId", e.type, e.visibility, e.payload, e.actor, e."occurredAt", e."prevHash", e.hash
      FROM jsonb_to_recordset(t->'events') AS e("eventNo" bigint, "roundId" uuid, type text, visibility text,
           payload jsonb, actor text, "occurredAt" timestamptz, "prevHash" text, hash text);
  END IF;

  v_count := jsonb_array_length(t->'outbox');
  IF v_count > 0 THEN
    UPDATE studio_tables SET last_event_seq = last_event_seq + v_count WHERE id = v_table
      RETURNING last_event_seq INTO v_seq;
    IF v_seq IS NULL THEN
      RAISE EXCEPTION 'Unknown table "%": cannot append events for it', v_table;
    END IF;
    INSERT INTO outbox (event_id, topic, table_id, round_id, seq, type, schema_version, occurred_at, payload, publish_attempts)
    SELECT (o->>'eventId')::uuid, o->>'topic', v_table, o->>'roundId', v_seq - v_count + n, o->>'type',
           (o->>'schemaVersion')::int, v_at, o->'payload', 0
      FROM jsonb_array_elements(t->'outbox') WITH ORDINALITY AS x(o, n);
  END IF;

  RETURN jsonb_build_object('version', v_version, 'readingId', v_reading::text);
END
$fn$;
