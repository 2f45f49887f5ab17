package importer

import (
	"database/sql"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/catalog"
	"frontdesk/app/locale"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// validator checks a decoded file against everything that does not need the database and
// builds the plan. Each check records a problem and carries on, so one run reports many.
type validator struct {
	f   *File
	now time.Time
	ps  problems
	p   plan

	locations, categories, services, providers, attributes, clients, bookings map[string]int
	resources, series, visits                                                 map[string]int
	// visitParts are the places in visits taken so far: visit, position, part → booking path.
	visitParts          map[[3]int64]string
	timetable, sessions map[string]int
	recordNumbers       map[string]int
	products, skus      map[string]int
	sales, packs        map[string]int
	// seats counts the live bookings of each of the file's class sessions, seated the
	// session and client of each (classBooking).
	seats  map[string]int64
	seated map[string]int
}

// validate checks f as of now (the import date that relative dates count from). ps holds the
// problems found while decoding, which are reported first.
func validate(f *File, now time.Time, ps *problems) (*plan, error) {
	ps.decoding()
	v := &validator{
		f: f, now: now, ps: *ps,
		locations: map[string]int{}, categories: map[string]int{}, services: map[string]int{},
		providers: map[string]int{}, attributes: map[string]int{}, clients: map[string]int{}, resources: map[string]int{}, series: map[string]int{}, visits: map[string]int{},
		bookings: map[string]int{}, recordNumbers: map[string]int{}, timetable: map[string]int{}, sessions: map[string]int{},
		products: map[string]int{}, skus: map[string]int{}, sales: map[string]int{}, packs: map[string]int{},
	}
	// Keys first, so that every reference below can be resolved whatever the section order.
	for i, l := range f.Locations {
		v.key(at(at("locations", i), "key"), l.Key, v.locations, i, "locations")
	}
	for i, c := range f.Categories {
		v.key(at(at("categories", i), "key"), c.Key, v.categories, i, "categories")
	}
	for i, s := range f.Services {
		v.key(at(at("services", i), "key"), s.Key, v.services, i, "services")
	}
	for i, p := range f.Providers {
		v.key(at(at("providers", i), "key"), p.Key, v.providers, i, "providers")
	}
	for i, r := range f.Resources {
		v.key(at(at("resources", i), "key"), r.Key, v.resources, i, "resources")
	}
	for i, a := range f.CustomAttributes {
		v.key(at(at("custom_attributes", i), "key"), a.Key, v.attributes, i, "custom_attributes")
	}
	for i, c := range f.Clients {
		v.key(at(at("clients", i), "key"), c.Key, v.clients, i, "clients")
	}
	for i, e := range f.Timetable {
		if e.Key != "" {
			v.key(at(at("timetable", i), "key"), e.Key, v.timetable, i, "timetable")
		}
	}
	for i, s := range f.Sessions {
		if s.Key != "" {
			v.key(at(at("sessions", i), "key"), s.Key, v.sessions, i, "sessions")
		}
	}
	for i, s := range f.Series {
		v.key(at(at("series", i), "key"), s.Key, v.series, i, "series")
	}
	for i, x := range f.Visits {
		v.key(at(at("visits", i), "key"), x.Key, v.visits, i, "visits")
	}
	for i, b := range f.Bookings {
		if b.Key != "" {
			v.key(at(at("bookings", i), "key"), b.Key, v.bookings, i, "bookings")
		}
	}
	for i, p := range f.Products {
		v.key(at(at("products", i), "key"), p.Key, v.products, i, "products")
	}
	for i, s := range f.Sales {
		v.key(at(at("sales", i), "key"), s.Key, v.sales, i, "sales")
	}
	for i, p := range f.Packs {
		v.key(at(at("packs", i), "key"), p.Key, v.packs, i, "packs")
	}

	v.company()
	v.p.locations = make([]locationPlan, len(f.Locations))
	for i := range f.Locations {
		v.location(i)
	}
	for i, c := range f.Categories {
		path := at("categories", i)
		v.name(at(path, "name"), c.Name, true, catalog.MaxName)
		v.p.categories = append(v.p.categories, categoryPlan{key: c.Key, name: c.Name, order: orDefault(c.Order, int64(i+1))})
	}
	for i := range f.Resources {
		v.resource(i)
	}
	for i := range f.Services {
		v.service(i)
	}
	for i := range f.Providers {
		v.provider(i)
	}
	for i := range f.CustomAttributes {
		v.attribute(i)
	}
	for i := range f.Clients {
		v.client(i)
	}
	for i := range f.Timetable {
		v.timetableEntry(i)
	}
	for i := range f.Sessions {
		v.classSession(i)
	}
	for i := range f.Series {
		v.seriesRule(i)
	}
	for i := range f.Visits {
		v.visit(i)
	}
	for i := range f.Bookings {
		v.booking(i)
	}
	for i := range f.AppointmentWaitlist {
		v.appointmentWait(i)
	}
	for i := range f.Products {
		v.product(i)
	}
	for i := range f.Sales {
		v.sale(i)
	}
	for i := range f.Packs {
		v.pack(i)
	}
	if !v.ps.any() {
		v.overlaps()
		v.sessionOverlaps()
		v.packUse()
	}
	if err := v.ps.err(); err != nil {
		return nil, err
	}
	return &v.p, nil
}

// languageCodes lists the catalogs' languages for an error message.
func languageCodes() string {
	var codes []string
	for _, l := range i18n.Languages() {
		codes = append(codes, l.Code)
	}
	return strings.Join(codes, ", ")
}

func (v *validator) company() {
	c := v.f.Company
	if c == nil {
		return
	}
	v.name("company.name", c.Name, true, maxText)
	row := db.CreateCompanyParams{
		Name:             c.Name,
		Currency:         c.Currency,
		SlotStepMin:      orDefault(c.SlotStepMin, 15),
		MinNoticeMin:     orDefault(c.MinNoticeMin, 0),
		MaxAdvanceDays:   orDefault(c.MaxAdvanceDays, 90),
		CanEdit:          orDefault(c.CanEdit, true),
		CanCancel:        orDefault(c.CanCancel, true),
		EditLockMin:      orDefault(c.EditLockMin, 0),
		MaxChanges:       orDefault(c.MaxChanges, 0),
		OnlinePayments:   orDefault(c.OnlinePayments, false),
		PaymentExpiryMin: orDefault(c.PaymentExpiryMin, 15),
		Language:         c.Language,
		Clock:            c.Clock,
	}
	if row.Language == "" {
		row.Language = i18n.Default
	} else if !i18n.Supported(row.Language) {
		v.ps.add("company.language", "%q has no message catalog (want one of %s)", c.Language, languageCodes())
	}
	if row.Clock == "" {
		row.Clock = locale.Clock24
	} else if row.Clock != locale.Clock24 && row.Clock != locale.Clock12 {
		v.ps.add("company.clock", "%q is not a clock (want %q or %q)", c.Clock, locale.Clock24, locale.Clock12)
	}
	if c.Currency == "" {
		row.Currency = "USD"
	} else if len(c.Currency) != 3 || !isLetters(c.Currency) {
		v.ps.add("company.currency", "%q is not an ISO 4217 currency code (want e.g. \"CLP\")", c.Currency)
	}
	v.between("company.slot_step_min", row.SlotStepMin, 5, 240)
	v.between("company.min_notice_min", row.MinNoticeMin, 0, 525600)
	v.between("company.max_advance_days", row.MaxAdvanceDays, 0, 3650)
	v.between("company.edit_lock_min", row.EditLockMin, 0, 525600)
	v.between("company.max_changes", row.MaxChanges, 0, 1000)
	v.between("company.payment_expiry_min", row.PaymentExpiryMin, 1, 525600)
	v.p.company = &row
}

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

func (v *validator) location(i int) {
	l := v.f.Locations[i]
	path := at("locations", i)
	v.name(at(path, "name"), l.Name, true, catalog.MaxName)
	zone, err := catalog.LocationZone(l.Timezone)
	switch {
	case l.Timezone == "":
		v.ps.add(at(path, "timezone"), "is required (an IANA zone such as \"America/Santiago\")")
	case err != nil:
		v.ps.add(at(path, "timezone"), "%q is not an IANA time zone (want e.g. \"America/Santiago\")", l.Timezone)
	}
	if err != nil {
		zone = time.UTC // keeps checking the rest; the file is refused anyway
	}
	if len(l.Country.Code) != 2 || !isLetters(l.Country.Code) {
		v.ps.add(at(path, "country.code"), "%q is not an ISO 3166-1 alpha-2 code (want e.g. \"CL\")", l.Country.Code)
	}
	v.text(at(path, "country.name"), l.Country.Name, true, maxText)
	if l.Email != "" {
		v.email(at(path, "email"), l.Email)
	}
	for k, val := range l.Address {
		v.text(at(at(path, "address"), k), val, false, catalog.MaxName)
	}
	address := []byte("{}")
	if l.Address != nil {
		address, _ = json.Marshal(l.Address) // a map of strings always marshals
	}
	if l.Latitude != nil && !catalog.ValidCoordinate(*l.Latitude, catalog.MaxLatitude) {
		v.ps.add(at(path, "latitude"), "%v is not a latitude (want -%d to %d)", *l.Latitude, catalog.MaxLatitude, catalog.MaxLatitude)
	}
	if l.Longitude != nil && !catalog.ValidCoordinate(*l.Longitude, catalog.MaxLongitude) {
		v.ps.add(at(path, "longitude"), "%v is not a longitude (want -%d to %d)", *l.Longitude, catalog.MaxLongitude, catalog.MaxLongitude)
	}
	for _, img := range []struct {
		name string
		url  *string
	}{{"image", l.Image}, {"image_map", l.ImageMap}} {
		if img.url != nil {
			v.link(at(path, img.name), *img.url, catalog.IsLink)
		}
	}
	lp := locationPlan{
		key: l.Key, country: l.Country, zone: zone,
		row: db.CreateLocationParams{
			Name: l.Name, Active: orDefault(l.Active, true), AddressJSON: string(address),
			Phone: v.phone(at(path, "phone"), l.Phone), Email: l.Email,
			Latitude: nullFloat(l.Latitude), Longitude: nullFloat(l.Longitude), Timezone: l.Timezone,
			ImageURL: v.optText(at(path, "image"), l.Image, 2048), ImageMap: v.optText(at(path, "image_map"), l.ImageMap, 2048),
		},
	}
	var paths []string
	for j, h := range l.Hours {
		hp := at(at(path, "hours"), j)
		if r, ok := v.dayRange(hp, h.Day, h.Open, h.Close); ok {
			lp.hours = append(lp.hours, r)
			paths = append(paths, hp)
		}
	}
	v.noOverlap(lp.hours, paths, "opening range")
	seen := map[string]int{}
	for j, c := range l.Closures {
		cp := at(at(path, "closures"), j)
		d, err := resolveDate(c.Date, booking.DateOf(v.now.In(zone)))
		if err != nil {
			v.ps.add(at(cp, "date"), "%v", err)
			continue
		}
		v.text(at(cp, "reason"), c.Reason, false, catalog.MaxName)
		if first, dup := seen[d.String()]; dup {
			v.ps.add(at(cp, "date"), "%s is already closed by closures[%d]", d, first)
			continue
		}
		seen[d.String()] = j
		lp.closures = append(lp.closures, db.CreateLocationClosureParams{Date: d.String(), Reason: c.Reason})
	}
	v.p.locations[i] = lp
}

func nullFloat(p *float64) sql.NullFloat64 {
	if p == nil {
		return sql.NullFloat64{}
	}
	return sql.NullFloat64{Float64: *p, Valid: true}
}

// dayRange checks a weekday range with open before close ("24:00" allowed as close).
func (v *validator) dayRange(path, day, open, close string) (wallRange, bool) {
	d, err := parseDay(day)
	if err != nil {
		v.ps.add(at(path, "day"), "%v", err)
	}
	o, errO := parseClock(open, false)
	if errO != nil {
		v.ps.add(at(path, "open"), "%v", errO)
	}
	c, errC := parseClock(close, true)
	if errC != nil {
		v.ps.add(at(path, "close"), "%v", errC)
	}
	if err != nil || errO != nil || errC != nil {
		return wallRange{}, false
	}
	if o >= c {
		v.ps.add(at(path, "close"), "%q is not after open %q", close, open)
		return wallRange{}, false
	}
	return wallRange{d, o, c}, true
}

// noOverlap refuses two ranges of the same weekday that overlap; paths[i] locates ranges[i].
func (v *validator) noOverlap(ranges []wallRange, paths []string, what string) {
	order := make([]int, len(ranges))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := ranges[order[a]], ranges[order[b]]
		return ra.day < rb.day || ra.day == rb.day && ra.open < rb.open
	})
	reach := -1 // the range seen so far on this day that closes last
	for _, cur := range order {
		if reach >= 0 && ranges[reach].day == ranges[cur].day && ranges[cur].open < ranges[reach].close {
			a, b := min(reach, cur), max(reach, cur)
			v.ps.add(paths[b], "overlaps the %s at %s", what, paths[a])
		}
		if reach < 0 || ranges[reach].day != ranges[cur].day || ranges[cur].close > ranges[reach].close {
			reach = cur
		}
	}
}
