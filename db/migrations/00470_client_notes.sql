-- Notes about a client over time, written by the team on the client's page: each dated and
-- signed by the staff account that wrote it. author_label keeps how the account was known
-- (its name, or its email) when the note was written, so a note outlives its author's account
-- (author_id is then cleared). Erasing the client deletes their notes.

-- +goose Up
CREATE TABLE client_notes (
    id           INTEGER PRIMARY KEY,
    client_id    INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
    body         TEXT    NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
    author_id    INTEGER REFERENCES owners (id) ON DELETE SET NULL,
    author_label TEXT    NOT NULL CHECK (length(author_label) <= 254),
    created_at   INTEGER NOT NULL
);
CREATE INDEX client_notes_by_client ON client_notes (client_id, created_at DESC, id DESC);

-- +goose Down
DROP TABLE client_notes;
