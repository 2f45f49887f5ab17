-- +goose Up
-- Passkeys (WebAuthn credentials) an account signs in with (docs/security.md "Passkeys";
-- app/passkey). credential is the verified credential record as JSON (public key, sign
-- count, flags); credential_id is its id, which a sign-in names. A passkey belongs to one
-- relying party id (the public URL's host): after that host changes, old passkeys stop working.
CREATE TABLE owner_passkeys (
    id            INTEGER PRIMARY KEY,
    owner_id      INTEGER NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    credential_id BLOB    NOT NULL UNIQUE,
    credential    TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    last_used_at  INTEGER
);
CREATE INDEX owner_passkeys_owner ON owner_passkeys (owner_id);

-- +goose Down
DROP TABLE owner_passkeys;
