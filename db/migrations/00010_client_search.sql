-- Quick search over clients (GET /v3/clients/quick-search, the admin client search) ranks exact
-- matches, then prefixes, then anything containing the query, and every tier reads an index:
-- exact and prefix matches use the case-insensitive (NOCASE) indexes below (email and phone are
-- stored normalised and use their plain indexes from 00001); "contains" uses a trigram
-- full-text index, which answers queries of three or more characters without scanning every
-- client. One document per client (rowid = clients.id), kept in step by
-- triggers so every writer (API, admin UI, import) is covered. The searched fields are joined
-- with U+001F, a character a query can never contain, so a match never straddles two fields.
-- Matching ignores case and diacritics ("maria" finds "María").

-- +goose Up
CREATE INDEX clients_first_name_nocase ON clients (first_name COLLATE NOCASE);
CREATE INDEX clients_last_name_nocase ON clients (last_name COLLATE NOCASE);
CREATE INDEX clients_identification_nocase ON clients (identification_number COLLATE NOCASE);
CREATE INDEX clients_record_number_nocase ON clients (record_number COLLATE NOCASE);

CREATE VIRTUAL TABLE client_search USING fts5(doc, tokenize = 'trigram remove_diacritics 1');

-- +goose StatementBegin
CREATE TRIGGER client_search_insert AFTER INSERT ON clients
BEGIN
    INSERT INTO client_search (rowid, doc)
    VALUES (NEW.id, NEW.first_name || ' ' || coalesce(NEW.last_name, '') || char(31) || coalesce(NEW.email, '')
        || char(31) || coalesce(NEW.phone, '') || char(31) || coalesce(NEW.identification_number, '')
        || char(31) || coalesce(NEW.record_number, ''));
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER client_search_update
AFTER UPDATE OF first_name, last_name, email, phone, identification_number, record_number ON clients
BEGIN
    UPDATE client_search
    SET doc = NEW.first_name || ' ' || coalesce(NEW.last_name, '') || char(31) || coalesce(NEW.email, '')
        || char(31) || coalesce(NEW.phone, '') || char(31) || coalesce(NEW.identification_number, '')
        || char(31) || coalesce(NEW.record_number, '')
    WHERE rowid = NEW.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER client_search_delete AFTER DELETE ON clients
BEGIN
    DELETE FROM client_search WHERE rowid = OLD.id;
END;
-- +goose StatementEnd

INSERT INTO client_search (rowid, doc)
SELECT id, first_name || ' ' || coalesce(last_name, '') || char(31) || coalesce(email, '') || char(31)
    || coalesce(phone, '') || char(31) || coalesce(identification_number, '') || char(31)
    || coalesce(record_number, '')
FROM clients;
