package admin

import (
	"context"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// recordSettings writes the activity entry of a settings page saved in transaction q: which
// fields changed, as settings.updated about the section (business, booking_site). A save that
// changed nothing records nothing.
func recordSettings(ctx context.Context, q *db.Queries, now time.Time, section string, ch activity.Changes) error {
	if len(ch) == 0 {
		return nil
	}
	return activity.Record(ctx, q, now, activity.Entry{Action: "settings.updated", Entity: "settings." + section, Changes: ch})
}
