-- Trigger (BEFORE DELETE on rounds and studio_tables): a round or table that bets or decisions name
-- stays, as under the foreign keys studio_check_rounds_exist replaced.
CREATE OR REPLACE FUNCTION studio_refuse_referenced_delete() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  named boolean;
BEGIN
  -- OLD.id is a round's uuid or a table's text: each comparison only where its type fits.
  IF TG_TABLE_NAME = 'rounds' THEN
    named := EXISTS (SELECT 1 FROM bets WHERE round_id = OLD.id::text::uuid)
          OR EXISTS (SELECT 1 FROM decisions WHERE round_id = OLD.id::text::uuid);
  ELSE
    named := EXISTS (SELECT 1 FROM bets WHERE table_id = OLD.id::text);
  END IF;
  IF named THEN
    RAISE foreign_key_violation
      USING MESSAGE = format('%s row %s is named by bets or decisions', TG_TABLE_NAME, OLD.id);
  END IF;
  RETURN OLD;
END
$fn$;
