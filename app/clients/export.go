package clients

import (
	"context"
	"time"

	"frontdesk/db"
)

// Export is everything stored about one client, as one document (GDPR art. 15 and 20): the
// client as the API shows it, and the stored rows of each section — profile, custom attributes,
// bookings, messages sent to them, sales and their payments, packs, waitlist entries, the
// team's notes about them.
type Export struct {
	ExportedAt string              `json:"exported_at"`
	Client     any                 `json:"client"`
	Sections   map[string][]db.Row `json:"sections"`
}

// ExportClient reads client id's export in one read transaction, so the sections agree.
func ExportClient(ctx context.Context, d *db.DB, now time.Time, id int64) (Export, error) {
	out := Export{ExportedAt: now.UTC().Format(time.RFC3339)}
	err := d.ReadTx(ctx, func(q *db.Queries) error {
		c, err := Load(ctx, q, id)
		if err != nil {
			return err
		}
		out.Client = c
		out.Sections, err = q.ClientRows(ctx, id)
		return err
	})
	return out, err
}
