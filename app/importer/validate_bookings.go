package importer

import (
	"cmp"
	"database/sql"
	"slices"
	"time"

	"frontdesk/db"
)

// statusIDs are the format's booking statuses and their booking_statuses ids.
var statusIDs = map[string]int64{"confirmed": 1, "reserved": 2, "attended": 3, "no_show": 4, "cancelled": 5}

const statusCancelled = 5

// maxBlock is the longest a booking may hold its provider, buffers included (the schema's CHECK).
const maxBlock = 48 * time.Hour

func (v *validator) booking(i int) {
	b := v.f.Bookings[i]
	path := at("bookings", i)
	loc, okLoc := v.ref(at(path, "location"), b.Location, v.locations, "locations")
	svc, okSvc := v.ref(at(path, "service"), b.Service, v.services, "services")
	prov, okProv := v.ref(at(path, "provider"), b.Provider, v.providers, "providers")
	client, okClient := v.ref(at(path, "client"), b.Client, v.clients, "clients")
	status := int64(1)
	if b.Status != "" {
		s, ok := statusIDs[b.Status]
		if !ok {
			v.ps.add(at(path, "status"), "%q is not one of confirmed, reserved, attended, no_show, cancelled", b.Status)
		}
		status = s
	}
	notes := v.optLongText(at(path, "notes"), b.Notes)
	if !okLoc || !okSvc || !okProv || !okClient {
		return
	}
	provider, service, zone := v.p.providers[prov], v.p.services[svc].row, v.p.locations[loc].zone
	start, ok := v.bookingTime(at(path, "start"), b.Start, zone)
	if !ok {
		return
	}
	// A booking still ahead needs a provider who works there and gives the service; history
	// may predate today's team (a provider who no longer offers a service keeps the bookings
	// they gave), as it may predate today's hours.
	if !start.Before(v.now) && !slices.Contains(provider.locations, loc) {
		v.ps.add(at(path, "provider"), "provider %q does not work at location %q", b.Provider, b.Location)
		return
	}
	if !start.Before(v.now) && !slices.Contains(provider.services, svc) {
		v.ps.add(at(path, "provider"), "provider %q does not offer service %q", b.Provider, b.Service)
		return
	}
	end := start.Add(time.Duration(service.DurationMin) * time.Minute)
	if b.End != nil {
		if end, ok = v.bookingTime(at(path, "end"), *b.End, zone); !ok {
			return
		}
		if !end.After(start) {
			v.ps.add(at(path, "end"), "%s is not after start %s", stamp(end, zone), stamp(start, zone))
			return
		}
	}
	blockStart := start.Add(-time.Duration(service.BufferBeforeMin) * time.Minute)
	blockEnd := end.Add(time.Duration(service.BufferAfterMin) * time.Minute)
	var vp *visitPart
	if b.Visit != nil {
		if vp = v.bookingVisit(at(path, "visit"), *b.Visit); vp != nil {
			blockStart = start.Add(-time.Duration(b.Visit.HeldBefore) * time.Minute)
			blockEnd = end.Add(time.Duration(b.Visit.HeldAfter) * time.Minute)
		}
	}
	if blockEnd.Sub(blockStart) > maxBlock {
		v.ps.add(at(path, "end"), "the booking, buffers included, lasts more than 2 days")
		return
	}
	price, listPrice := service.PriceCents, service.PriceCents
	if b.Price != nil {
		price = v.amount(at(path, "price"), *b.Price)
	}
	if b.ListPrice != nil {
		listPrice = v.amount(at(path, "list_price"), *b.ListPrice)
	}
	pack, sale := -1, -1
	if b.Pack != "" {
		pack, _ = v.ref(at(path, "pack"), b.Pack, v.packs, "packs")
	}
	if b.Sale != "" {
		sale, _ = v.ref(at(path, "sale"), b.Sale, v.sales, "sales")
	}
	if b.PackReturned && (b.Pack == "" || status != statusCancelled) {
		v.ps.add(at(path, "pack_returned"), "is only for a cancelled booking that used a pack")
	}
	var cancel cancelPlan
	if c := b.Cancellation; c != nil {
		if status != statusCancelled {
			v.ps.add(at(path, "cancellation"), "is only for a cancelled booking")
		}
		cancel.at = sql.NullInt64{Int64: v.created(at(at(path, "cancellation"), "at"), c.At), Valid: true}
		switch c.By {
		case "client", "business", "unpaid":
			cancel.by = sql.NullString{String: c.By, Valid: true}
		case "":
		default:
			v.ps.add(at(at(path, "cancellation"), "by"), "%q is not who cancels (want \"client\", \"business\" or \"unpaid\")", c.By)
		}
		cancel.late = c.Late
	}
	series := -1
	if b.Series != "" {
		series, _ = v.ref(at(path, "series"), b.Series, v.series, "series")
	}
	bp := bookingPlan{
		index: i, key: b.Key, cancel: cancel, series: series, visit: vp, location: loc, service: svc, provider: prov, client: client,
		created: v.created(at(path, "created"), b.Created), pack: pack, sale: sale, packReturned: b.PackReturned,
		row: db.ImportBookingParams{
			StatusID: status, StartAt: db.Millis(start), EndAt: db.Millis(end),
			BlockStartAt: db.Millis(blockStart), BlockEndAt: db.Millis(blockEnd),
			PriceCents: price, ListPriceCents: listPrice, Notes: notes,
		},
	}
	if service.Capacity > 1 {
		if v.classBooking(i, &bp, b.End != nil); !bp.class {
			return
		}
	}
	v.p.bookings = append(v.p.bookings, bp)
}

// bookingTime reads a booking's start or end, which must name a time, not only a day.
func (v *validator) bookingTime(path, s string, zone *time.Location) (time.Time, bool) {
	if s == "" {
		v.ps.add(path, "is required (%s)", momentHelp)
		return time.Time{}, false
	}
	m, err := parseMoment(s, zone, v.now)
	if err != nil {
		v.ps.add(path, "%v", err)
		return time.Time{}, false
	}
	if m.IsDay {
		v.ps.add(path, "%q is a date; want a time of day too (%s)", s, momentHelp)
		return time.Time{}, false
	}
	return m.At, true
}

// overlaps applies the no-double-booking rule within the file: a provider's non-cancelled
// bookings, buffers included, must not overlap. (The database trigger would refuse them too,
// but could only say "slot_unavailable", not which two bookings collide.)
func (v *validator) overlaps() {
	byProvider := map[int][]bookingPlan{}
	for _, b := range v.p.bookings {
		if b.row.StatusID != statusCancelled && !b.class { // seats: their session holds the provider (sessionOverlaps)
			byProvider[b.provider] = append(byProvider[b.provider], b)
		}
	}
	type clash struct{ later, earlier bookingPlan }
	var clashes []clash
	for _, list := range byProvider {
		slices.SortFunc(list, func(a, b bookingPlan) int {
			return cmp.Or(cmp.Compare(a.row.BlockStartAt, b.row.BlockStartAt), cmp.Compare(a.index, b.index))
		})
		var reach *bookingPlan // the booking so far whose block ends last
		for k := range list {
			cur := &list[k]
			if reach != nil && cur.row.BlockStartAt < reach.row.BlockEndAt {
				if cur.index > reach.index {
					clashes = append(clashes, clash{*cur, *reach})
				} else {
					clashes = append(clashes, clash{*reach, *cur})
				}
			}
			if reach == nil || cur.row.BlockEndAt > reach.row.BlockEndAt {
				reach = cur
			}
		}
	}
	slices.SortFunc(clashes, func(a, b clash) int { return cmp.Compare(a.later.index, b.later.index) })
	for _, c := range clashes {
		zone := v.p.locations[c.earlier.location].zone
		v.ps.add(at("bookings", c.later.index), "provider %q already has a booking at %s (%s)",
			v.p.providers[c.later.provider].key, stamp(db.Time(c.earlier.row.StartAt), zone), at("bookings", c.earlier.index))
	}
}
