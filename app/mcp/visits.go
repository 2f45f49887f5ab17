package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"frontdesk/app/booking"
	"frontdesk/app/idempotency"
	"frontdesk/app/money"
	"frontdesk/app/payments"
	"frontdesk/db"
)

// Visits (docs/visits.md): several services back to back, found and booked through the same
// domain functions /v3 calls (booking.VisitSlots, booking.BookVisit) with source "mcp".

const maxVisitServices = 8

func idsArg(name, description string) prop {
	return prop{name, &jsonschema.Schema{Type: "array", MinItems: ptr(1), MaxItems: ptr(maxVisitServices), Description: description,
		Items: &jsonschema.Schema{Type: "integer", Minimum: ptr(1.0)}}}
}

var findVisitTimesTool = toolSpec{
	name: "find_visit_times", title: "Find free times for several services", readOnly: true, idempotent: true, scope: "bookings:read",
	description: "Finds the times at which several services can be booked one after the other in one visit " +
		"(\"cut and colour\"), on one date. Each time lists who does each service and when. Book it with " +
		"book_visit, passing its starts_at exactly.",
	input: object([]string{"location_id", "service_ids", "date"},
		idArg("location_id", "The location, from list_locations."),
		idsArg("service_ids", "The services in the order the customer wants them, from list_services."),
		stringArg("date", "The date: YYYY-MM-DD, or what the customer said (\"tomorrow\"), read in the location's calendar.", maxPhrase),
		intArg("limit", "Most times to return (1-100, default 40).", 1, 100),
	),
}

type findVisitTimesArgs struct {
	LocationID int64   `json:"location_id"`
	ServiceIDs []int64 `json:"service_ids"`
	Date       string  `json:"date"`
	Limit      *int64  `json:"limit"`
}

type visitPartOut struct {
	ServiceID    int64  `json:"service_id"`
	ProviderID   int64  `json:"provider_id"`
	ProviderName string `json:"provider_name"`
	LocalTime    string `json:"local_time"`
	LocalEndTime string `json:"local_end_time"`
}

type visitTimeOut struct {
	StartsAt     string         `json:"starts_at"`
	EndsAt       string         `json:"ends_at"`
	LocalTime    string         `json:"local_time"`
	LocalEndTime string         `json:"local_end_time"`
	Price        string         `json:"price"`
	Parts        []visitPartOut `json:"parts"`
}

type visitTimesOut struct {
	TimeZone   string         `json:"time_zone"`
	Date       string         `json:"date"`
	Times      []visitTimeOut `json:"times"`
	TotalFound int            `json:"total_found"`
}

func visitSegments(ids []int64) ([]booking.VisitSegment, error) {
	if len(ids) == 0 || len(ids) > maxVisitServices {
		return nil, invalid("service_ids", "give 1 to %d services", maxVisitServices)
	}
	out := make([]booking.VisitSegment, len(ids))
	for i, id := range ids {
		if err := requiredID("service_ids", id); err != nil {
			return nil, err
		}
		out[i].ServiceID = id
	}
	return out, nil
}

func (s *Server) findVisitTimes(ctx context.Context, c call, in *findVisitTimesArgs) (answer, error) {
	if err := requiredID("location_id", in.LocationID); err != nil {
		return answer{}, err
	}
	segs, err := visitSegments(in.ServiceIDs)
	if err != nil {
		return answer{}, err
	}
	limit := int64(defaultLimit)
	if in.Limit != nil {
		if limit = *in.Limit; limit < 1 || limit > 100 {
			return answer{}, invalid("limit", "must be between 1 and 100")
		}
	}
	zone, err := s.locationZone(ctx, in.LocationID)
	if err != nil {
		return answer{}, err
	}
	now := s.now()
	rd, err := s.dateArg("date", in.Date, booking.DateOf(now.In(zone)))
	if err != nil {
		return answer{}, err
	}
	slots, err := booking.VisitSlots(db.WithCatalogVersion(ctx, c.key.CatalogVersion), s.db, now, in.LocationID, segs, rd.Date, rd.Date, booking.SourceMCP)
	if err != nil {
		return answer{}, err
	}
	out := visitTimesOut{TimeZone: zone.String(), Date: rd.Date.String(), TotalFound: len(slots), Times: []visitTimeOut{}}
	for i, v := range slots {
		if int64(i) >= limit {
			break
		}
		t := visitTimeOut{
			StartsAt: v.Start.In(zone).Format(time.RFC3339), EndsAt: v.End.In(zone).Format(time.RFC3339),
			LocalTime: v.Start.In(zone).Format("15:04"), LocalEndTime: v.End.In(zone).Format("15:04"),
			Price: money.Cents(v.PriceCents).String(),
		}
		for _, p := range v.Parts {
			t.Parts = append(t.Parts, visitPartOut{ServiceID: p.ServiceID, ProviderID: p.ProviderID, ProviderName: p.ProviderName,
				LocalTime: p.Start.In(zone).Format("15:04"), LocalEndTime: p.End.In(zone).Format("15:04")})
		}
		out.Times = append(out.Times, t)
	}
	text := fmt.Sprintf("%d times on %s for the visit.", len(slots), rd.Date)
	if len(slots) == 0 {
		text = "No time that day fits all those services one after the other; try another date."
	}
	return answer{data: out, text: text}, nil
}

var bookVisitTool = toolSpec{
	name: "book_visit", title: "Book several services as one visit", scope: "bookings:write", idempotent: true,
	description: "Books several services one after the other as one visit, all or nothing, at a starts_at " +
		"from find_visit_times, for a client (client_id from find_or_create_client). Confirm the services, " +
		"date and time with the customer first. idempotency_key: a new unique string for each visit you mean " +
		"to book; the same key again only to retry this same call. With pay_online the visit is held for one " +
		"online payment of its total: give the customer the checkout_url answered; unpaid, the visit is released " +
		"when the payment request expires.",
	input: object([]string{"location_id", "service_ids", "starts_at", "client_id", "idempotency_key"},
		idArg("location_id", "The location, from list_locations."),
		idsArg("service_ids", "The services in order, as given to find_visit_times."),
		patternArg("starts_at", "The starts_at of a time find_visit_times listed, exactly.", `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2}|Z)$`, 32),
		idArg("client_id", "The customer, from find_or_create_client."),
		patternArg("idempotency_key", "A unique string per visit (1-255 printable ASCII characters), e.g. a UUID.", `^[ -~]{1,255}$`, idempotency.MaxKey),
		boolArg("pay_online", "true: the customer pays the visit online. Every booking of it is reserved (not confirmed) "+
			"until one payment of the visit's total is made through the checkout_url answered; only when the business "+
			"takes online payments. Default false: booked confirmed, paid at the business."),
	),
}

type bookVisitArgs struct {
	LocationID     int64   `json:"location_id"`
	ServiceIDs     []int64 `json:"service_ids"`
	StartsAt       string  `json:"starts_at"`
	ClientID       int64   `json:"client_id"`
	IdempotencyKey string  `json:"idempotency_key"`
	PayOnline      bool    `json:"pay_online"`
}

type visitOut struct {
	VisitID    int64        `json:"visit_id"`
	Bookings   []bookingOut `json:"bookings"`
	TotalPrice string       `json:"total_price"`
	// Payment is the visit's one payment request, when booked with pay_online.
	Payment *visitPaymentOut `json:"payment,omitempty"`
}

// visitPaymentOut is what the customer pays online for a visit, and where.
type visitPaymentOut struct {
	PaymentRequestID int64  `json:"payment_request_id"`
	Amount           string `json:"amount"`
	CheckoutURL      string `json:"checkout_url"`
}

type storedVisit struct {
	Data visitOut `json:"data"`
	Text string   `json:"text"`
}

func (s *Server) bookVisit(ctx context.Context, c call, in *bookVisitArgs) (answer, error) {
	for _, f := range []struct {
		name string
		v    int64
	}{{"location_id", in.LocationID}, {"client_id", in.ClientID}} {
		if err := requiredID(f.name, f.v); err != nil {
			return answer{}, err
		}
	}
	segs, err := visitSegments(in.ServiceIDs)
	if err != nil {
		return answer{}, err
	}
	start, err := time.Parse(time.RFC3339, strings.TrimSpace(in.StartsAt))
	if err != nil {
		return answer{}, invalid("starts_at", "must be a starts_at from find_visit_times, e.g. 2026-03-10T10:00:00-03:00")
	}
	if !idempotency.ValidKey(in.IdempotencyKey) {
		return answer{}, invalid("idempotency_key", "is required: 1 to 255 printable ASCII characters, e.g. a UUID, new for each visit")
	}
	req := idempotency.Request{
		APIKeyID: c.key.ID, Key: in.IdempotencyKey, Method: "MCP", Path: "tools/book_visit",
		RequestHash: argsHash(fmt.Sprint(in.LocationID), fmt.Sprint(in.ServiceIDs), start.UTC().String(), fmt.Sprint(in.ClientID), fmt.Sprint(in.PayOnline)),
	}
	claimed, err := idempotency.Claim(ctx, s.db, s.now(), req)
	if err != nil {
		return answer{}, err
	}
	switch claimed.Outcome {
	case idempotency.Reused:
		return answer{}, invalid("idempotency_key", "was already used for a different visit; use a new key for each visit")
	case idempotency.InProgress:
		return answer{}, &toolError{Kind: kindRetry, Message: "a call with this idempotency_key is still running; wait a moment and call again with the same key"}
	case idempotency.Replay:
		var st storedVisit
		if err := json.Unmarshal(claimed.Body, &st); err != nil {
			return answer{}, fmt.Errorf("stored answer of idempotency key: %w", err)
		}
		return answer{data: st.Data, text: st.Text + " (Already booked by an earlier call with the same idempotency_key.)"}, nil
	}
	detached := context.WithoutCancel(ctx)
	nv := booking.NewVisit{
		LocationID: in.LocationID, ClientID: in.ClientID, Segments: segs, Start: start,
		StatusID: booking.StatusConfirmed, Source: booking.SourceMCP,
	}
	bookCtx := db.WithCatalogVersion(ctx, c.key.CatalogVersion)
	var v booking.Visit
	var pay *visitPaymentOut
	if in.PayOnline {
		// Every booking reserved for one payment request covering the visit's total, as
		// POST /v3/visits with pay_online.
		var pr db.PaymentRequest
		pr, v, err = payments.ReserveVisit(bookCtx, s.db, s.now(), nv, s.links.String(), 0)
		if err == nil {
			pay = &visitPaymentOut{PaymentRequestID: pr.ID, Amount: money.Cents(pr.AmountCents).String(), CheckoutURL: pr.CheckoutURL}
		}
		var re *payments.RefusedError
		if errors.As(err, &re) && re.Code == payments.CodePaymentsDisabled {
			err = &toolError{Kind: kindRefused, Field: "pay_online", Message: "this business does not take online payments; book without pay_online, to be paid at the business"}
		}
	} else {
		v, err = booking.BookVisit(bookCtx, s.db, s.now(), nv)
	}
	if err != nil {
		if rerr := idempotency.Release(detached, s.db, req.APIKeyID, req.Key); rerr != nil {
			s.log.ErrorContext(ctx, "mcp: release idempotency key", "err", rerr)
		}
		return answer{}, err
	}
	out := visitOut{VisitID: v.ID, TotalPrice: money.Cents(v.PriceCents).String(), Payment: pay}
	var lines []string
	for _, b := range v.Bookings {
		bo, err := s.bookingOut(ctx, b)
		if err != nil {
			return answer{}, err
		}
		out.Bookings = append(out.Bookings, bo)
		lines = append(lines, bookingText(bo))
	}
	a := answer{data: out, text: "Booked the visit. " + strings.Join(lines, " ")}
	if pay != nil {
		a.text = "Booked the visit, held until it is paid online: give the customer this checkout link to pay " + pay.Amount + ": " +
			pay.CheckoutURL + " (unpaid, the visit is released when the payment request expires). " + strings.Join(lines, " ")
	}
	body, err := json.Marshal(storedVisit{Data: out, Text: a.text})
	if err == nil {
		err = idempotency.Complete(detached, s.db, req.APIKeyID, req.Key, 200, body)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "mcp: record idempotent answer", "err", err)
	}
	return a, nil
}
