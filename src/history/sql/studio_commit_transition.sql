-- Every table transition in one call: one round trip and one commit. A card reading's (the
-- reading row, the state delta, the card, the round's progress, at its end the hands and
-- settlements, the hash-chained events and their outbox rows), a timer's, a supervisor's (an
-- action, a void request or its approval, card corrections) and the table's first state alike.
-- studio_commit_commands adds a batch of platform commands' rows; studio_commit_transitions
-- groups several tables' transitions in one commit; a round end settling more bets than one call
-- carries sends the rest, in the same transaction, to studio_write_settlements.
--
-- `t` carries the transition's rows (see transition-call.ts); a key left out writes nothing of
-- its kind. `s` is the new state as JSON text (`json`, not `jsonb`: the stored state keeps its key
-- order) or its delta from the previous version. The function checks, inside the statement and
-- so inside its transaction:
-- - the lease fence (SL001): the caller still holds the table at its epoch. FOR KEY SHARE: a
--   takeover (it changes the epoch, a key column) waits for every write that passed the fence,
--   while a renewal (it changes only the expiry) does not;
-- - the state version (SL002): the state is still at the version the transition was computed from
--   (0: the table has no state yet);
-- - the hash chain (SL003): the table's last event is the one the caller chained its events to
--   (the owner keeps it in memory instead of reading it first);
-- - a void request being approved is still pending (SL004).
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
  v_card bigint;
  v_shoe uuid;
  v_correction bigint;
  r jsonb;
BEGIN
  PERFORM 1 FROM table_leases
    WHERE table_id = v_table AND owner = t->>'owner' AND epoch = (t->>'epoch')::bigint
      AND expires_at >= clock_timestamp()
    FOR KEY SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'lease of table % lost', v_table USING ERRCODE = 'SL001';
  END IF;

  IF v_expected = 0 THEN
    INSERT INTO table_state (table_id, version, snapshot_version, state, updated_at)
    VALUES (v_table, 1, 1, s, v_at) ON CONFLICT (table_id) DO NOTHING RETURNING version INTO v_version;
    IF v_version IS NULL THEN
      RAISE EXCEPTION 'table % has a state already', v_table USING ERRCODE = 'SL002';
    END IF;
  ELSIF t->>'stateMode' = 'snapshot' THEN
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
  -- A corrected card is kept, pointing at its replacement (a new face-down row).
  IF jsonb_array_length(t->'corrections') > 0 THEN
    FOR r IN SELECT x FROM jsonb_array_elements(t->'corrections') AS x LOOP
      SELECT id, shoe_id INTO v_card, v_shoe FROM round_cards
       WHERE round_id = (r->>'roundId')::uuid AND slot = r->>'slot' AND corrected_by_id IS NULL
       ORDER BY id DESC LIMIT 1;
      IF v_card IS NULL THEN
        RAISE EXCEPTION 'round % has no card in slot % to correct', r->>'roundId', r->>'slot';
      END IF;
      INSERT INTO round_cards (round_id, shoe_id, table_id, slot, card, reading_id, face_down, dealt_at, correction_reason)
      VALUES ((r->>'roundId')::uuid, v_shoe, v_table, r->>'slot', r->>'card', NULL, true, v_at, r->>'reason')
      RETURNING id INTO v_correction;
      UPDATE round_cards SET corrected_by_id = v_correction WHERE id = v_card;
    END LOOP;
  END IF;
  UPDATE round_cards rc SET revealed_at = v_at
    FROM jsonb_array_elements(t->'reveals') AS x(v)
   WHERE rc.round_id = (v->>'roundId')::uuid AND rc.slot = v->>'slot'
     AND rc.revealed_at IS NULL AND rc.corrected_by_id IS NULL;

  IF jsonb_array_length(t->'settlements') > 0 THEN
    PERFORM studio_write_settlements(v_at, t->'settlements');
  END IF;
  r := t->'hands';
  IF jsonb_typeof(r) = 'object' AND jsonb_array_length(r->'hands') > 0 THEN
    INSERT INTO round_hands (round_id, hand, owner, cards, total, result)
    SELECT (r->>'roundId')::uuid, h.hand, h.owner, ARRAY(SELECT jsonb_array_elements_text(h.cards)), h.total, h.result
      FROM jsonb_to_recordset(r->'hands') AS h(hand text, owner text, cards jsonb, total text, result text);
  END IF;

  r := t->'supervisorAction';
  IF jsonb_typeof(r->'approval') = 'object' THEN
    UPDATE supervisor_actions
       SET status = 'applied',
           approved_by_user_id = (SELECT id FROM users WHERE username = r->'approval'->>'approvedBy'),
           details = details || jsonb_build_object('approvedBy', r->'approval'->>'approvedBy', 'approvedAt', v_at)
     WHERE id = (r->'approval'->>'requestId')::bigint AND status = 'pending-approval';
    IF NOT FOUND THEN
      -- Approved twice, or after it lapsed.
      RAISE EXCEPTION 'Void request % is no longer pending', r->'approval'->>'requestId'
        USING ERRCODE = 'SL004';
    END IF;
  ELSIF jsonb_typeof(r) = 'object' THEN
    -- Applied at once, or a void request (its id handed out beforehand) pending a second supervisor.
    INSERT INTO supervisor_actions (id, table_id, round_id, action, reason, actor_user_id, actor_name,
                                    status, details, created_at)
    VALUES (COALESCE((r->>'pendingRequestId')::bigint, nextval(pg_get_serial_sequence('supervisor_actions', 'id'))),
            v_table, (r->>'roundId')::uuid, r->>'action', r->>'reason',
            (SELECT id FROM users WHERE username = r->>'actor'), r->>'actor',
            CASE WHEN r->>'pendingRequestId' IS NULL THEN 'applied' ELSE 'pending-approval' END, r->'details', v_at);
  END IF;

  -- After the approval above: the request being applied is no longer pending.
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
    -- Hashed by the caller (src/history/event-chain.ts, docs/chain.md); stored as hashed.
    INSERT INTO round_events (table_id, event_no, round_id, type, visibility, payload, actor, occurred_at,
                              prev_hash, hash, chain_version, chain_salt)
    SELECT v_table, e."eventNo", e."roundId", e.type, e.visibility, e.payload, e.actor, e."occurredAt",
           e."prevHash", e.hash, e."chainVersion", e.salt
      FROM jsonb_to_recordset(t->'events') AS e("eventNo" bigint, "roundId" uuid, type text, visibility text,
           payload jsonb, actor text, "occurredAt" timestamptz, "prevHash" text, hash text,
           "chainVersion" smallint, salt text);
  END IF;

  PERFORM studio_append_outbox(v_table, t->'outbox');

  RETURN jsonb_build_object('version', v_version, 'readingId', v_reading::text);
END
$fn$;
