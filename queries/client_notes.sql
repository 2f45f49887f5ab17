-- Notes about a client over time (app/clients/notes.go).

-- name: InsertClientNote :one
INSERT INTO client_notes (client_id, body, author_id, author_label, created_at)
VALUES (?, ?, ?, ?, ?)
RETURNING *;

-- A client's notes, newest first.
-- name: ListClientNotes :many
SELECT * FROM client_notes WHERE client_id = ? ORDER BY created_at DESC, id DESC LIMIT 200;

-- name: DeleteClientNote :execrows
DELETE FROM client_notes WHERE id = ? AND client_id = ?;

-- Every note of a client, for their erasure.
-- name: DeleteClientNotes :exec
DELETE FROM client_notes WHERE client_id = ?;
