package admin

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"frontdesk/app/booking"
	"frontdesk/ui"
)

// createSeries books the new booking's form as a series (docs/visits.md, "Series") through the
// one series function the API and MCP call: every date at the same local time, checked and
// written as one booking is, in one transaction. Dates not free are named on the form (book
// nothing) or in the message after booking the free ones.
func (a *Admin) createSeries(w http.ResponseWriter, r *http.Request, f *ui.Form, nb booking.NewBooking, offsets []ui.Option) {
	ctx := r.Context()
	count, _ := strconv.Atoi(strings.TrimSpace(f.Get("repeat_count")))
	interval, _ := strconv.Atoi(strings.TrimSpace(f.Get("repeat_interval")))
	req := booking.SeriesRequest{NewBooking: nb, Mode: f.Get("repeat_mode"),
		Repeat: booking.Repeat{Freq: f.Get("repeat"), IntervalWeeks: interval, Count: count}}
	if req.Mode == "" {
		req.Mode = booking.SeriesFreeOnes
	}
	res, err := booking.BookSeries(ctx, a.db, a.now(), req)
	var se *booking.SeriesUnavailableError
	var inv *booking.InvalidError
	switch {
	case errors.As(err, &se):
		f.SetError("repeat", translate(r, "booking.series.unavailable", "dates", dateList(se.Dates)))
		a.showNewBooking(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	case errors.As(err, &inv) && strings.HasPrefix(inv.Field, "repeat"):
		f.SetError("repeat_count", inv.Message)
		a.showNewBooking(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	case a.bookingRefused(ctx, f, err, conflictQuery{providerID: nb.ProviderID, serviceID: nb.ServiceID, start: nb.Start}, nil):
		a.showNewBooking(w, r, http.StatusUnprocessableEntity, f, offsets)
		return
	case err != nil:
		a.renderError(w, r, err)
		return
	}
	var booked, skipped []booking.Date
	var first *booking.View
	for _, o := range res.Occurrences {
		if o.Booking == nil {
			skipped = append(skipped, o.Date)
			continue
		}
		if first == nil {
			first = o.Booking
		}
		booked = append(booked, o.Date)
	}
	s := a.summary(ctx, *first)
	a.flash(ctx, ui.FlashSuccess, translate(r, "bookings.series_created", "count", len(booked), "client", s.Client, "dates", dateList(booked)))
	if len(skipped) > 0 {
		a.flash(ctx, ui.FlashInfo, translate(r, "bookings.series_skipped", "dates", dateList(skipped)))
	}
	seeOther(w, r, s.DayURL)
}

func dateList(ds []booking.Date) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}
