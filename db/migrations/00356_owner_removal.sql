-- Removing an owner (docs/security.md "Removing an owner"): the business always keeps at least one. app/owner checks
-- it inside the removing transaction; this trigger is the last word, for any other writer.

-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER owners_keep_one BEFORE DELETE ON owners
WHEN (SELECT count(*) FROM owners) <= 1
BEGIN
    SELECT RAISE(ABORT, 'the last owner cannot be removed');
END;
-- +goose StatementEnd
