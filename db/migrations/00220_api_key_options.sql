-- API key options (docs/api.md, "API keys"):
--
-- z_means_local: a compatibility option for Connect v3 clients that send a location's wall-clock
-- time with a "Z" suffix. For a key with it, a Z or +00:00 time in a booking or cart write is
-- read as the location's wall clock (app/api/zlocal.go). Off by default.
--
-- Full access is an explicit choice: it is stored as the scope list "*", never as an empty list,
-- which used to mean full access and is exactly what a slip such as `--scopes ','` produced. The
-- triggers are the last word behind app/apikey.ParseAccess: no path can store an empty or
-- malformed scope list.

-- +goose Up
ALTER TABLE api_keys ADD COLUMN z_means_local BOOLEAN NOT NULL DEFAULT 0 CHECK (z_means_local IN (0, 1));

UPDATE api_keys SET scopes = '*' WHERE scopes = '';

-- +goose StatementBegin
CREATE TRIGGER api_keys_scopes_insert BEFORE INSERT ON api_keys
WHEN NEW.scopes = '' OR NEW.scopes GLOB ',*' OR NEW.scopes GLOB '*,' OR NEW.scopes GLOB '*,,*'
    OR NEW.scopes GLOB '*[ ]*' OR (NEW.scopes GLOB '*[*]*' AND NEW.scopes <> '*')
BEGIN
    SELECT RAISE(ABORT, 'api_key_scopes_invalid');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER api_keys_scopes_update BEFORE UPDATE OF scopes ON api_keys
WHEN NEW.scopes = '' OR NEW.scopes GLOB ',*' OR NEW.scopes GLOB '*,' OR NEW.scopes GLOB '*,,*'
    OR NEW.scopes GLOB '*[ ]*' OR (NEW.scopes GLOB '*[*]*' AND NEW.scopes <> '*')
BEGIN
    SELECT RAISE(ABORT, 'api_key_scopes_invalid');
END;
-- +goose StatementEnd
