package admin

import (
	"context"
	"errors"

	"frontdesk/app/catalog"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Times of day are typed as text on the business's clock (ui.ClockField) and read here, the
// one reader of every admin form that asks for one.

// readClock reads form field name as a time of day on the business's clock, in minutes after
// midnight; when it is not one it sets the field's error, in the reader's language, and
// returns false.
func readClock(ctx context.Context, f *ui.Form, name string) (int, bool) {
	h, m, err := i18n.From(ctx).ParseClock(f.Get(name))
	switch {
	case errors.Is(err, i18n.ErrClockAmPm):
		f.SetError(name, i18n.T(ctx, "form.time.ampm", "example", ui.ClockExample(ctx)))
		return 0, false
	case err != nil:
		f.SetError(name, i18n.T(ctx, "form.time.error", "example", ui.ClockExample(ctx)))
		return 0, false
	}
	return h*60 + m, true
}

// clockText is minute m after midnight as a time-of-day field shows it: on the business's
// clock, as the owner would type it.
func clockText(ctx context.Context, m int) string { return i18n.From(ctx).Clock(m/60, m%60) }

// normalizeClock rewrites field name, when it holds a time of day, on the business's clock: a
// link's "14:30" shows as "2:30 PM" to a 12-hour business. Anything else is left as it is.
func normalizeClock(ctx context.Context, f *ui.Form, name string) {
	if h, m, err := i18n.From(ctx).ParseClock(f.Get(name)); err == nil {
		f.Set(name, clockText(ctx, h*60+m))
	}
}

// clock12 reports whether the business writes times on a 12-hour clock.
func clock12(ctx context.Context) bool { return !i18n.From(ctx).Prefs().Clock24 }

// hoursClock writes the times of weekly hours fields on the business's clock; 24:00, which
// only ends a day, stays 24:00.
func hoursClock(ctx context.Context) catalog.Clock {
	return func(m int64) string {
		if m == 24*60 {
			return "24:00"
		}
		return clockText(ctx, int(m))
	}
}
