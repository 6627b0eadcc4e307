-- A round's settlements (`p_rows`, a JSON array of settlements rows) at `p_at`, each bet marked
-- settled, refunded (a void) or cancelled (its platform took it back while betting was open). Each
-- row is in its bet's currency (the row's `currency`, else its bet row's, else its table's). Called
-- by studio_commit_transition with the transition's settlements, and on its own, in the same
-- transaction, for those of a round end beyond what one call carries.
CREATE OR REPLACE FUNCTION studio_write_settlements(p_at timestamptz, p_rows jsonb) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO settlements (round_id, bet_id, player_id, bet_type, spot, stake, returned, net, outcome, rounded_down, settled_at, currency)
  SELECT s.round_id, s.bet_id, s.player_id, s.bet_type, s.spot, s.stake, s.returned, s.net, s.outcome, s.rounded_down, p_at,
         COALESCE(s.currency,
                  (SELECT b.currency FROM bets b WHERE b.id = s.bet_id),
                  (SELECT t.currency FROM rounds r JOIN studio_tables t ON t.id = r.table_id
                    WHERE r.id = s.round_id))
    FROM jsonb_to_recordset(p_rows) AS s(round_id uuid, bet_id text, player_id text, bet_type text,
         spot text, stake bigint, returned bigint, net bigint, outcome text, rounded_down text,
         currency text);
  UPDATE bets SET status = CASE s.outcome WHEN 'void-refund' THEN 'refunded'
                                          WHEN 'cancelled' THEN 'cancelled'
                                          ELSE 'settled' END
    FROM jsonb_to_recordset(p_rows) AS s(bet_id text, outcome text)
   WHERE bets.id = s.bet_id;
END
$fn$;
