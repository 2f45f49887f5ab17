package catalog

import (
	"context"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
)

// unrecorded are columns the activity trail leaves out of catalog entries: ids and the times
// every write moves.
var unrecorded = []string{"id", "uuid", "created_at", "updated_at"}

// record writes the activity entry of a catalog change inside its transaction q.
func record(ctx context.Context, q *db.Queries, now time.Time, action string, id int64, ch activity.Changes) error {
	return activity.Record(ctx, q, now, activity.Entry{Action: action, EntityID: id, Changes: ch})
}

// markLinks marks, without values, that a record's linked lists changed (providers, images,
// hours): they are many rows, and the page shows them whole.
func markLinks(ch activity.Changes, field string, changed bool) activity.Changes {
	if changed {
		ch[field] = [2]any{nil, nil}
	}
	return ch
}
