-- name: RecordAppVersion :exec
INSERT INTO app_versions (version, schema_version, recorded_at) VALUES (?, ?, ?);

-- name: LastAppVersion :one
SELECT version, schema_version, recorded_at FROM app_versions ORDER BY id DESC LIMIT 1;
