-- GET /v3/bookings pages in (start_at, id) order. The list indexes of 00050 ordered equal starts
-- by status and scheduled before the id, so every page sorted its rows again (a temporary
-- b-tree: twice the cost of reading the page's ids). With the id right after start_at the
-- index order is the page order; status and scheduled still follow, so counts and pages with
-- those filters are still read from the index alone.

-- +goose Up
DROP INDEX bookings_location_list;
DROP INDEX bookings_client_list;
DROP INDEX bookings_service_list;
DROP INDEX bookings_provider_list;
CREATE INDEX bookings_location_list ON bookings (location_id, start_at, id, status_id, scheduled);
CREATE INDEX bookings_client_list ON bookings (client_id, start_at, id, status_id, scheduled);
CREATE INDEX bookings_service_list ON bookings (service_id, start_at, id, status_id, scheduled);
CREATE INDEX bookings_provider_list ON bookings (provider_id, start_at, id, status_id, scheduled);
