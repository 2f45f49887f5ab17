-- The team (docs/roles.md): the table owners holds every staff account — owners, managers,
-- reception and providers — not only owners; its name stays because other tables reference
-- owners (id). Every account that exists becomes an owner, keeping its password and, since a
-- session remembers only the account id and a stamp of the password hash, its open sessions.
-- A provider account is linked to exactly one provider record (its calendar and clients); no
-- other role is. A disabled account cannot sign in and its open sessions are refused
-- (app/admin requireOwner). The business keeps at least one owner who is not disabled:
-- app/staff checks it inside the changing transaction, and the triggers here are the last
-- word for any other writer.

-- +goose Up
ALTER TABLE owners ADD COLUMN role TEXT NOT NULL DEFAULT 'owner'
    CHECK (role IN ('owner', 'manager', 'reception', 'provider'));
ALTER TABLE owners ADD COLUMN provider_id INTEGER REFERENCES providers (id)
    CHECK ((role = 'provider') = (provider_id IS NOT NULL));
ALTER TABLE owners ADD COLUMN name TEXT NOT NULL DEFAULT '' CHECK (length(name) <= 200);
ALTER TABLE owners ADD COLUMN disabled_at INTEGER;
CREATE INDEX owners_provider ON owners (provider_id) WHERE provider_id IS NOT NULL;

DROP TRIGGER owners_keep_one;

-- +goose StatementBegin
CREATE TRIGGER owners_keep_one BEFORE DELETE ON owners
WHEN OLD.role = 'owner' AND OLD.disabled_at IS NULL
    AND (SELECT count(*) FROM owners WHERE role = 'owner' AND disabled_at IS NULL) <= 1
BEGIN
    SELECT RAISE(ABORT, 'the last owner cannot be removed');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER owners_keep_one_active BEFORE UPDATE OF role, disabled_at ON owners
WHEN OLD.role = 'owner' AND OLD.disabled_at IS NULL
    AND (NEW.role <> 'owner' OR NEW.disabled_at IS NOT NULL)
    AND (SELECT count(*) FROM owners WHERE role = 'owner' AND disabled_at IS NULL) <= 1
BEGIN
    SELECT RAISE(ABORT, 'the last owner cannot be disabled or demoted');
END;
-- +goose StatementEnd

-- Single-use links for staff: an invitation (the account is created when it is accepted) or a
-- password reset (for an existing account). Only the SHA-256 of the token is kept; a link
-- works until expires_at (seven days) and once: used_at is set by the accepting transaction.
CREATE TABLE staff_links (
    id          INTEGER PRIMARY KEY,
    token_hash  TEXT    NOT NULL UNIQUE,
    purpose     TEXT    NOT NULL CHECK (purpose IN ('invite', 'reset')),
    email       TEXT    NOT NULL,
    role        TEXT    NOT NULL DEFAULT '' CHECK (role IN ('', 'owner', 'manager', 'reception', 'provider')),
    provider_id INTEGER REFERENCES providers (id),
    -- The account a reset is for; the account an invitation made, once accepted.
    owner_id    INTEGER REFERENCES owners (id) ON DELETE CASCADE,
    invited_by  INTEGER REFERENCES owners (id) ON DELETE SET NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER,
    CHECK ((purpose = 'invite') = (role <> '')),
    CHECK ((role = 'provider') = (provider_id IS NOT NULL)),
    CHECK (purpose = 'invite' OR owner_id IS NOT NULL)
);
CREATE INDEX staff_links_email ON staff_links (email, purpose) WHERE used_at IS NULL;

-- Whether providers may change their own hours and time off (an owner's choice; off by
-- default). One row.
CREATE TABLE team_settings (
    id                       INTEGER PRIMARY KEY CHECK (id = 1),
    providers_edit_own_hours BOOLEAN NOT NULL DEFAULT 0 CHECK (providers_edit_own_hours IN (0, 1)),
    updated_at               INTEGER NOT NULL DEFAULT 0
);
INSERT INTO team_settings (id) VALUES (1);
