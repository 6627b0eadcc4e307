-- A round's settlements (`p_rows`, a JSON array of settlements rows) at `p_at`, each bet marked
-- settled or refunded. Each row is in its bet's currency (the row's `currency`, else its bet row's). Called by studio_commit_transition with the transition's settlements, and
-- on its own, in the same transaction, for those of a round end beyond what one call carries.
CREATE OR REPLACE FUNCTION studio_write_settlements(p_at timestamptz, p_rows jsonb) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO settlements (round_id, bet_id, player_id, bet_type, spot, stake, returned, net, outcome, rounded_down, settled_at, currency)
  SELECT s.round_id, s.bet_id, s.player_id, s.bet_type, s.spot, s.stake, s.returned, s.net, s.outcome, s.rounded_down, p_at,
         COALESCE(s.currency, (SELECT b.currency FROM bets b WHERE b.id = s.bet_id))
    FROM jsonb_to_recordset(p_rows) AS s(round_id uuid, bet_id text, player_id text, bet_type text,
         spot text, stake bigint, returned bigint, net bigint, outcome text, rounded_down text,
         currency text);
  UPDATE bets SET status = CASE WHEN s.outcome = 'void-refund' THEN 'refunded' ELSE 'settled' END
    FROM jsonb_to_recordset(p_rows) AS s(bet_id text, outcome text)
   WHERE bets.id = s.bet_id;
END
$fn$;
