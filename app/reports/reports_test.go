package reports_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/reports"
	"frontdesk/db"
	"frontdesk/db/dbtest"
)

// The fixture business is in America/Santiago, where 2026-09-06 (a Sunday) has 23 hours: the
// clocks jump from 00:00 to 01:00. The report is September 2026 (30 days, so day buckets); the
// previous period is the 30 days before it, 2026-08-02 to 2026-08-31.
//
// Locations: 1 Centro (open Mon–Sat 09:00–19:00, Sunday all day; closed 2026-09-18) and 2 Norte
// (Mon–Fri 09:00–18:00), both in Santiago. Cancel policy: a 24-hour lock window.
// Providers: 1 Ana at Centro Mon–Fri 09:00–18:00 less a 13:00–14:00 break (480 min) and Sunday
// 00:00–04:00 (240 min; 180 on the 23-hour day); 2 Beto at Centro Saturday 10:00–14:00 (240
// min); 3 Carla at Norte Mon–Fri 09:00–17:00 (480 min).
// Services: 1 Haircut (60 min), 2 Yoga (a class, capacity 4).
//
// Working minutes (from the engine), September:
//
//	Ana: weekdays 22 less the closure on Fri 18 = 21 × 480 = 10080; Sundays 6, 13, 20, 27 =
//	180 + 3 × 240 = 900; total 10980. Beto: Saturdays 5, 12, 19, 26 = 4 × 240 = 960. Carla: 22 ×
//	480 = 10560. All: 22500.
//
// August 2–31: Ana 21 weekdays × 480 + Sundays 2, 9, 16, 23, 30 × 240 = 10080 + 1200 = 11280;
//
//	Beto Saturdays 8, 15, 22, 29 = 960; Carla 21 × 480 = 10080. All: 22320.
//
// Bookings in September (client in brackets):
//
//	b1 Ana Tue 1 10:00 attended [Rosa]          b2 Ana Wed 2 10:00 no-show [Tomás]
//	b3 Ana Thu 3 10:00 cancelled on the booking site on Sep 1 (client, in time) [Uma]
//	b4 Ana Fri 4 10:00 cancelled in the admin on Sep 4 08:00 (business, late) [Uma]
//	b5 Ana Mon 7 10:00 cancelled in the admin on Sep 1 (business, in time) [Rosa]
//	b6 Ana Tue 8 10:00 reserved, released when its payment ended unpaid (unpaid) [Vera]
//	b7 Ana Sun 6 01:30–02:30, the 23-hour day, attended [Vera]
//	b8 Beto Sat 12 10:00 confirmed (open) [Wil]
//	b10 Ana Wed 9 10:00 cancelled before cancellations were recorded (not recorded) [Rosa]
//	Yoga session Beto Sat 19 12:00–13:00: Rosa attended (with her pack), Tomás attended, Wil
//	cancelled through MCP on Sep 10 (client, in time)
//	b9 Carla at Norte Mon 14 09:00–10:30 attended [Xia]
//
// August: p1 Ana Mon 3 10:00 attended [Rosa], p2 Ana Tue 4 10:00 no-show [Rosa].
//
// Sales in September:
//
//	A Centro, cash 24000, paid Tue 1 11:00: Haircut line 20000 (b1, Ana) + an add-on 5000 less
//	  1000 = 4000 → Haircut 20000, rest 4000; Ana 20000, rest 4000.
//	B Centro, card terminal 10000 of 30000, paid Mon 7 00:30 (-03; 03:30 UTC, which a fixed
//	  -04 offset would put on Sunday 6): a Yoga pack of 5 for Rosa → Yoga 10000, rest 10000.
//	C Norte, online 15000, paid Mon 14 10:30: Haircut 15000 (b9, Carla); 5000 refunded Tue
//	  15 12:00.
//	D Centro, cash 15001 of 20000, paid Sat 12 11:00: one Haircut line × 2 for b7 (Ana) and b8
//	  (Beto) → Haircut 15001; shared 7501 Ana (the earlier booking takes the odd cent), 7500
//	  Beto.
//
// August: P Centro cash 20000 paid Mon 3 11:00, Haircut for p1 (Ana).
type fixture struct {
	d    *db.DB
	zone *time.Location
}

func at(t *testing.T, zone *time.Location, s string) time.Time {
	t.Helper()
	tm, err := time.ParseInLocation("2006-01-02 15:04", s, zone)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	d := dbtest.Open(t, filepath.Join(t.TempDir(), db.FileName))
	zone, err := time.LoadLocation("America/Santiago")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ms := at(t, zone, "2026-07-01 09:00").UnixMilli()
	exec := func(q string, args ...any) int64 {
		t.Helper()
		res, err := d.Write.ExecContext(ctx, q, args...)
		if err != nil {
			t.Fatalf("seed: %v\n%s", err, q)
		}
		id, _ := res.LastInsertId()
		return id
	}
	exec(`INSERT INTO company (id, name, edit_lock_min, created_at, updated_at) VALUES (1, 'Studio', 1440, ?, ?)`, ms, ms)
	exec(`INSERT INTO countries (id, code, name) VALUES (1, 'CL', 'Chile')`)
	exec(`INSERT INTO locations (id, uuid, name, timezone, country_id, created_at, updated_at) VALUES
		(1, 'l1', 'Centro', 'America/Santiago', 1, ?, ?), (2, 'l2', 'Norte', 'America/Santiago', 1, ?, ?)`, ms, ms, ms, ms)
	exec(`INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (1, 0, 0, 1440)`)
	for day := 1; day <= 6; day++ {
		exec(`INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (1, ?, 540, 1140)`, day)
		if day <= 5 {
			exec(`INSERT INTO location_hours (location_id, day_id, open_min, close_min) VALUES (2, ?, 540, 1080)`, day)
		}
	}
	exec(`INSERT INTO location_closures (location_id, date) VALUES (1, '2026-09-18')`)
	exec(`INSERT INTO services (id, uuid, name, duration_min, price_cents, created_at, updated_at) VALUES (1, 's1', 'Haircut', 60, 20000, ?, ?)`, ms, ms)
	exec(`INSERT INTO services (id, uuid, name, duration_min, capacity, created_at, updated_at) VALUES (2, 's2', 'Yoga', 60, 4, ?, ?)`, ms, ms)
	for _, p := range []struct {
		id   int64
		name string
		loc  int64
	}{{1, "Ana", 1}, {2, "Beto", 1}, {3, "Carla", 2}} {
		exec(`INSERT INTO providers (id, public_name, location_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, p.id, p.name, p.loc, ms, ms)
		exec(`INSERT INTO provider_locations (provider_id, location_id) VALUES (?, ?)`, p.id, p.loc)
		exec(`INSERT INTO service_providers (service_id, provider_id) VALUES (1, ?), (2, ?)`, p.id, p.id)
	}
	for day := 1; day <= 5; day++ {
		h := exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (1, 1, ?, 540, 1080)`, day)
		exec(`INSERT INTO provider_breaks (hours_id, start_min, end_min) VALUES (?, 780, 840)`, h)
		exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (3, 2, ?, 540, 1020)`, day)
	}
	exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (1, 1, 0, 0, 240)`)
	exec(`INSERT INTO provider_hours (provider_id, location_id, day_id, open_min, close_min) VALUES (2, 1, 6, 600, 840)`)
	for i, name := range []string{"Rosa", "Tomás", "Uma", "Vera", "Wil", "Xia"} {
		exec(`INSERT INTO clients (id, first_name, created_at, updated_at) VALUES (?, ?, ?, ?)`, i+1, name, ms, ms)
	}
	const rosa, tomas, uma, vera, wil, xia = 1, 2, 3, 4, 5, 6

	book := func(loc, svc, prov, client, status int64, start, end time.Time, session, pack sql.NullInt64) int64 {
		return exec(`INSERT INTO bookings (location_id, service_id, provider_id, client_id, status_id, start_at, end_at,
			block_start_at, block_end_at, price_cents, list_price_cents, session_id, pack_id, source, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, 'admin', ?, ?)`,
			loc, svc, prov, client, status, start.UnixMilli(), end.UnixMilli(), start.UnixMilli(), end.UnixMilli(), session, pack, ms, ms)
	}
	none := sql.NullInt64{}
	hour := func(s string) (time.Time, time.Time) {
		st := at(t, zone, s)
		return st, st.Add(time.Hour)
	}
	haircut := func(prov, client, status int64, s string) int64 {
		st, en := hour(s)
		return book(1, 1, prov, client, status, st, en, none, none)
	}
	p1 := haircut(1, rosa, booking.StatusAttended, "2026-08-03 10:00")
	haircut(1, rosa, booking.StatusNoShow, "2026-08-04 10:00")
	b1 := haircut(1, rosa, booking.StatusAttended, "2026-09-01 10:00")
	haircut(1, tomas, booking.StatusNoShow, "2026-09-02 10:00")
	b3 := haircut(1, uma, booking.StatusConfirmed, "2026-09-03 10:00")
	b4 := haircut(1, uma, booking.StatusConfirmed, "2026-09-04 10:00")
	b5 := haircut(1, rosa, booking.StatusConfirmed, "2026-09-07 10:00")
	b6 := haircut(1, vera, booking.StatusReserved, "2026-09-08 10:00")
	b7 := haircut(1, vera, booking.StatusAttended, "2026-09-06 01:30")
	b8 := haircut(2, wil, booking.StatusConfirmed, "2026-09-12 10:00")
	b10 := haircut(1, rosa, booking.StatusConfirmed, "2026-09-09 10:00")
	// b10 was cancelled before who cancelled was recorded.
	exec(`UPDATE bookings SET status_id = 5 WHERE id = ?`, b10)
	st, _ := hour("2026-09-14 09:00")
	b9 := book(2, 1, 3, xia, booking.StatusAttended, st, st.Add(90*time.Minute), none, none)

	// Money.
	carts := 0
	cart := func(loc, client int64) int64 {
		carts++
		return exec(`INSERT INTO carts (uuid, client_id, location_id, created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			fmt.Sprint("cart-", carts), client, loc, ms, ms, ms)
	}
	line := func(cartID, itemID int64, kind string, qty, price int64, discount sql.NullInt64) {
		exec(`INSERT INTO cart_items (cart_id, item_id, item_type, quantity, unit_price_cents, unit_discount_cents, unit_discount_type)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, cartID, itemID, kind, qty, price, discount, sql.NullString{String: "amount", Valid: discount.Valid})
	}
	sale := func(cartID, loc, client, paid, pending, method int64, when string) int64 {
		paidAt := at(t, zone, when).UnixMilli()
		status := "paid"
		if pending > 0 {
			status = "partially_paid"
		}
		id := exec(`INSERT INTO sales (cart_id, client_id, location_id, status, paid_cents, pending_cents, paid_at, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, cartID, client, loc, status, paid, pending, paidAt, paidAt, paidAt)
		exec(`INSERT INTO transactions (sale_id, amount_cents, payment_method_id, paid_at, created_at) VALUES (?, ?, ?, ?, ?)`,
			id, paid, method, paidAt, paidAt)
		return id
	}
	link := func(saleID int64, bookings ...int64) {
		for _, b := range bookings {
			exec(`UPDATE bookings SET sale_id = ? WHERE id = ?`, saleID, b)
		}
	}
	cp := cart(1, rosa)
	line(cp, 1, "service", 1, 20000, none)
	link(sale(cp, 1, rosa, 20000, 0, 1, "2026-08-03 11:00"), p1)
	ca := cart(1, rosa)
	line(ca, 1, "service", 1, 20000, none)
	line(ca, 7, "addon", 1, 5000, sql.NullInt64{Int64: 1000, Valid: true})
	link(sale(ca, 1, rosa, 24000, 0, 1, "2026-09-01 11:00"), b1)
	cb := cart(1, rosa)
	line(cb, 2, "session", 1, 30000, none)
	saleB := sale(cb, 1, rosa, 10000, 20000, 2, "2026-09-07 00:30")
	packAt := at(t, zone, "2026-09-07 00:30").UnixMilli()
	pack := exec(`INSERT INTO client_packs (client_id, service_id, sessions_total, price_cents, sale_id, created_at, updated_at)
		VALUES (?, 2, 5, 30000, ?, ?, ?)`, rosa, saleB, packAt, packAt)
	cc := cart(2, xia)
	line(cc, 1, "service", 1, 15000, none)
	saleC := sale(cc, 2, xia, 15000, 0, 4, "2026-09-14 10:30")
	link(saleC, b9)
	pr := exec(`INSERT INTO payment_requests (uuid, cart_id, amount_cents, status, created_at, updated_at) VALUES ('pr-c', ?, 15000, 'paid', ?, ?)`, cc, ms, ms)
	co := exec(`INSERT INTO online_checkouts (payment_request_id, provider, attempt, idempotency_key, status, amount_cents, currency,
		expires_at, received_cents, received_currency, sale_id, created_at, updated_at)
		VALUES (?, 'stripe', 1, 'k-c', 'paid', 15000, 'USD', ?, 15000, 'USD', ?, ?, ?)`, pr, ms, saleC, ms, ms)
	refundAt := at(t, zone, "2026-09-15 12:00").UnixMilli()
	exec(`INSERT INTO refunds (checkout_id, sale_id, amount_cents, provider_refund_id, status, origin, created_at, updated_at)
		VALUES (?, ?, 5000, 're_1', 'succeeded', 'admin', ?, ?)`, co, saleC, refundAt, refundAt)
	cd := cart(1, wil)
	line(cd, 1, "service", 2, 10000, none)
	link(sale(cd, 1, wil, 15001, 4999, 1, "2026-09-12 11:00"), b7, b8)

	// The Yoga session and its seats.
	ss, se := hour("2026-09-19 12:00")
	session := exec(`INSERT INTO class_sessions (location_id, service_id, provider_id, local_date, start_at, end_at, block_start_at,
		block_end_at, created_at, updated_at) VALUES (1, 2, 2, '2026-09-19', ?, ?, ?, ?, ?, ?)`,
		ss.UnixMilli(), se.UnixMilli(), ss.UnixMilli(), se.UnixMilli(), ms, ms)
	sn := sql.NullInt64{Int64: session, Valid: true}
	book(1, 2, 2, rosa, booking.StatusAttended, ss, se, sn, sql.NullInt64{Int64: pack, Valid: true})
	book(1, 2, 2, tomas, booking.StatusAttended, ss, se, sn, none)
	seat := book(1, 2, 2, wil, booking.StatusConfirmed, ss, se, sn, none)

	// The cancels, through the booking engine, each at its own moment.
	cancel := func(id int64, when, source string) {
		t.Helper()
		if err := booking.Cancel(ctx, d, at(t, zone, when), id, source); err != nil {
			t.Fatalf("cancel %d: %v", id, err)
		}
	}
	cancel(b3, "2026-09-01 09:00", booking.SourceOnline)
	cancel(b4, "2026-09-04 08:00", booking.SourceAdmin)
	cancel(b5, "2026-09-01 09:00", booking.SourceAdmin)
	cancel(seat, "2026-09-10 09:00", booking.SourceMCP)
	if err := booking.Release(ctx, d, at(t, zone, "2026-09-07 12:00"), b6); err != nil {
		t.Fatal(err)
	}
	return fixture{d: d, zone: zone}
}

func september() reports.Range {
	return reports.Range{From: booking.Date{Year: 2026, Month: 9, Day: 1}, To: booking.Date{Year: 2026, Month: 9, Day: 30}}
}

func TestReportFiguresByHand(t *testing.T) {
	f := newFixture(t)
	rep, err := reports.Build(context.Background(), f.d, reports.Query{Range: september(), Zone: f.zone})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Bucket != reports.Day || rep.PreviousRange.From != (booking.Date{Year: 2026, Month: 8, Day: 2}) {
		t.Errorf("bucket %s, previous %v", rep.Bucket, rep.PreviousRange)
	}
	c := rep.Current
	// Money: 24000 + 10000 + 15000 + 15001 received, 5000 refunded.
	if c.ReceivedCents != 64001 || c.RefundedCents != 5000 || c.NetCents != 59001 {
		t.Errorf("money %d received, %d refunded, %d net", c.ReceivedCents, c.RefundedCents, c.NetCents)
	}
	wantSeries := map[int]int64{1: 24000, 7: 10000, 12: 15001, 14: 15000, 15: -5000}
	if len(c.Series) != 30 {
		t.Fatalf("series has %d points, want 30", len(c.Series))
	}
	for i, p := range c.Series {
		if p.Start.Day != i+1 || p.Cents != wantSeries[i+1] {
			t.Errorf("series[%d] = %v %d, want day %d %d", i, p.Start, p.Cents, i+1, wantSeries[i+1])
		}
	}
	amounts := func(name string, got []reports.Amount, want ...reports.Amount) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
		}
	}
	amounts("by method", c.ByMethod,
		reports.Amount{ID: 1, Name: "Cash", Cents: 39001}, reports.Amount{ID: 4, Name: "Online Payment", Cents: 15000},
		reports.Amount{ID: 2, Name: "Card terminal", Cents: 10000})
	amounts("by service", c.ByService,
		reports.Amount{ID: 1, Name: "Haircut", Cents: 50001}, reports.Amount{ID: 2, Name: "Yoga", Cents: 10000},
		reports.Amount{ID: 0, Cents: 4000})
	amounts("by provider", c.ByProvider,
		reports.Amount{ID: 1, Name: "Ana", Cents: 27501}, reports.Amount{ID: 3, Name: "Carla", Cents: 15000},
		reports.Amount{ID: 2, Name: "Beto", Cents: 7500}, reports.Amount{ID: 0, Cents: 14000})

	// Outcomes: 13 bookings (10 appointments in September, 3 seats).
	wantOut := reports.Outcomes{Total: 13, Attended: 5, NoShow: 1, Open: 1, CancelledClient: 2, CancelledBusiness: 2,
		CancelledUnpaid: 1, CancelledUnknown: 1, Late: 1}
	if c.Outcomes != wantOut {
		t.Errorf("outcomes\n got %+v\nwant %+v", c.Outcomes, wantOut)
	}
	// No-shows 1 of 6 marked = 1667 bp; cancelled 5 of 12 counted (13 less the unpaid hold) = 4167.
	if c.Outcomes.NoShowRate() != 1667 || c.Outcomes.CancelRate() != 4167 {
		t.Errorf("rates: no-show %d, cancel %d", c.Outcomes.NoShowRate(), c.Outcomes.CancelRate())
	}

	// Utilisation: Ana booked b1, b2, b7 = 180 min; Beto b8 + the session = 120; Carla b9 = 90.
	wantUtil := []reports.Utilisation{
		{LocationID: 1, LocationName: "Centro", ProviderID: 1, ProviderName: "Ana", BookedMin: 180, WorkingMin: 10980},
		{LocationID: 1, LocationName: "Centro", ProviderID: 2, ProviderName: "Beto", BookedMin: 120, WorkingMin: 960},
		{LocationID: 2, LocationName: "Norte", ProviderID: 3, ProviderName: "Carla", BookedMin: 90, WorkingMin: 10560},
	}
	if !reflect.DeepEqual(c.Utilisation, wantUtil) {
		t.Errorf("utilisation\n got %+v\nwant %+v", c.Utilisation, wantUtil)
	}
	// 390 of 22500 = 173.3 bp; Ana 180 of 10980 = 163.9 bp.
	if c.BookedMin != 390 || c.WorkingMin != 22500 || c.UtilisationRate() != 173 || c.Utilisation[0].Rate() != 164 {
		t.Errorf("utilisation totals %d / %d = %d, Ana %d", c.BookedMin, c.WorkingMin, c.UtilisationRate(), c.Utilisation[0].Rate())
	}

	// Clients: Rosa returns (first booking August 3); Tomás, Vera, Wil and Xia are new.
	if c.NewClients != 4 || c.ReturningClients != 1 {
		t.Errorf("clients: %d new, %d returning", c.NewClients, c.ReturningClients)
	}
	wantTop := []reports.Count{{ID: 1, Name: "Haircut", N: 5}, {ID: 2, Name: "Yoga", N: 2}}
	if !reflect.DeepEqual(c.TopServices, wantTop) {
		t.Errorf("top services %+v", c.TopServices)
	}
	if c.ClassSessions != 1 || c.ClassSeats != 4 || c.ClassSeatsTaken != 2 || c.FillRate() != 5000 {
		t.Errorf("classes: %d sessions, %d/%d seats", c.ClassSessions, c.ClassSeatsTaken, c.ClassSeats)
	}
	if c.PacksSold != 1 || c.PackSessionsSold != 5 || c.PackSessionsUsed != 1 {
		t.Errorf("packs: %d sold (%d sessions), %d used", c.PacksSold, c.PackSessionsSold, c.PackSessionsUsed)
	}

	// The previous period: sale P, p1 attended, p2 no-show, Rosa new.
	p := rep.Previous
	if p.NetCents != 20000 || len(p.ByProvider) != 1 || p.ByProvider[0].Cents != 20000 {
		t.Errorf("previous money %d, %+v", p.NetCents, p.ByProvider)
	}
	if p.Outcomes != (reports.Outcomes{Total: 2, Attended: 1, NoShow: 1}) || p.NewClients != 1 || p.ReturningClients != 0 {
		t.Errorf("previous outcomes %+v, clients %d/%d", p.Outcomes, p.NewClients, p.ReturningClients)
	}
	if p.BookedMin != 120 || p.WorkingMin != 22320 || p.FillRate() != -1 {
		t.Errorf("previous utilisation %d / %d, fill %d", p.BookedMin, p.WorkingMin, p.FillRate())
	}
}

// TestReportOneLocation narrows the same business to Norte: only sale C, b9 and Carla.
func TestReportOneLocation(t *testing.T) {
	f := newFixture(t)
	rep, err := reports.Build(context.Background(), f.d, reports.Query{Range: september(), Location: 2, Zone: f.zone})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Current
	if c.ReceivedCents != 15000 || c.RefundedCents != 5000 || c.NetCents != 10000 {
		t.Errorf("money %d / %d / %d", c.ReceivedCents, c.RefundedCents, c.NetCents)
	}
	if c.Outcomes != (reports.Outcomes{Total: 1, Attended: 1}) || c.NewClients != 1 || c.PacksSold != 0 {
		t.Errorf("outcomes %+v, new %d, packs %d", c.Outcomes, c.NewClients, c.PacksSold)
	}
	if len(c.Utilisation) != 1 || c.Utilisation[0].ProviderName != "Carla" || c.WorkingMin != 10560 {
		t.Errorf("utilisation %+v", c.Utilisation)
	}
	if _, err := reports.Build(context.Background(), f.d, reports.Query{Range: september(), Location: 99, Zone: f.zone}); err == nil {
		t.Error("an unknown location gave a report")
	}
}

// TestBucketsAcrossTheLongDay draws March–May 2026 by week: 2026-04-04 has 25 hours in
// Santiago, and a payment at 23:30 that Saturday belongs to the week of Monday March 30.
func TestBucketsAcrossTheLongDay(t *testing.T) {
	f := newFixture(t)
	zone := f.zone
	paid := at(t, zone, "2026-04-04 23:30").UnixMilli()
	if _, err := f.d.Write.Exec(`INSERT INTO carts (uuid, location_id, created_at, updated_at, expires_at) VALUES ('long', 1, 0, 0, 0)`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.d.Write.Exec(`INSERT INTO sales (cart_id, location_id, status, paid_cents, paid_at, created_at, updated_at)
		VALUES ((SELECT id FROM carts WHERE uuid = 'long'), 1, 'paid', 700, ?, ?, ?)`, paid, paid, paid); err != nil {
		t.Fatal(err)
	}
	if _, err := f.d.Write.Exec(`INSERT INTO transactions (sale_id, amount_cents, payment_method_id, paid_at, created_at)
		VALUES ((SELECT max(id) FROM sales), 700, 1, ?, ?)`, paid, paid); err != nil {
		t.Fatal(err)
	}
	r := reports.Range{From: booking.Date{Year: 2026, Month: 3, Day: 2}, To: booking.Date{Year: 2026, Month: 5, Day: 31}}
	rep, err := reports.Build(context.Background(), f.d, reports.Query{Range: r, Zone: zone})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Bucket != reports.Week || len(rep.Current.Series) != 13 {
		t.Fatalf("bucket %s with %d points", rep.Bucket, len(rep.Current.Series))
	}
	for _, p := range rep.Current.Series {
		want := int64(0)
		if p.Start == (booking.Date{Year: 2026, Month: 3, Day: 30}) {
			want = 700
		}
		if p.Cents != want {
			t.Errorf("week of %v: %d, want %d", p.Start, p.Cents, want)
		}
	}
}

func TestRanges(t *testing.T) {
	today := booking.Date{Year: 2026, Month: 1, Day: 15} // a Thursday
	for _, c := range []struct {
		preset   string
		from, to booking.Date
		bucket   reports.Bucket
	}{
		{reports.ThisWeek, booking.Date{Year: 2026, Month: 1, Day: 12}, today, reports.Day},
		{reports.LastMonth, booking.Date{Year: 2025, Month: 12, Day: 1}, booking.Date{Year: 2025, Month: 12, Day: 31}, reports.Day},
		{reports.Last12Months, booking.Date{Year: 2025, Month: 1, Day: 1}, booking.Date{Year: 2025, Month: 12, Day: 31}, reports.Month},
	} {
		r, ok := reports.PresetRange(c.preset, today)
		if !ok || r.From != c.from || r.To != c.to || reports.BucketFor(r) != c.bucket {
			t.Errorf("%s: %v–%v %s", c.preset, r.From, r.To, reports.BucketFor(r))
		}
	}
	if p := (reports.Range{From: booking.Date{Year: 2026, Month: 3, Day: 1}, To: booking.Date{Year: 2026, Month: 3, Day: 31}}).Previous(); p.From != (booking.Date{Year: 2026, Month: 1, Day: 29}) || p.To != (booking.Date{Year: 2026, Month: 2, Day: 28}) {
		t.Errorf("previous of March: %v–%v", p.From, p.To)
	}
	bad := reports.Range{From: booking.Date{Year: 2026, Month: 3, Day: 2}, To: booking.Date{Year: 2026, Month: 3, Day: 1}}
	if reports.CheckRange(bad) == nil {
		t.Error("a range ending before it starts passed")
	}
	if reports.CheckRange(reports.Range{From: booking.Date{Year: 2020, Month: 1, Day: 1}, To: booking.Date{Year: 2026, Month: 1, Day: 1}}) == nil {
		t.Error("six years passed")
	}
}

// Erasing a client keeps their bookings, sales and packs as anonymous history: every figure of
// the report, this period's and the previous one's, is what it was before.
func TestErasingAClientKeepsTheReport(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	q := reports.Query{Range: september(), Zone: f.zone}
	before, err := reports.Build(ctx, f.d, q)
	if err != nil {
		t.Fatal(err)
	}
	var rosa int64
	if err := f.d.Read.QueryRow(`SELECT id FROM clients WHERE first_name = 'Rosa'`).Scan(&rosa); err != nil {
		t.Fatal(err)
	}
	erased, err := clients.Erase(ctx, f.d, at(t, f.zone, "2026-12-01 09:00"), rosa)
	if err != nil || erased.Client.FirstName != clients.ErasedName {
		t.Fatalf("erase Rosa: %+v, %v", erased.Client, err)
	}
	after, err := reports.Build(ctx, f.d, q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the report changed with the erasure:\nbefore %+v\nafter  %+v", before, after)
	}
	if before.Current.Outcomes.Attended == 0 || before.Current.ReceivedCents == 0 {
		t.Fatalf("the fixture's report is empty: %+v", before.Current)
	}
}
