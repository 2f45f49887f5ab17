-- The booking site's waitlist (app/site waitlist.go, docs/booking-site.md): personal links to
-- a place on a class session's waitlist, like the manage links of bookings (00270). Only the
-- SHA-256 of a token is kept. nonce_hash is the hash of the form that joined: a form submitted
-- twice finds its entry here instead of failing as "already waiting" (NULL for a later link).

-- +goose Up
CREATE TABLE site_waitlist_links (
    id         INTEGER PRIMARY KEY,
    entry_id   INTEGER NOT NULL REFERENCES waitlist_entries (id),
    token_hash BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    nonce_hash BLOB    UNIQUE CHECK (nonce_hash IS NULL OR length(nonce_hash) = 32),
    created_at INTEGER NOT NULL
);
CREATE INDEX site_waitlist_links_entry ON site_waitlist_links (entry_id);
