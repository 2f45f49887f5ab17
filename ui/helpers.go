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
