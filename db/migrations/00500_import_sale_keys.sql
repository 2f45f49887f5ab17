-- +goose Up
-- Pack and sale keys remembered by `frontdesk import` (docs/import.md, "packs[]" and
-- "sales[]"), as import_keys and import_product_keys remember the other sections' keys: a
-- table of their own, since import_keys' kinds are fixed by a CHECK.
CREATE TABLE import_sale_keys (
    kind        TEXT    NOT NULL CHECK (kind IN ('pack', 'sale')),
    key         TEXT    NOT NULL,
    record_id   INTEGER NOT NULL,
    imported_at INTEGER NOT NULL,
    PRIMARY KEY (kind, key)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE import_sale_keys;
