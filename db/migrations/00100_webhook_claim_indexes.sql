-- One index for every pending delivery, replacing deliveries_due (00001) and
-- deliveries_webhook_due (00030). Each delivery enters it when it is created, moves in it when
-- the dispatcher claims it and leaves it when it is done, so every index less here is less work
-- for the single writer on each of those three writes, and one page less for each commit.
--
-- The dispatcher claims per endpoint, first attempts before retries (SPEC §6), each in due
-- order: the middle column, attempts > series_base, is 0 for a first attempt of its series and 1
-- for a retry, so each kind is one range of the index. Before, looking for an endpoint's first
-- attempts stepped over all its due retries (thousands when it is failing). Queries that want
-- every pending delivery (counts, the oldest, releasing claims at start) scan this index, which
-- holds only pending rows.

-- +goose Up
DROP INDEX deliveries_due;
DROP INDEX deliveries_webhook_due;
CREATE INDEX deliveries_pending ON deliveries (webhook_id, attempts > series_base, next_attempt_at)
    WHERE state = 'pending';
