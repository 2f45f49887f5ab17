package importer

import (
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"frontdesk/app/catalog"
	"frontdesk/db"
)

func (v *validator) service(i int) {
	s := v.f.Services[i]
	path := at("services", i)
	v.name(at(path, "name"), s.Name, true, catalog.MaxName)
	sp := servicePlan{key: s.Key, category: -1, location: -1, images: s.Images}
	if s.Category != "" {
		if c, ok := v.ref(at(path, "category"), s.Category, v.categories, "categories"); ok {
			sp.category = c
		}
	}
	var price int64
	if s.Price == "" {
		v.ps.add(at(path, "price"), `is required (a decimal string such as "15000" or "12.50")`)
	} else {
		price = v.amount(at(path, "price"), s.Price)
	}
	var discount sql.NullInt64
	if s.Discount != nil {
		discount = sql.NullInt64{Int64: v.percent(at(path, "discount"), *s.Discount), Valid: true}
	}
	// The bounds are the catalog's, the admin form's.
	if s.Duration == 0 {
		v.ps.add(at(path, "duration"), "is required (minutes, %d to %d)", catalog.MinDuration, catalog.MaxDuration)
	} else {
		v.between(at(path, "duration"), s.Duration, catalog.MinDuration, catalog.MaxDuration)
	}
	v.between(at(path, "buffer_before"), s.BufferBefore, 0, catalog.MaxBuffer)
	v.between(at(path, "buffer_after"), s.BufferAfter, 0, catalog.MaxBuffer)

	seen := map[string]int{}
	for j, k := range s.Keywords {
		kp := at(at(path, "keywords"), j)
		if !v.text(kp, k, true, catalog.MaxKeywordLength) {
			continue
		}
		if first, dup := seen[strings.ToLower(k)]; dup {
			v.ps.add(kp, "%q repeats keywords[%d]", k, first)
		}
		seen[strings.ToLower(k)] = j
	}
	if len(s.Keywords) > catalog.MaxKeywords {
		v.ps.add(at(path, "keywords"), "has %d keywords (at most %d)", len(s.Keywords), catalog.MaxKeywords)
	}
	keywordList := s.Keywords
	if keywordList == nil {
		keywordList = []string{}
	}
	keywords, _ := json.Marshal(keywordList) // a list of strings always marshals
	if len(s.Images) > catalog.MaxServiceImages {
		v.ps.add(at(path, "images"), "has %d images (at most %d)", len(s.Images), catalog.MaxServiceImages)
	}
	for j, u := range s.Images {
		v.link(at(at(path, "images"), j), u, catalog.IsLink)
	}

	mode, payAmount := catalog.PaymentNotAvailable, sql.NullInt64{}
	if op := s.OnlinePayment; op != nil {
		mode = op.Mode
		if !slices.Contains(catalog.PaymentModes, mode) {
			v.ps.add(at(path, "online_payment.mode"), "%q is not one of %s", mode, strings.Join(catalog.PaymentModes, ", "))
		}
		switch {
		case op.Amount != nil && mode != catalog.PaymentMandatoryPartly:
			v.ps.add(at(path, "online_payment.amount"), "is only for mode %s", catalog.PaymentMandatoryPartly)
		case op.Amount == nil && mode == catalog.PaymentMandatoryPartly:
			v.ps.add(at(path, "online_payment.amount"), "is required for mode %s", catalog.PaymentMandatoryPartly)
		case op.Amount != nil:
			a := v.amount(at(path, "online_payment.amount"), *op.Amount)
			if a > price {
				v.ps.add(at(path, "online_payment.amount"), "%q is more than the price %q", *op.Amount, s.Price)
			}
			payAmount = sql.NullInt64{Int64: a, Valid: true}
		}
	}
	capacity, sessions := orDefault(s.Capacity, 1), orDefault(s.SessionCount, 1)
	v.between(at(path, "capacity"), capacity, 1, catalog.MaxCapacity)
	v.between(at(path, "session_count"), sessions, 1, catalog.MaxSessionCount)
	sp.row = db.CreateServiceParams{
		Name: s.Name, Active: orDefault(s.Active, true),
		PriceCents: price, HasDiscount: discount.Valid && discount.Int64 > 0, DiscountBp: discount,
		DurationMin: s.Duration, BufferBeforeMin: s.BufferBefore, BufferAfterMin: s.BufferAfter,
		Description: v.optLongText(at(path, "description"), s.Description),
		Capacity:    capacity, SessionCount: sessions, OnlineBooking: orDefault(s.OnlineBooking, true),
		OnlinePaymentMode: mode, OnlinePaymentCents: payAmount,
		Outcall: s.Outcall, IsVideo: s.IsVideo, Favorite: s.Favorite, KeywordsJSON: string(keywords),
	}
	if s.Location != "" {
		sp.location, _ = v.ref(at(path, "location"), s.Location, v.locations, "locations")
	}
	sp.resources = v.refList(at(path, "resources"), s.Resources, v.resources, "resources")
	v.p.services = append(v.p.services, sp)
}

func (v *validator) provider(i int) {
	p := v.f.Providers[i]
	path := at("providers", i)
	v.name(at(path, "public_name"), p.PublicName, true, catalog.MaxName)
	pp := providerPlan{key: p.Key, row: db.CreateProviderParams{
		PublicName: p.PublicName, Active: orDefault(p.Active, true), OnlineBooking: orDefault(p.OnlineBooking, true),
	}}
	if len(p.Locations) == 0 {
		v.ps.add(at(path, "locations"), "is required: at least one location key (the first is the main location)")
	}
	pp.locations = v.refList(at(path, "locations"), p.Locations, v.locations, "locations")
	pp.services = v.refList(at(path, "services"), p.Services, v.services, "services")
	v.providerMessages(path, p, &pp)
	for j, img := range p.Images {
		ip := at(at(path, "images"), j)
		v.link(at(ip, "url"), img.URL, catalog.IsLink)
		thumb := orDefault(img.ThumbnailURL, img.URL)
		if img.ThumbnailURL != nil {
			v.link(at(ip, "thumbnail_url"), thumb, catalog.IsLink)
		}
		pp.images = append(pp.images, db.CreateProviderImageParams{URL: img.URL, ThumbnailURL: thumb, Position: int64(j)})
	}

	byLocation := map[int][]wallRange{}
	paths := map[int][]string{}
	for j, h := range p.Hours {
		hp := at(at(path, "hours"), j)
		loc, ok := v.shiftLocation(hp, h.Location, pp.locations, len(p.Locations))
		r, okRange := v.dayRange(hp, h.Day, h.Open, h.Close)
		if !ok || !okRange {
			continue
		}
		shift := shiftPlan{location: loc, hours: r}
		var breaks []wallRange
		var breakPaths []string
		for k, b := range h.Breaks {
			bp := at(at(hp, "breaks"), k)
			start, errS := parseClock(b.Start, false)
			if errS != nil {
				v.ps.add(at(bp, "start"), "%v", errS)
			}
			end, errE := parseClock(b.End, true)
			if errE != nil {
				v.ps.add(at(bp, "end"), "%v", errE)
			}
			switch {
			case errS != nil || errE != nil:
				continue
			case start >= end:
				v.ps.add(at(bp, "end"), "%q is not after start %q", b.End, b.Start)
			case start < r.open || end > r.close:
				v.ps.add(bp, "%s–%s is not inside the shift %s–%s", b.Start, b.End, h.Open, h.Close)
			default:
				shift.breaks = append(shift.breaks, [2]int64{start, end})
				breaks = append(breaks, wallRange{r.day, start, end})
				breakPaths = append(breakPaths, bp)
			}
		}
		v.noOverlap(breaks, breakPaths, "break")
		pp.shifts = append(pp.shifts, shift)
		byLocation[loc] = append(byLocation[loc], r)
		paths[loc] = append(paths[loc], hp)
	}
	for _, loc := range pp.locations {
		v.noOverlap(byLocation[loc], paths[loc], "shift")
	}

	zone := time.UTC // only while the file is being refused for a bad main location
	if len(p.Locations) > 0 {
		if main, ok := v.locations[p.Locations[0]]; ok {
			zone = v.p.locations[main].zone
		}
	}
	for j, off := range p.TimeOff {
		tp := at(at(path, "time_off"), j)
		from, okFrom := v.instant(at(tp, "from"), off.From, zone, false)
		to, okTo := v.instant(at(tp, "to"), off.To, zone, true)
		v.text(at(tp, "reason"), off.Reason, false, catalog.MaxName)
		if !okFrom || !okTo {
			continue
		}
		if !to.After(from) {
			v.ps.add(at(tp, "to"), "%s is not after from %s", stamp(to, zone), stamp(from, zone))
			continue
		}
		pp.timeOff = append(pp.timeOff, db.CreateProviderTimeOffParams{StartsAt: db.Millis(from), EndsAt: db.Millis(to), Reason: off.Reason})
	}
	v.p.providers = append(v.p.providers, pp)
}

// refList resolves a list of keys, refusing unknown and repeated ones.
func (v *validator) refList(path string, keys []string, index map[string]int, section string) []int {
	var out []int
	seen := map[string]bool{}
	for j, k := range keys {
		kp := at(path, j)
		if seen[k] {
			v.ps.add(kp, "%q is listed twice", k)
			continue
		}
		seen[k] = true
		if idx, ok := v.ref(kp, k, index, section); ok {
			out = append(out, idx)
		}
	}
	return out
}

// providerMessages checks how a provider is reached and what they are emailed, by the rules the
// admin's form applies (catalog.CheckProviderContact): a phone without "+" is read as dialled in
// their main location's country.
func (v *validator) providerMessages(path string, p Provider, pp *providerPlan) {
	country := ""
	if len(pp.locations) > 0 {
		country = v.p.locations[pp.locations[0]].country.Code
	}
	contact, bad := catalog.CheckProviderContact(p.Email, p.Phone, country)
	for _, field := range []string{"email", "phone"} {
		if msg, ok := bad[field]; ok {
			v.ps.add(at(path, field), "%s", msg)
		}
	}
	pp.row.Email, pp.row.Phone, pp.row.NotifyBookings = contact.Email, contact.Phone, p.NotifyBookings
	if p.AgendaTime != "" {
		m, err := parseClock(p.AgendaTime, false)
		if err != nil {
			v.ps.add(at(path, "agenda_time"), "%v", err)
		}
		pp.row.AgendaMin = sql.NullInt64{Int64: m, Valid: err == nil}
	}
	if (p.NotifyBookings || p.AgendaTime != "") && contact.Email == "" {
		v.ps.add(at(path, "email"), "is required when the provider is emailed (notify_bookings, agenda_time)")
	}
}

// shiftLocation resolves a shift's location, which may be left out when the provider works at
// only one.
func (v *validator) shiftLocation(path, key string, locations []int, declared int) (int, bool) {
	if key == "" {
		if declared == 1 && len(locations) == 1 {
			return locations[0], true
		}
		v.ps.add(at(path, "location"), "is required when the provider works at more than one location")
		return 0, false
	}
	idx, ok := v.ref(at(path, "location"), key, v.locations, "locations")
	if !ok {
		return 0, false
	}
	for _, l := range locations {
		if l == idx {
			return idx, true
		}
	}
	v.ps.add(at(path, "location"), "%q is not one of this provider's locations", key)
	return 0, false
}

// instant reads a time-off bound: an instant, or a whole local day (its first instant for a
// start, the first instant of the next day for an end, so that "to" days are inclusive).
func (v *validator) instant(path, s string, zone *time.Location, end bool) (time.Time, bool) {
	m, err := parseMoment(s, zone, v.now)
	if err != nil {
		v.ps.add(path, "%v", err)
		return time.Time{}, false
	}
	if !m.IsDay {
		return m.At, true
	}
	if end {
		return startOfDay(zone, m.Day.AddDays(1)), true
	}
	return startOfDay(zone, m.Day), true
}

// resource checks resource i: a location of the file, a name unique at it, a kind and a
// quantity as the admin's form allows (db/migrations/00550_resources.sql).
func (v *validator) resource(i int) {
	r := v.f.Resources[i]
	path := at("resources", i)
	rp := resourcePlan{key: r.Key, location: -1, name: r.Name, kind: r.Kind, quantity: r.Quantity}
	if idx, ok := v.ref(at(path, "location"), r.Location, v.locations, "locations"); ok {
		rp.location = idx
	}
	if v.name(at(path, "name"), r.Name, true, 200) {
		for j, o := range v.f.Resources[:i] {
			if o.Location == r.Location && o.Name == r.Name {
				v.ps.add(at(path, "name"), "%q is already the name of resources[%d] at this location", r.Name, j)
			}
		}
	}
	switch r.Kind {
	case "":
		rp.kind = "room"
	case "room", "equipment":
	default:
		v.ps.add(at(path, "kind"), "%q: want room or equipment", r.Kind)
	}
	if r.Quantity < 1 || r.Quantity > 1000 {
		v.ps.add(at(path, "quantity"), "%d: want 1 to 1000", r.Quantity)
	}
	v.p.resources = append(v.p.resources, rp)
}
