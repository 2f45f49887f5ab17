package clients

import (
	"context"
	"time"

	"frontdesk/db"
)

// Validate checks in exactly as Create would check it for a new client, without writing: a
// caller that may end up using an existing client instead (the booking site matches visitors
// by email or phone) still refuses the same inputs either way, so its answers reveal nothing
// about who is already a client. Errors is the only error for a bad input.
func Validate(ctx context.Context, q *db.Queries, now time.Time, in Input, o Options) error {
	templates, err := loadTemplates(ctx, q)
	if err != nil {
		return err
	}
	_, _, err = merge(db.Client{Active: true}, nil, in, templates, o, now)
	return err
}
