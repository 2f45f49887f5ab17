-- The first session pack of the business raises the catalog version, so the booking path's
-- cached "does the business have any packs at all" (app/booking, anyPacks) is read again: a
-- business that sells no packs and has no memberships spends no statement on looking for a
-- client's pack when a single-session service is booked. Later packs change nothing cached.
-- +goose Up
-- +goose StatementBegin
CREATE TRIGGER catalog_version_first_client_pack AFTER INSERT ON client_packs
WHEN NOT EXISTS (SELECT 1 FROM client_packs WHERE id <> NEW.id)
BEGIN
    UPDATE catalog_version SET n = n + 1 WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER catalog_version_first_client_pack;
