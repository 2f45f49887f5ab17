-- +goose Up
-- Two-factor sign-in (docs/security.md "Two-factor sign-in"; app/twofactor).

-- An account's authenticator-app secret (RFC 6238). The secret is sealed with the data
-- directory's key (app/secrets). confirmed_at is NULL while the account is enrolling: the
-- secret is shown, but sign-in does not ask for a code until one has been typed back.
-- last_step is the time step (Unix seconds / 30) of the last code accepted: a code is taken
-- only for a later step, so one seen over a shoulder or in a proxy's log cannot be replayed.
CREATE TABLE owner_totp (
    owner_id      INTEGER PRIMARY KEY REFERENCES owners (id) ON DELETE CASCADE,
    secret_sealed TEXT    NOT NULL,
    confirmed_at  INTEGER,
    last_step     INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL
);

-- One-use recovery codes, stored as SHA-256 of the code (the codes are random, 80 bits).
CREATE TABLE owner_recovery_codes (
    id         INTEGER PRIMARY KEY,
    owner_id   INTEGER NOT NULL REFERENCES owners (id) ON DELETE CASCADE,
    code_hash  TEXT    NOT NULL UNIQUE,
    used_at    INTEGER,
    created_at INTEGER NOT NULL
);
CREATE INDEX owner_recovery_codes_owner ON owner_recovery_codes (owner_id);

-- The installation's sign-in rules, one row.
CREATE TABLE security_settings (
    id                 INTEGER PRIMARY KEY CHECK (id = 1),
    require_two_factor BOOLEAN NOT NULL DEFAULT 0 CHECK (require_two_factor IN (0, 1)),
    updated_at         INTEGER NOT NULL
);
INSERT INTO security_settings (id, require_two_factor, updated_at) VALUES (1, 0, 0);

-- +goose Down
DROP TABLE security_settings;
DROP TABLE owner_recovery_codes;
DROP TABLE owner_totp;
