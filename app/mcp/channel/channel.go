// Package channel holds the owner's switches of the MCP endpoint (docs/mcp.md): the channel as
// a whole, and per API key whether it may be used over MCP. The admin's Settings → Integrations
// and the CLI write them here; app/mcp (access.go) reads both on every request. A package of
// its own so that the admin and the CLI need nothing of the endpoint itself.
package channel

import (
	"context"
	"errors"
	"time"

	"frontdesk/db"
)

// ErrKeyNotFound is AllowKey for a key that does not exist or is revoked.
var ErrKeyNotFound = errors.New("no such active API key")

// Enabled reports whether the MCP channel is on.
func Enabled(ctx context.Context, d *db.DB) (bool, error) {
	s, err := d.R.MCPSettings(ctx)
	return s.Enabled, err
}

// SetEnabled switches the MCP channel on or off for every key.
func SetEnabled(ctx context.Context, d *db.DB, now time.Time, on bool) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		return q.SetMCPEnabled(ctx, db.SetMCPEnabledParams{Enabled: on, UpdatedAt: db.Millis(now)})
	})
}

// AllowKey sets whether the active API key keyID may be used over MCP.
func AllowKey(ctx context.Context, d *db.DB, keyID int64, allowed bool) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		n, err := q.SetAPIKeyMCP(ctx, db.SetAPIKeyMCPParams{MCPAllowed: allowed, ID: keyID})
		if err == nil && n == 0 {
			err = ErrKeyNotFound
		}
		return err
	})
}
