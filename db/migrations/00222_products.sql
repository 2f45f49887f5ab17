-- Retail products (docs/api.md, "Products"): a catalogue beside services, read through
-- GET /v3/products and sold as cart items of item_type "product" whose item_id is a product id.
--
-- stock is optional: NULL means the business does not count it. When it is counted, a cart may
-- not ask for more than is in stock and a paid sale takes its quantities off (never below 0).
--
-- product_search is a trigram full-text index over name and SKU (as client_search in 00010),
-- kept in step by triggers, so `search=` ignores case and diacritics and never scans the table
-- for queries of three or more characters.
--
-- cart_items.product_id records which product a line sold (sales are read through their cart).
-- The triggers are the last word behind app/payments: a product line names an existing, active
-- product as both item_id and product_id, within its counted stock; other lines name none.

-- +goose Up
CREATE TABLE products (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    sku         TEXT    CHECK (sku IS NULL OR length(sku) BETWEEN 1 AND 64),
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    active      BOOLEAN NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    stock       INTEGER CHECK (stock IS NULL OR stock >= 0),
    description TEXT,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX products_sku ON products (sku COLLATE NOCASE) WHERE sku IS NOT NULL;
CREATE INDEX products_active ON products (active, id);

CREATE VIRTUAL TABLE product_search USING fts5(doc, tokenize = 'trigram remove_diacritics 1');

-- +goose StatementBegin
CREATE TRIGGER product_search_insert AFTER INSERT ON products
BEGIN
    INSERT INTO product_search (rowid, doc) VALUES (NEW.id, NEW.name || char(31) || coalesce(NEW.sku, ''));
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER product_search_update AFTER UPDATE OF name, sku ON products
BEGIN
    UPDATE product_search SET doc = NEW.name || char(31) || coalesce(NEW.sku, '') WHERE rowid = NEW.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER product_search_delete AFTER DELETE ON products
BEGIN
    DELETE FROM product_search WHERE rowid = OLD.id;
END;
-- +goose StatementEnd

ALTER TABLE cart_items ADD COLUMN product_id INTEGER REFERENCES products (id);
CREATE INDEX cart_items_product ON cart_items (product_id) WHERE product_id IS NOT NULL;

-- +goose StatementBegin
CREATE TRIGGER cart_items_product_insert BEFORE INSERT ON cart_items
WHEN (NEW.item_type = 'product') <> (NEW.product_id IS NOT NULL)
    OR (NEW.product_id IS NOT NULL AND (NEW.product_id <> NEW.item_id
        OR NOT EXISTS (SELECT 1 FROM products p WHERE p.id = NEW.product_id AND p.active = 1
                       AND (p.stock IS NULL OR p.stock >= NEW.quantity))))
BEGIN
    SELECT RAISE(ABORT, 'cart_item_product_invalid');
END;
-- +goose StatementEnd

-- Product keys remembered by `frontdesk import`, as import_keys (00020) remembers the other
-- sections' keys; that table's kind list is fixed by a CHECK, and a table rebuild to widen it
-- would race with other additions to it.
CREATE TABLE import_product_keys (
    key         TEXT    PRIMARY KEY,
    record_id   INTEGER NOT NULL REFERENCES products (id),
    imported_at INTEGER NOT NULL
) WITHOUT ROWID;
