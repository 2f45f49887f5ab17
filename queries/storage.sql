-- The storage probe's write (db/storage.go): as small as a write can be, but a real one.
-- name: TouchStorageProbe :exec
INSERT INTO storage_probe (id, checked_at) VALUES (1, ?)
ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at;
