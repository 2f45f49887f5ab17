package booking

import (
	"context"
	"fmt"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// ClassSettings are the owner's rules for classes and packs (table class_settings; the company
// table belongs to the business settings).
type ClassSettings struct {
	// PackExpiryDays is how long a pack stays usable after it is paid; 0: packs never expire.
	// A pack's expiry is fixed when it is credited, so a change applies to packs sold later.
	PackExpiryDays int
	// WaitlistCutoff: a freed seat goes to the first waiting client only while the session is
	// more than this far away; later it stays free for anyone to book.
	WaitlistCutoff time.Duration
}

// Limits of the settings (the CHECKs on class_settings).
const (
	MaxPackExpiryDays = 3650
	MaxWaitlistCutoff = 7 * 24 * time.Hour
)

// GetClassSettings reads the settings with q.
func GetClassSettings(ctx context.Context, q *db.Queries) (ClassSettings, error) {
	r, err := q.GetClassSettings(ctx)
	if err != nil {
		return ClassSettings{}, fmt.Errorf("class settings: %w", err)
	}
	return ClassSettings{PackExpiryDays: int(r.PackExpiryDays), WaitlistCutoff: time.Duration(r.WaitlistCutoffMin) * time.Minute}, nil
}

// UpdateClassSettings validates and stores s. Errors: *InvalidError naming the field
// (pack_expiry_days, waitlist_cutoff_min).
func UpdateClassSettings(ctx context.Context, d *db.DB, now time.Time, s ClassSettings) error {
	switch {
	case s.PackExpiryDays < 0 || s.PackExpiryDays > MaxPackExpiryDays:
		return invalid("pack_expiry_days", "must be between 0 (never) and %d", MaxPackExpiryDays).with(i18n.M("form.whole_number", "min", 0, "max", MaxPackExpiryDays))
	case s.WaitlistCutoff < 0 || s.WaitlistCutoff > MaxWaitlistCutoff || s.WaitlistCutoff%time.Minute != 0:
		return invalid("waitlist_cutoff_min", "must be a whole number of minutes between 0 and %d", int(MaxWaitlistCutoff/time.Minute)).
			with(i18n.M("form.whole_number", "min", 0, "max", int(MaxWaitlistCutoff/time.Minute)))
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		return q.UpdateClassSettings(ctx, db.UpdateClassSettingsParams{
			PackExpiryDays: int64(s.PackExpiryDays), WaitlistCutoffMin: int64(s.WaitlistCutoff / time.Minute), UpdatedAt: db.Millis(now),
		})
	})
}
