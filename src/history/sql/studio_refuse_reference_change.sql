-- Trigger (BEFORE UPDATE OF the reference columns on bets and decisions): the references
-- studio_check_rounds_exist checked on insert never change.
CREATE OR REPLACE FUNCTION studio_refuse_reference_change() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  RAISE foreign_key_violation
    USING MESSAGE = format('%s rows keep the round (and table) they were written for', TG_TABLE_NAME);
END
$fn$;
