package messages

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// SeriesBooked is called by app/booking inside the transaction that booked the occurrences of a
// series (bookingIDs, in time order), after each was planned its messages as any new booking
// is: the client gets one confirmation, the first occurrence's, which lists every date
// (withSeries); the others' confirmations, written a moment ago in this very transaction, are
// dropped. Each occurrence keeps its own reminders.
func SeriesBooked(ctx context.Context, q *db.Queries, now time.Time, bookingIDs []int64) error {
	for _, id := range bookingIDs[min(1, len(bookingIDs)):] {
		if err := q.DropNewConfirmations(ctx, sql.NullInt64{Int64: id, Valid: true}); err != nil {
			return fmt.Errorf("series confirmation: %w", err)
		}
	}
	return nil
}

// seriesDates are the live occurrences of the series booking id belongs to, from it on, when
// there is more than that booking itself.
func seriesDates(ctx context.Context, q *db.Queries, id int64) ([]time.Time, error) {
	rows, err := q.MessageSeriesDates(ctx, id)
	if err != nil || len(rows) < 2 {
		return nil, err
	}
	out := make([]time.Time, len(rows))
	for i, ms := range rows {
		out[i] = db.Time(ms)
	}
	return out, nil
}

// withSeries adds the dates of a series to the end of a confirmation's text and HTML parts.
func withSeries(p *i18n.Printer, c Rendered, dates []time.Time, zone *time.Location, business string) (Rendered, error) {
	var b strings.Builder
	b.WriteString("\n" + p.T("messages.series.dates", "count", len(dates)) + "\n")
	for _, t := range dates {
		t = t.In(zone)
		b.WriteString("- " + p.T("messages.when", "date", p.DateLong(t), "time", p.Time(t), "zone", zoneName(zone, t)) + "\n")
	}
	c.Text = strings.TrimRight(c.Text, "\n") + "\n" + b.String()
	html, err := htmlPart(c.Text, business)
	if err != nil {
		return c, err
	}
	c.HTML = html
	return c, nil
}
