-- Every slot query reads the blocks of a location's providers around the dates asked about (200
-- bookings on a busy day of ten providers), and every booking checks the same index for
-- overlap. With the block's end and the status in the index those reads never fetch the
-- booking rows themselves; the index replaces the plain (provider_id, block_start_at) one,
-- whose queries (and the overlap triggers) it serves just as well.

-- +goose Up
CREATE INDEX bookings_provider_blocks ON bookings (provider_id, block_start_at, block_end_at, status_id);
DROP INDEX bookings_provider_block;
