-- Keeps round_stakes, what each round staked and won per currency and bet type, up to date with
-- the settlements a statement inserted (`written`): live hold monitoring reads a table's last 200
-- rounds from it, so its cost follows the rounds, not the bets (an Infinite Blackjack round can
-- carry thousands). Cancelled bets (taken back before the deal, never played) are left out, as the
-- hold figures leave them out. A statement trigger: a batch of settlements is summed once, in the
-- transaction that writes it, whoever writes it (the commit functions, COPY, a repair by hand).
CREATE OR REPLACE FUNCTION studio_sum_round_stakes() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO round_stakes AS t (round_id, currency, bet_type, stake, net, bets)
  SELECT w.round_id, w.currency, w.bet_type, sum(w.stake), sum(w.net), count(*)
    FROM written w
   WHERE w.outcome <> 'cancelled'
   GROUP BY w.round_id, w.currency, w.bet_type
  ON CONFLICT (round_id, currency, bet_type) DO UPDATE
     SET stake = t.stake + EXCLUDED.stake,
         net = t.net + EXCLUDED.net,
         bets = t.bets + EXCLUDED.bets;
  RETURN NULL;
END
$fn$;
