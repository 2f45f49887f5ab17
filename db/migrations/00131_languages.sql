-- The business's language and clock, and an owner's own language (docs/i18n.md).
-- language is a catalog name (ui/i18n/locales/<language>.json): not a CHECK, because adding a
-- language is adding one catalog file; the application refuses names it has no catalog for.

-- +goose Up
ALTER TABLE company ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE company ADD COLUMN clock TEXT NOT NULL DEFAULT '24h' CHECK (clock IN ('24h', '12h'));
-- NULL: the owner sees the business's language.
ALTER TABLE owners ADD COLUMN language TEXT;
