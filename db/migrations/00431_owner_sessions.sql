-- +goose Up
-- Each account's signed-in sessions, for the account page's list and "sign out everywhere
-- else" (docs/security.md "Sessions"; app/admin/account_sessions.go). A session carries a
-- random id in its scs data; only its SHA-256 is here. A session whose row is gone is signed
-- out at its next request. ip and user_agent are those of its latest request.
CREATE TABLE owner_sessions (
    id           INTEGER PRIMARY KEY,
    owner_id     INTEGER NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    sid_hash     TEXT    NOT NULL UNIQUE,
    ip           TEXT    NOT NULL DEFAULT '',
    user_agent   TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
);
CREATE INDEX owner_sessions_owner ON owner_sessions (owner_id, last_seen_at);

-- +goose Down
DROP TABLE owner_sessions;
