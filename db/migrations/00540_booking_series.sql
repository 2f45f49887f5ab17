-- Series: a booking repeated weekly, every N weeks, or monthly on a weekday of the month
-- ("the second Tuesday", "the last Friday"), at the same wall time of the location
-- (docs/visits.md, "Series"). Every occurrence is an ordinary booking that carries the
-- series' id; the row here keeps only the rule the occurrences were made from, for display.
-- A booking outlives its series row only by being erased with its client, so the reference
-- needs no cascade.

-- +goose Up
CREATE TABLE booking_series (
    id             INTEGER PRIMARY KEY,
    -- 'weekly': every interval_weeks weeks; 'monthly': the week_of_month-th weekday of each
    -- month (1–4, or -1 for the last), that weekday being the first occurrence's.
    freq           TEXT    NOT NULL CHECK (freq = 'weekly' OR freq = 'monthly'),
    interval_weeks INTEGER NOT NULL DEFAULT 1 CHECK (interval_weeks BETWEEN 1 AND 52),
    week_of_month  INTEGER CHECK (week_of_month IS NULL OR week_of_month BETWEEN 1 AND 4 OR week_of_month = -1),
    -- How many occurrences were asked for, and the local date and time of the first.
    count          INTEGER NOT NULL CHECK (count BETWEEN 1 AND 52),
    first_local    TEXT    NOT NULL,
    created_at     INTEGER NOT NULL,
    CHECK ((freq = 'monthly') = (week_of_month IS NOT NULL))
);
ALTER TABLE bookings ADD COLUMN series_id INTEGER REFERENCES booking_series (id);
CREATE INDEX bookings_by_series ON bookings (series_id, start_at) WHERE series_id IS NOT NULL;

-- +goose Down
DROP INDEX bookings_by_series;
ALTER TABLE bookings DROP COLUMN series_id;
DROP TABLE booking_series;
