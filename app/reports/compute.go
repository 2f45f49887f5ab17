package reports

import (
	"cmp"
	"context"
	"database/sql"
	"slices"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/fail"
	"frontdesk/app/payments"
	"frontdesk/db"
)

// Cart item types a sale's line may have (the CHECK on cart_items.item_type) that name a
// service: an appointment or class, and a session pack of it.
const (
	itemService = "service"
	itemPack    = "session"
)

// catalog is what every period of one report shares: the locations asked for and the names.
type catalog struct {
	locations []db.ReportLocationsRow
	ids       []int64
	every     bool
	providers map[int64]string
	services  map[int64]string
}

func load(ctx context.Context, q *db.Queries, location int64) (*catalog, error) {
	locs, err := q.ReportLocations(ctx)
	if err != nil {
		return nil, err
	}
	c := &catalog{every: location == 0, providers: map[int64]string{}, services: map[int64]string{}}
	for _, l := range locs {
		if location == 0 || l.ID == location {
			c.locations = append(c.locations, l)
			c.ids = append(c.ids, l.ID)
		}
	}
	if location != 0 && len(c.ids) == 0 {
		return nil, fail.NotFound("location")
	}
	ps, err := q.ReportProviderNames(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		c.providers[p.ID] = p.PublicName
	}
	ss, err := q.ReportServiceNames(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range ss {
		c.services[s.ID] = s.Name
	}
	return c, nil
}

// span is r's instants in zone: from the start of its first date to the start of the date
// after its last (a day of 23 or 25 hours counts as it is).
func span(zone *time.Location, r Range) (int64, int64) {
	return booking.DayStart(zone, r.From).UnixMilli(), booking.DayStart(zone, r.To.AddDays(1)).UnixMilli()
}

// figures computes one period.
func (c *catalog) figures(ctx context.Context, q *db.Queries, zone *time.Location, r Range, b Bucket) (Figures, error) {
	var f Figures
	from, to := span(zone, r)
	if len(c.ids) == 0 {
		return f, nil
	}
	if err := c.money(ctx, q, zone, r, b, from, to, &f); err != nil {
		return f, err
	}
	tallies, err := q.ReportBookingTallies(ctx, db.ReportBookingTalliesParams{Locations: c.ids, FromMs: from, ToMs: to})
	if err != nil {
		return f, err
	}
	if err := c.bookings(ctx, q, tallies, from, to, &f); err != nil {
		return f, err
	}
	if err := c.utilisation(ctx, q, r, tallies, from, to, &f); err != nil {
		return f, err
	}
	return f, nil
}

// money fills the takings: payments of sales paid in the period less refunds that succeeded
// in it, the net series, and the payments shared out by method, service and provider.
func (c *catalog) money(ctx context.Context, q *db.Queries, zone *time.Location, r Range, b Bucket, from, to int64, f *Figures) error {
	nf, nt := sql.NullInt64{Int64: from, Valid: true}, sql.NullInt64{Int64: to, Valid: true}
	pays, err := q.ReportPayments(ctx, db.ReportPaymentsParams{Locations: c.ids, FromMs: nf, ToMs: nt})
	if err != nil {
		return err
	}
	refunds, err := q.ReportRefunds(ctx, db.ReportRefundsParams{FromMs: from, ToMs: to})
	if err != nil {
		return err
	}
	series := map[booking.Date]int64{}
	at := func(ms int64) booking.Date {
		return bucketOf(b, booking.DateOf(time.UnixMilli(ms).In(zone)))
	}
	methods := map[int64]*Amount{}
	paid := map[int64]int64{} // sale → received in the period
	var sales []int64
	for _, p := range pays {
		f.ReceivedCents += p.AmountCents
		series[at(p.PaidAt.Int64)] += p.AmountCents
		m := methods[p.MethodID]
		if m == nil {
			m = &Amount{ID: p.MethodID, Name: p.MethodName}
			methods[p.MethodID] = m
		}
		m.Cents += p.AmountCents
		if _, ok := paid[p.SaleID]; !ok {
			sales = append(sales, p.SaleID)
		}
		paid[p.SaleID] += p.AmountCents
	}
	for _, rf := range refunds {
		if !c.every && !(rf.LocationID.Valid && slices.Contains(c.ids, rf.LocationID.Int64)) {
			continue
		}
		f.RefundedCents += rf.AmountCents
		series[at(rf.UpdatedAt)] -= rf.AmountCents
	}
	f.NetCents = f.ReceivedCents - f.RefundedCents
	for d := bucketOf(b, r.From); !d.After(r.To); d = nextBucket(b, d) {
		f.Series = append(f.Series, Point{Start: d, Cents: series[d]})
	}
	for _, m := range methods {
		f.ByMethod = append(f.ByMethod, *m)
	}
	sortAmounts(f.ByMethod)
	return c.shares(ctx, q, nf, nt, sales, paid, f)
}

// shares divides each sale's payment among its lines by their net amounts (largest remainder,
// so the parts add up to the cent), a service line's part among the bookings of that service
// the sale pays for, by provider.
func (c *catalog) shares(ctx context.Context, q *db.Queries, from, to sql.NullInt64, sales []int64, paid map[int64]int64, f *Figures) error {
	lines, err := q.ReportSaleLines(ctx, db.ReportSaleLinesParams{Locations: c.ids, FromMs: from, ToMs: to})
	if err != nil {
		return err
	}
	booked, err := q.ReportSaleBookings(ctx, db.ReportSaleBookingsParams{Locations: c.ids, FromMs: from, ToMs: to})
	if err != nil {
		return err
	}
	bySale := map[int64][]db.ReportSaleLinesRow{}
	for _, l := range lines {
		bySale[l.SaleID] = append(bySale[l.SaleID], l)
	}
	type sb struct{ service, provider int64 }
	saleBookings := map[int64][]sb{}
	for _, bk := range booked {
		saleBookings[bk.SaleID.Int64] = append(saleBookings[bk.SaleID.Int64], sb{bk.ServiceID, bk.ProviderID})
	}
	services, providers := map[int64]int64{}, map[int64]int64{}
	for _, sale := range sales {
		ls := bySale[sale]
		weights := make([]int64, len(ls))
		for i, l := range ls {
			weights[i] = max(0, payments.LineNetCents(l.UnitPriceCents, l.Quantity, l.UnitDiscountCents, l.UnitDiscountType))
		}
		parts := split(paid[sale], weights)
		if parts == nil { // no line to share by: the rest
			services[0] += paid[sale]
			providers[0] += paid[sale]
			continue
		}
		for i, l := range ls {
			named := l.ItemType == itemService || l.ItemType == itemPack
			if !named {
				services[0] += parts[i]
				providers[0] += parts[i]
				continue
			}
			services[l.ItemID] += parts[i]
			var who []int64
			if l.ItemType == itemService {
				for _, bk := range saleBookings[sale] {
					if bk.service == l.ItemID {
						who = append(who, bk.provider)
					}
				}
			}
			if len(who) == 0 {
				providers[0] += parts[i]
				continue
			}
			ones := make([]int64, len(who))
			for j := range ones {
				ones[j] = 1
			}
			for j, part := range split(parts[i], ones) {
				providers[who[j]] += part
			}
		}
	}
	f.ByService = c.named(services, c.services)
	f.ByProvider = c.named(providers, c.providers)
	return nil
}

func (c *catalog) named(m map[int64]int64, names map[int64]string) []Amount {
	var out []Amount
	for id, cents := range m {
		if cents != 0 || id != 0 {
			out = append(out, Amount{ID: id, Name: names[id], Cents: cents})
		}
	}
	sortAmounts(out)
	return out
}

// sortAmounts orders amounts most first, then by name; the rest (ID 0) last.
func sortAmounts(a []Amount) {
	slices.SortFunc(a, func(x, y Amount) int {
		if (x.ID == 0) != (y.ID == 0) {
			if x.ID == 0 {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(y.Cents, x.Cents), cmp.Compare(x.Name, y.Name), cmp.Compare(x.ID, y.ID))
	})
}

// split divides total among weights in proportion, by the largest remainder (ties to the
// earlier weight), so the parts add up to total exactly; nil when the weights sum to zero.
func split(total int64, weights []int64) []int64 {
	var sum int64
	for _, w := range weights {
		sum += w
	}
	if sum == 0 {
		return nil
	}
	parts := make([]int64, len(weights))
	rems := make([]int64, len(weights))
	left := total
	for i, w := range weights {
		parts[i] = total * w / sum
		rems[i] = total * w % sum
		left -= parts[i]
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rems[b], rems[a]) })
	for i := 0; left > 0; i++ {
		parts[order[i%len(order)]]++
		left--
	}
	return parts
}

// bookings fills the outcomes, clients, top services, class fill and packs; tallies are the
// period's bookings (ReportBookingTallies).
func (c *catalog) bookings(ctx context.Context, q *db.Queries, tallies []db.ReportBookingTalliesRow, from, to int64, f *Figures) error {
	o := &f.Outcomes
	perService := map[int64]int64{}
	for _, r := range tallies {
		f.PackSessionsUsed += r.PackSessions
		if r.StatusID != booking.StatusCancelled {
			perService[r.ServiceID] += r.N
		}
		o.Total += r.N
		switch r.StatusID {
		case booking.StatusAttended:
			o.Attended += r.N
		case booking.StatusNoShow:
			o.NoShow += r.N
		case booking.StatusCancelled:
			if r.CancelledLate && r.CancelledBy != booking.CancelledUnpaid {
				o.Late += r.N
			}
			switch r.CancelledBy {
			case booking.CancelledByClient:
				o.CancelledClient += r.N
			case booking.CancelledByBusiness:
				o.CancelledBusiness += r.N
			case booking.CancelledUnpaid:
				o.CancelledUnpaid += r.N
			default:
				o.CancelledUnknown += r.N
			}
		default:
			o.Open += r.N
		}
	}
	clients, err := q.ReportClients(ctx, db.ReportClientsParams{Locations: c.ids, FromMs: from, ToMs: to})
	if err != nil {
		return err
	}
	for _, cl := range clients {
		if cl.FirstAt >= from {
			f.NewClients++
		} else {
			f.ReturningClients++
		}
	}
	for id, n := range perService {
		f.TopServices = append(f.TopServices, Count{ID: id, Name: c.services[id], N: n})
	}
	slices.SortFunc(f.TopServices, func(x, y Count) int {
		return cmp.Or(cmp.Compare(y.N, x.N), cmp.Compare(x.Name, y.Name), cmp.Compare(x.ID, y.ID))
	})
	if len(f.TopServices) > TopServices {
		f.TopServices = f.TopServices[:TopServices]
	}
	fill, err := q.ReportClassFill(ctx, db.ReportClassFillParams{Locations: c.ids, FromMs: from, ToMs: to})
	if err != nil {
		return err
	}
	f.ClassSessions, f.ClassSeats, f.ClassSeatsTaken = fill.Sessions, fill.Seats, fill.Taken
	every := int64(0)
	if c.every {
		every = 1
	}
	sold, err := q.ReportPacksSold(ctx, db.ReportPacksSoldParams{FromMs: from, ToMs: to, Locations: c.ids, EveryLocation: every})
	if err != nil {
		return err
	}
	f.PacksSold, f.PackSessionsSold = sold.Packs, sold.Sessions
	return nil
}

// TopServices is how many services the top list shows.
const TopServices = 5

// utilisation fills booked and working minutes per provider and location: booked time from
// the period's bookings and class sessions, working time from the engine (booking.WorkingDays)
// for every provider who works at the location or was booked there.
func (c *catalog) utilisation(ctx context.Context, q *db.Queries, r Range, tallies []db.ReportBookingTalliesRow, from, to int64, f *Figures) error {
	type key struct{ loc, provider int64 }
	booked := map[key]int64{}
	for _, row := range tallies {
		if row.BookedMs != 0 {
			booked[key{row.LocationID, row.ProviderID}] += row.BookedMs
		}
	}
	sess, err := q.ReportSessionTime(ctx, db.ReportSessionTimeParams{Locations: c.ids, FromMs: from, ToMs: to})
	if err != nil {
		return err
	}
	for _, row := range sess {
		booked[key{row.LocationID, row.ProviderID}] += row.Ms
	}
	for _, l := range c.locations {
		ids, err := q.ReportLocationProviders(ctx, l.ID)
		if err != nil {
			return err
		}
		for k := range booked {
			if k.loc == l.ID && !slices.Contains(ids, k.provider) {
				ids = append(ids, k.provider)
			}
		}
		working, err := booking.WorkingDays(ctx, q, l.ID, ids, r.From, r.To)
		if err != nil {
			return err
		}
		var here []Utilisation
		for _, id := range ids {
			var ms int64
			for _, day := range working[id] {
				for _, iv := range day {
					ms += iv.End.Sub(iv.Start).Milliseconds()
				}
			}
			u := Utilisation{LocationID: l.ID, LocationName: l.Name, ProviderID: id, ProviderName: c.providers[id],
				BookedMin: booked[key{l.ID, id}] / 60000, WorkingMin: ms / 60000}
			if u.BookedMin == 0 && u.WorkingMin == 0 {
				continue
			}
			here = append(here, u)
			f.BookedMin += u.BookedMin
			f.WorkingMin += u.WorkingMin
		}
		slices.SortFunc(here, func(x, y Utilisation) int {
			return cmp.Or(cmp.Compare(x.ProviderName, y.ProviderName), cmp.Compare(x.ProviderID, y.ProviderID))
		})
		f.Utilisation = append(f.Utilisation, here...)
	}
	return nil
}
