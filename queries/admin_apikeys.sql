-- API keys as the admin UI needs them (app/admin/apikeys.go); creation is apikey.Create.

-- name: GetAPIKeyByID :one
SELECT * FROM api_keys WHERE id = ?;
