-- Trigger (AFTER INSERT ... FOR EACH STATEMENT on bets and decisions): the rows' references to their
-- round (and a bet's to its table) checked once per statement instead of by a foreign key's lookup
-- per row, which for a batch of 5,000 bets cost about as much as writing them. A violation keeps
-- the foreign key's SQLSTATE (23503), so the intake still isolates a command the database refuses.
CREATE OR REPLACE FUNCTION studio_check_rounds_exist() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  missing text;
BEGIN
  SELECT n.round_id::text INTO missing
    FROM (SELECT DISTINCT round_id FROM inserted) n
   WHERE NOT EXISTS (SELECT 1 FROM rounds r WHERE r.id = n.round_id)
   LIMIT 1;
  IF missing IS NOT NULL THEN
    RAISE foreign_key_violation
      USING MESSAGE = format('%s row of round %s, which does not exist', TG_TABLE_NAME, missing);
  END IF;
  IF TG_TABLE_NAME = 'bets' THEN
    SELECT n.table_id INTO missing
      FROM (SELECT DISTINCT table_id FROM inserted) n
     WHERE NOT EXISTS (SELECT 1 FROM studio_tables t WHERE t.id = n.table_id)
     LIMIT 1;
    IF missing IS NOT NULL THEN
      RAISE foreign_key_violation
        USING MESSAGE = format('bet of table %s, which does not exist', missing);
    END IF;
  END IF;
  RETURN NULL;
END
$fn$;
