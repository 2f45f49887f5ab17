package ui

import (
	"context"
	"strconv"

	"frontdesk/ui/i18n"
)

func itoa(i int) string { return strconv.Itoa(i) }

func itoa64(i int64) string { return strconv.FormatInt(i, 10) }

// clockName is the business's clock as the admin script reads it from data-local: "12h" or
// "24h".
func clockName(ctx context.Context) string {
	if i18n.From(ctx).Prefs().Clock24 {
		return "24h"
	}
	return "12h"
}

// clockPattern is what a time-of-day field accepts, for the browser's own check before
// sending: hours, optional minutes, optional am/pm ("14:30", "2:30 PM", "2:30 p. m."). The
// server reads it with i18n.ParseClock, which also decides what the business's clock allows.
const clockPattern = `\s*[0-9]{1,2}(:[0-9]{2})?\s*([AaPp]\.?\s*[Mm]\.?)?\s*`

// ClockField makes f a time-of-day field on the business's clock: a text input, since an
// <input type=time> draws the browser's locale's clock, which no page can change (a 12-hour
// picker for a 24-hour business); with the expected form in its hint ("Like 14:30", or
// "Like 2:30 PM" on a 12-hour clock). Handlers read it with i18n.ParseClock.
func ClockField(ctx context.Context, f Field) Field {
	example := ClockExample(ctx)
	hint := i18n.T(ctx, "form.time.hint", "example", example)
	if f.Hint != "" {
		hint = f.Hint + " " + hint
	}
	f.Type, f.Hint, f.Autocomplete = "text", hint, "off"
	attrs := map[string]any{"pattern": clockPattern, "title": i18n.T(ctx, "form.time.hint", "example", example), "size": "10", "maxlength": "16"}
	for k, v := range f.Attrs {
		attrs[k] = v
	}
	f.Attrs = attrs
	return f
}

// ClockExample is 14:30 on the business's clock, the example time-of-day fields give.
func ClockExample(ctx context.Context) string { return i18n.From(ctx).Clock(14, 30) }

// clockRange is open-close (minutes after midnight) as a weekly hours field takes it, on the
// business's clock: "09:00-13:00" or "9:00 AM-1:00 PM".
func clockRange(ctx context.Context, open, close int) string {
	p := i18n.From(ctx)
	return p.Clock(open/60, open%60) + "-" + p.Clock(close/60, close%60)
}

// boolText is b as an attribute value: "true" or "false".
func boolText(b bool) string { return strconv.FormatBool(b) }
