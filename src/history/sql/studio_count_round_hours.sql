-- Keeps round_hours, each table's completed rounds per UTC hour of their end, up to date with a
-- round row's changes: live hold monitoring reads a day's rounds per hour from at most 25 rows a
-- table and one partial hour of rounds, where it read every round of the day (144,000 for a
-- 100-table studio). A round counts while it is `completed` with an end time: it is added when it
-- becomes so, taken off when it stops being so (voided afterwards, its row deleted) and moved when
-- its end time changes. A row trigger, called only when the status or the end changes.
CREATE OR REPLACE FUNCTION studio_count_round_hours() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'completed' AND OLD.ended_at IS NOT NULL THEN
    UPDATE round_hours SET completed = completed - 1
     WHERE table_id = OLD.table_id AND hour = date_trunc('hour', OLD.ended_at, 'UTC');
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'completed' AND NEW.ended_at IS NOT NULL THEN
    INSERT INTO round_hours AS h (table_id, hour, completed)
    VALUES (NEW.table_id, date_trunc('hour', NEW.ended_at, 'UTC'), 1)
    ON CONFLICT (table_id, hour) DO UPDATE SET completed = h.completed + 1;
  END IF;
  RETURN NULL;
END
$fn$;
