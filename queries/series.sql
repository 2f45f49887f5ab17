-- Series of bookings (app/booking/series.go).

-- name: InsertBookingSeries :one
INSERT INTO booking_series (freq, interval_weeks, week_of_month, count, first_local, created_at)
VALUES (?, ?, ?, ?, ?, ?)
RETURNING *;

-- name: GetBookingSeries :one
SELECT * FROM booking_series WHERE id = ?;

-- name: SeriesBookingIDs :many
-- The occurrences of a series in time order, cancelled ones included.
SELECT id FROM bookings WHERE series_id = ? ORDER BY start_at, id;

-- name: SeriesOccurrences :many
-- The live occurrences of a series from a start on, in time order (the confirmation's dates).
SELECT id, start_at, end_at FROM bookings
WHERE series_id = sqlc.arg(series_id) AND status_id <> 5 AND start_at >= sqlc.arg(from_at)
ORDER BY start_at, id;

-- name: MessageSeriesDates :many
-- The live occurrences of the series booking_id belongs to, from that booking on: the dates a
-- series' one confirmation lists (none for a booking outside a series).
SELECT o.start_at FROM bookings b JOIN bookings o ON o.series_id = b.series_id
WHERE b.id = ? AND o.status_id <> 5 AND o.start_at >= b.start_at
ORDER BY o.start_at, o.id;
