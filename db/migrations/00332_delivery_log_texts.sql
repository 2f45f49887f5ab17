-- A compact delivery log (docs/webhooks.md, "The delivery log"). An attempt row used to carry
-- its request headers, response headers and response body in full: some 500 bytes per
-- attempt, most of it the same for every attempt to an endpoint (the receiver's "ok", its
-- Content-Type, our User-Agent). In a ten-minute soak 90 % of the database was attempt log.
-- Each distinct text is now stored once in delivery_texts and attempts point at it; what
-- differs per attempt stays on the row, small:
--   - signature: the webhook-signature sent. The request's other Standard Webhooks headers are
--     the event id (webhook-id) and started_at in seconds (webhook-timestamp), so the log
--     rebuilds them; request_headers_id is the rest (Content-Type, User-Agent). NULL on rows
--     moved here from before, whose request_headers_id text is the whole header block.
--   - response_date: the receiver's Date header, which changes every second; the rest of its
--     headers is response_headers_id.
-- The event body itself was always stored once, in events.
-- A text's last_used_at is refreshed at most hourly by the writer; the pruner deletes texts
-- unused for longer than the log's retention plus that margin, after the attempts.

-- +goose Up
CREATE TABLE delivery_texts (
    id           INTEGER PRIMARY KEY,
    text         TEXT    NOT NULL UNIQUE,
    last_used_at INTEGER NOT NULL
);
CREATE INDEX delivery_texts_last_used ON delivery_texts (last_used_at);

ALTER TABLE delivery_attempts ADD COLUMN request_headers_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE delivery_attempts ADD COLUMN response_headers_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE delivery_attempts ADD COLUMN response_body_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE delivery_attempts ADD COLUMN signature TEXT;
ALTER TABLE delivery_attempts ADD COLUMN response_date TEXT;

INSERT INTO delivery_texts (text, last_used_at)
SELECT t, max(at) FROM (
    SELECT request_headers AS t, started_at AS at FROM delivery_attempts
    UNION ALL SELECT response_headers, started_at FROM delivery_attempts
    UNION ALL SELECT response_body, started_at FROM delivery_attempts
) GROUP BY t;

UPDATE delivery_attempts SET
    request_headers_id = (SELECT t.id FROM delivery_texts t WHERE t.text = request_headers),
    response_headers_id = (SELECT t.id FROM delivery_texts t WHERE t.text = response_headers),
    response_body_id = (SELECT t.id FROM delivery_texts t WHERE t.text = response_body);

ALTER TABLE delivery_attempts DROP COLUMN request_headers;
ALTER TABLE delivery_attempts DROP COLUMN response_headers;
ALTER TABLE delivery_attempts DROP COLUMN response_body;
