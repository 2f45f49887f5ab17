package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// book_series books a repeating appointment through app/booking's one series function, as /v3
// does (docs/visits.md, "Series"): check first, then book all or only the free dates.

var seriesTool = toolSpec{
	name: "book_series", title: "Book a repeating appointment", scope: "bookings:write",
	description: "Repeats the time a find_free_times slot_id names, for a client (client_id from " +
		"find_or_create_client): weekly (every `interval` weeks) or monthly on the same weekday of the " +
		"month (week_of_month 1-4, or -1 for the last; default the slot's own), `count` times (at most 52, " +
		"within a year), always at the same local time. mode: `check` only says which dates are free " +
		"(call it first and tell the customer); `all_or_nothing` books every date or none; `free_ones` " +
		"books the free dates and leaves the others. The customer gets one confirmation listing the dates.",
	input: object([]string{"slot_id", "client_id", "frequency", "count", "mode"},
		stringArg("slot_id", "A slot_id from find_free_times: the first date and the time.", maxSlotID),
		idArg("client_id", "The customer, from find_or_create_client."),
		enumArg("frequency", "weekly or monthly.", "weekly", "monthly"),
		intArg("interval", "weekly: every so many weeks (default 1).", 1, booking.MaxOccurrences),
		intArg("week_of_month", "monthly: which weekday of the month, 1-4 or -1 for the last.", -1, 4),
		intArg("count", "How many dates, the first included.", 1, booking.MaxOccurrences),
		enumArg("mode", "check, all_or_nothing or free_ones.", "check", booking.SeriesAllOrNothing, booking.SeriesFreeOnes),
	),
}

type seriesArgs struct {
	SlotID      string `json:"slot_id"`
	ClientID    int64  `json:"client_id"`
	Frequency   string `json:"frequency"`
	Interval    int    `json:"interval"`
	WeekOfMonth int    `json:"week_of_month"`
	Count       int    `json:"count"`
	Mode        string `json:"mode"`
}

type seriesDateOut struct {
	Date    string      `json:"date"`
	Status  string      `json:"status"` // free, booked, taken or unavailable
	Reason  string      `json:"reason,omitempty"`
	Booking *bookingOut `json:"booking,omitempty"`
}

type seriesOut struct {
	SeriesID int64           `json:"series_id,omitempty"`
	Dates    []seriesDateOut `json:"dates"`
}

func (s *Server) bookSeries(ctx context.Context, c call, in *seriesArgs) (answer, error) {
	ref, err := s.slotArg(ctx, in.SlotID)
	if err != nil {
		return answer{}, err
	}
	if err := requiredID("client_id", in.ClientID); err != nil {
		return answer{}, err
	}
	req := booking.SeriesRequest{
		NewBooking: booking.NewBooking{LocationID: ref.LocationID, ServiceID: ref.ServiceID, ProviderID: ref.ProviderID,
			ClientID: in.ClientID, StatusID: booking.StatusConfirmed, Start: ref.Start, Source: booking.SourceMCP},
		Repeat: booking.Repeat{Freq: in.Frequency, IntervalWeeks: in.Interval, WeekOfMonth: in.WeekOfMonth, Count: in.Count},
		Mode:   in.Mode,
	}
	ctx = db.WithCatalogVersion(ctx, c.key.CatalogVersion)
	var out seriesOut
	var occ []booking.Occurrence
	if in.Mode == "check" {
		occ, err = booking.CheckSeries(ctx, s.db, s.now(), req)
	} else {
		var res booking.SeriesResult
		res, err = booking.BookSeries(ctx, s.db, s.now(), req)
		occ, out.SeriesID = res.Occurrences, res.SeriesID
	}
	var se *booking.SeriesUnavailableError
	if errors.As(err, &se) {
		return answer{}, &toolError{Kind: kindTaken, Field: "slot_id",
			Message: "these dates are not free, so nothing was booked: " + dateList(se.Dates) + ". Ask the customer whether to book only the free dates (mode free_ones)"}
	}
	if err != nil {
		return answer{}, err
	}
	var booked, free []string
	for _, o := range occ {
		d := seriesDateOut{Date: o.Date.String(), Status: "free", Reason: o.Reason}
		switch {
		case o.Booking != nil:
			b, err := s.bookingOut(ctx, *o.Booking)
			if err != nil {
				return answer{}, err
			}
			d.Status, d.Booking, d.Reason = "booked", &b, ""
			booked = append(booked, d.Date)
		case o.Reason == booking.ReasonTaken:
			d.Status = "taken"
		case !o.Free:
			d.Status = "unavailable"
		default:
			free = append(free, d.Date)
		}
		out.Dates = append(out.Dates, d)
	}
	if in.Mode == "check" {
		return answer{data: out, text: fmt.Sprintf("%d of %d dates are free: %s.", len(free), len(occ), strings.Join(free, ", "))}, nil
	}
	return answer{data: out, text: fmt.Sprintf("Booked %d dates: %s.", len(booked), strings.Join(booked, ", "))}, nil
}

func dateList(ds []booking.Date) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}
