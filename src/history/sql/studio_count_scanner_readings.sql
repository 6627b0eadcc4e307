-- Keeps scanner_reading_hours, each table's cards read and unrecognised readings per UTC hour, up
-- to date with the readings a statement inserted (`written`): live hold monitoring counts a
-- table's last 24 hours from at most 25 of these rows and the readings of one partial hour, where
-- it counted every reading of the day (~3 million index entries for a 100-table studio). A
-- statement trigger: a card's reading is one row added to one counter, in the transaction that
-- stores the reading, whoever stores it (the commit functions, the reading recorder, COPY).
CREATE OR REPLACE FUNCTION studio_count_scanner_readings() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO scanner_reading_hours AS h (table_id, hour, cards, unrecognised)
  SELECT w.table_id, date_trunc('hour', w.received_at, 'UTC'),
         count(*) FILTER (WHERE w.kind = 'card'), count(*) FILTER (WHERE w.kind = 'unrecognised')
    FROM written w
   WHERE w.kind IN ('card', 'unrecognised')
   GROUP BY 1, 2
  ON CONFLICT (table_id, hour) DO UPDATE
     SET cards = h.cards + EXCLUDED.cards,
         unrecognised = h.unrecognised + EXCLUDED.unrecognised;
  RETURN NULL;
END
$fn$;
