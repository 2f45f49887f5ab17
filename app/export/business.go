package export

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/importer"
	"frontdesk/app/money"
)

// The business in the import format (docs/import.md): every section `frontdesk import` reads,
// written record by record from one read transaction, so an export of a large business holds
// one record in memory at a time. Records are keyed by their kind and database id
// ("client-12"), which keeps keys unique within the file and readable.

// businessWriter writes the JSON document: one object, one section after the other.
type businessWriter struct {
	ctx   context.Context
	tx    *sql.Tx
	out   *bufio.Writer
	first bool // no section written yet
	// zones are the locations' zones by id, for the local times of the format.
	zones map[int64]*time.Location
	// mainZone is each provider's main location's zone.
	mainZone map[int64]*time.Location
}

func key(kind string, id int64) string { return kind + "-" + strconv.FormatInt(id, 10) }

// WriteBusiness writes the business in the import format to out, reading it in tx.
func WriteBusiness(ctx context.Context, tx *sql.Tx, out io.Writer) error {
	w := &businessWriter{ctx: ctx, tx: tx, out: bufio.NewWriter(out), first: true,
		zones: map[int64]*time.Location{}, mainZone: map[int64]*time.Location{}}
	w.out.WriteString("{")
	for _, step := range []func() error{w.company, w.locations, w.categories, w.services, w.resources, w.providers, w.attributes,
		w.clients, w.timetable, w.sessions, w.products, w.sales, w.packs, w.series, w.visits, w.bookings, w.waits} {
		if err := step(); err != nil {
			return err
		}
	}
	w.out.WriteString("\n}\n")
	return w.out.Flush()
}

// section writes "name": [ ...records ] with each record from next until it returns nil.
func (w *businessWriter) section(name string, query string, scan func(*sql.Rows) (any, error), args ...any) error {
	rows, err := w.tx.QueryContext(w.ctx, query, args...)
	if err != nil {
		return fmt.Errorf("export %s: %w", name, err)
	}
	defer rows.Close()
	w.open(name)
	w.out.WriteString("[")
	n := 0
	for rows.Next() {
		rec, err := scan(rows)
		if err != nil {
			return fmt.Errorf("export %s: %w", name, err)
		}
		if rec == nil {
			continue
		}
		b, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("export %s: %w", name, err)
		}
		if n > 0 {
			w.out.WriteString(",")
		}
		w.out.WriteString("\n  ")
		w.out.Write(b)
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("export %s: %w", name, err)
	}
	if n > 0 {
		w.out.WriteString("\n ")
	}
	_, err = w.out.WriteString("]")
	return err
}

func (w *businessWriter) open(name string) {
	if !w.first {
		w.out.WriteString(",")
	}
	w.first = false
	w.out.WriteString("\n " + strconv.Quote(name) + ": ")
}

// subList reads a small list (a record's hours, images, …) with scan; it is read whole, which is
// fine for what hangs off one record.
func subList[T any](w *businessWriter, query string, scan func(*sql.Rows) (T, error), args ...any) ([]T, error) {
	rows, err := w.tx.QueryContext(w.ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func str(v sql.NullString) *string {
	if !v.Valid {
		return nil
	}
	return &v.String
}

func num(v sql.NullInt64) *int64 {
	if !v.Valid {
		return nil
	}
	return &v.Int64
}

func ptr[T any](v T) *T { return &v }

func amountText(c int64) string { return money.Cents(c).String() }

// clock is minutes since midnight as "HH:MM" ("24:00" for the end of a day).
func clock(m int64) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }

var dayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

func dayName(id int64) string {
	if id < 0 || int(id) >= len(dayNames) {
		return strconv.FormatInt(id, 10) // refused on import, with its path
	}
	return dayNames[id]
}

// instant is a stored time as an RFC 3339 instant with zone's offset.
func instant(ms int64, zone *time.Location) string {
	return time.UnixMilli(ms).In(zone).Format(time.RFC3339)
}

func (w *businessWriter) company() error {
	var c importer.Company
	var canEdit, canCancel, online bool
	var step, notice, advance, lock, changes, expiry int64
	err := w.tx.QueryRowContext(w.ctx, `SELECT name, currency, slot_step_min, min_notice_min, max_advance_days, can_edit, can_cancel,
	edit_lock_min, max_changes, online_payments, payment_expiry_min, language, clock FROM company ORDER BY id LIMIT 1`).Scan(
		&c.Name, &c.Currency, &step, &notice, &advance, &canEdit, &canCancel, &lock, &changes, &online, &expiry, &c.Language, &c.Clock)
	if err == sql.ErrNoRows {
		return nil // no business yet: the file adds nothing but what follows
	}
	if err != nil {
		return fmt.Errorf("export company: %w", err)
	}
	c.SlotStepMin, c.MinNoticeMin, c.MaxAdvanceDays, c.EditLockMin, c.MaxChanges, c.PaymentExpiryMin = &step, &notice, &advance, &lock, &changes, &expiry
	c.CanEdit, c.CanCancel, c.OnlinePayments = &canEdit, &canCancel, &online
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	w.open("company")
	_, err = w.out.Write(b)
	return err
}

func (w *businessWriter) locations() error {
	return w.section("locations", `SELECT l.id, l.name, l.active, l.address_json, l.phone, l.email, l.latitude, l.longitude, l.timezone,
	l.image_url, l.image_map, c.code, c.name FROM locations l JOIN countries c ON c.id = l.country_id ORDER BY l.id`,
		func(r *sql.Rows) (any, error) {
			var id int64
			var l importer.Location
			var active bool
			var address string
			var phone, image, imageMap sql.NullString
			var lat, lon sql.NullFloat64
			if err := r.Scan(&id, &l.Name, &active, &address, &phone, &l.Email, &lat, &lon, &l.Timezone, &image, &imageMap,
				&l.Country.Code, &l.Country.Name); err != nil {
				return nil, err
			}
			l.Key, l.Active, l.Phone, l.Image, l.ImageMap = key("location", id), &active, str(phone), str(image), str(imageMap)
			if lat.Valid {
				l.Latitude = &lat.Float64
			}
			if lon.Valid {
				l.Longitude = &lon.Float64
			}
			if address != "" && address != "{}" {
				if err := json.Unmarshal([]byte(address), &l.Address); err != nil {
					return nil, fmt.Errorf("location %d address: %w", id, err)
				}
			}
			zone, err := booking.LoadZone(l.Timezone)
			if err != nil {
				zone = time.UTC
			}
			w.zones[id] = zone
			var errH error
			if l.Hours, errH = subList(w, `SELECT day_id, open_min, close_min FROM location_hours WHERE location_id = ? ORDER BY id`,
				func(r *sql.Rows) (importer.DayHours, error) {
					var d, o, c int64
					err := r.Scan(&d, &o, &c)
					return importer.DayHours{Day: dayName(d), Open: clock(o), Close: clock(c)}, err
				}, id); errH != nil {
				return nil, errH
			}
			if l.Closures, errH = subList(w, `SELECT date, reason FROM location_closures WHERE location_id = ? ORDER BY id`,
				func(r *sql.Rows) (importer.Closure, error) {
					var c importer.Closure
					err := r.Scan(&c.Date, &c.Reason)
					return c, err
				}, id); errH != nil {
				return nil, errH
			}
			return l, nil
		})
}

func (w *businessWriter) categories() error {
	return w.section("categories", `SELECT id, name, sort_order FROM categories ORDER BY id`, func(r *sql.Rows) (any, error) {
		var id, order int64
		var c importer.Category
		err := r.Scan(&id, &c.Name, &order)
		c.Key, c.Order = key("category", id), &order
		return c, err
	})
}

func (w *businessWriter) services() error {
	return w.section("services", `SELECT id, name, category_id, price_cents, discount_bp, duration_min, buffer_before_min, buffer_after_min,
	description, keywords_json, capacity, session_count, online_booking, online_payment_mode, online_payment_cents, outcall, is_video,
	favorite, active, location_id FROM services ORDER BY id`, func(r *sql.Rows) (any, error) {
		var id, price, capacity, sessions int64
		var s importer.Service
		var category, discount, payCents, location sql.NullInt64
		var description sql.NullString
		var keywords, mode string
		var online, active bool
		if err := r.Scan(&id, &s.Name, &category, &price, &discount, &s.Duration, &s.BufferBefore, &s.BufferAfter, &description,
			&keywords, &capacity, &sessions, &online, &mode, &payCents, &s.Outcall, &s.IsVideo, &s.Favorite, &active, &location); err != nil {
			return nil, err
		}
		s.Key, s.Price, s.Description = key("service", id), amountText(price), str(description)
		s.Capacity, s.SessionCount, s.OnlineBooking, s.Active = &capacity, &sessions, &online, &active
		if category.Valid {
			s.Category = key("category", category.Int64)
		}
		if location.Valid {
			s.Location = key("location", location.Int64)
		}
		if discount.Valid {
			s.Discount = ptr(amountText(discount.Int64))
		}
		if err := json.Unmarshal([]byte(keywords), &s.Keywords); err != nil {
			return nil, fmt.Errorf("service %d keywords: %w", id, err)
		}
		if len(s.Keywords) == 0 {
			s.Keywords = nil
		}
		if mode != "" && mode != "NOT_AVAILABLE" || payCents.Valid {
			s.OnlinePayment = &importer.OnlinePayment{Mode: mode}
			if payCents.Valid {
				s.OnlinePayment.Amount = ptr(amountText(payCents.Int64))
			}
		}
		var err error
		s.Images, err = subList(w, `SELECT url FROM service_images WHERE service_id = ? ORDER BY position, id`, func(r *sql.Rows) (string, error) {
			var u string
			return u, r.Scan(&u)
		}, id)
		if err != nil {
			return nil, err
		}
		s.Resources, err = subList(w, `SELECT resource_id FROM service_resources WHERE service_id = ? ORDER BY resource_id`, func(r *sql.Rows) (string, error) {
			var rid int64
			err := r.Scan(&rid)
			return key("resource", rid), err
		}, id)
		return s, err
	})
}

// resources are the rooms and equipment of the locations (docs/visits.md, "Resources").
func (w *businessWriter) resources() error {
	return w.section("resources", `SELECT id, location_id, name, kind, quantity FROM resources ORDER BY id`, func(r *sql.Rows) (any, error) {
		var id, loc int64
		var res importer.Resource
		if err := r.Scan(&id, &loc, &res.Name, &res.Kind, &res.Quantity); err != nil {
			return nil, err
		}
		res.Key, res.Location = key("resource", id), key("location", loc)
		return res, nil
	})
}

func (w *businessWriter) providers() error {
	return w.section("providers", `SELECT id, public_name, active, online_booking, email, phone, notify_bookings, agenda_min, location_id
	FROM providers ORDER BY id`, func(r *sql.Rows) (any, error) {
		var id, main int64
		var p importer.Provider
		var active, online bool
		var agenda sql.NullInt64
		if err := r.Scan(&id, &p.PublicName, &active, &online, &p.Email, &p.Phone, &p.NotifyBookings, &agenda, &main); err != nil {
			return nil, err
		}
		p.Key, p.Active, p.OnlineBooking = key("provider", id), &active, &online
		if agenda.Valid {
			p.AgendaTime = clock(agenda.Int64)
		}
		w.mainZone[id] = w.zone(main)
		ids := func(r *sql.Rows) (int64, error) {
			var n int64
			return n, r.Scan(&n)
		}
		locs, err := subList(w, `SELECT location_id FROM provider_locations WHERE provider_id = ? ORDER BY location_id != ?, location_id`, ids, id, main)
		if err != nil {
			return nil, err
		}
		if len(locs) == 0 || locs[0] != main {
			locs = append([]int64{main}, locs...)
		}
		for _, l := range locs {
			p.Locations = append(p.Locations, key("location", l))
		}
		svcs, err := subList(w, `SELECT service_id FROM service_providers WHERE provider_id = ? ORDER BY service_id`, ids, id)
		if err != nil {
			return nil, err
		}
		for _, s := range svcs {
			p.Services = append(p.Services, key("service", s))
		}
		if p.Images, err = subList(w, `SELECT url, thumbnail_url FROM provider_images WHERE provider_id = ? ORDER BY position, id`,
			func(r *sql.Rows) (importer.ProviderImage, error) {
				var img importer.ProviderImage
				var thumb string
				err := r.Scan(&img.URL, &thumb)
				if thumb != img.URL {
					img.ThumbnailURL = &thumb
				}
				return img, err
			}, id); err != nil {
			return nil, err
		}
		type shift struct {
			id int64
			s  importer.Shift
		}
		shifts, err := subList(w, `SELECT id, location_id, day_id, open_min, close_min FROM provider_hours WHERE provider_id = ? ORDER BY id`,
			func(r *sql.Rows) (shift, error) {
				var sh shift
				var loc, d, o, c int64
				err := r.Scan(&sh.id, &loc, &d, &o, &c)
				sh.s = importer.Shift{Location: key("location", loc), Day: dayName(d), Open: clock(o), Close: clock(c)}
				return sh, err
			}, id)
		if err != nil {
			return nil, err
		}
		for _, sh := range shifts {
			if sh.s.Breaks, err = subList(w, `SELECT start_min, end_min FROM provider_breaks WHERE hours_id = ? ORDER BY id`,
				func(r *sql.Rows) (importer.Break, error) {
					var s, e int64
					err := r.Scan(&s, &e)
					return importer.Break{Start: clock(s), End: clock(e)}, err
				}, sh.id); err != nil {
				return nil, err
			}
			p.Hours = append(p.Hours, sh.s)
		}
		zone := w.mainZone[id]
		p.TimeOff, err = subList(w, `SELECT starts_at, ends_at, reason FROM provider_time_off WHERE provider_id = ? ORDER BY id`,
			func(r *sql.Rows) (importer.TimeOff, error) {
				var s, e int64
				var off importer.TimeOff
				err := r.Scan(&s, &e, &off.Reason)
				off.From, off.To = instant(s, zone), instant(e, zone)
				return off, err
			}, id)
		return p, err
	})
}

// zone is a location's zone, UTC for one not exported (never, as locations come first).
func (w *businessWriter) zone(location int64) *time.Location {
	if z, ok := w.zones[location]; ok {
		return z
	}
	return time.UTC
}

// attributeTypes are the custom attributes' datatypes, for their values' JSON types.
func (w *businessWriter) attributes() error {
	return w.section("custom_attributes", `SELECT a.id, a.name, a.datatype, a.description, a.mandatory, a.sort_order, g.name
	FROM custom_attributes a LEFT JOIN attribute_groups g ON g.id = a.group_id ORDER BY a.id`, func(r *sql.Rows) (any, error) {
		var id, order int64
		var a importer.CustomAttribute
		var description, group sql.NullString
		if err := r.Scan(&id, &a.Name, &a.Datatype, &description, &a.Mandatory, &order, &group); err != nil {
			return nil, err
		}
		a.Key, a.Description, a.Order, a.Group = key("attribute", id), str(description), &order, str(group)
		var err error
		a.Options, err = subList(w, `SELECT label FROM attribute_options WHERE attribute_id = ? ORDER BY sort_order, id`, func(r *sql.Rows) (string, error) {
			var s string
			return s, r.Scan(&s)
		}, id)
		return a, err
	})
}

func (w *businessWriter) clients() error {
	return w.section("clients", `SELECT c.id, c.first_name, c.last_name, c.email, c.phone, c.second_phone, c.identification_number,
	c.address, c.district, c.city, c.region, c.age, c.gender, c.birth_day, c.birth_month, c.birth_year, c.record_number, c.photo,
	c.nationality, c.phone_country, c.active, c.created_at, coalesce(p.channel, '')
	FROM clients c LEFT JOIN client_message_prefs p ON p.client_id = c.id ORDER BY c.id`, func(r *sql.Rows) (any, error) {
		var id, created int64
		var c importer.Client
		var last, email, phone, phone2, ident, address, district, city, record, photo, nationality, country sql.NullString
		var age, day, month, year sql.NullInt64
		var active bool
		if err := r.Scan(&id, &c.FirstName, &last, &email, &phone, &phone2, &ident, &address, &district, &city, &c.Region, &age, &c.Gender,
			&day, &month, &year, &record, &photo, &nationality, &country, &active, &created, &c.PreferredChannel); err != nil {
			return nil, err
		}
		c.Key, c.LastName, c.Email, c.Phone, c.SecondPhone, c.IdentificationNumber = key("client", id), str(last), str(email), str(phone), str(phone2), str(ident)
		c.Address, c.District, c.City, c.RecordNumber, c.Photo, c.Nationality, c.PhoneCountry = str(address), str(district), str(city), str(record), str(photo), str(nationality), str(country)
		c.Age, c.BirthDay, c.BirthMonth, c.BirthYear, c.Active = num(age), num(day), num(month), num(year), &active
		c.Created = instant(created, time.UTC)
		values, err := subList(w, `SELECT v.attribute_id, a.datatype, v.value FROM client_attribute_values v
	JOIN custom_attributes a ON a.id = v.attribute_id WHERE v.client_id = ? AND v.value IS NOT NULL ORDER BY v.attribute_id`,
			func(r *sql.Rows) ([3]string, error) {
				var v [3]string
				return v, r.Scan(&v[0], &v[1], &v[2])
			}, id)
		if err != nil {
			return nil, err
		}
		for _, v := range values {
			if c.CustomAttributes == nil {
				c.CustomAttributes = map[string]json.RawMessage{}
			}
			attr, _ := strconv.ParseInt(v[0], 10, 64)
			c.CustomAttributes[key("attribute", attr)] = attributeJSON(v[1], v[2])
		}
		return c, nil
	})
}

// attributeJSON is a stored attribute value as the format writes it: booleans and numbers as
// JSON's own, everything else a string.
func attributeJSON(datatype, value string) json.RawMessage {
	switch datatype {
	case clients.TypeBoolean:
		if b, err := strconv.ParseBool(value); err == nil {
			return json.RawMessage(strconv.FormatBool(b))
		}
	case clients.TypeInteger, clients.TypeFloat:
		if json.Valid([]byte(value)) && !strings.HasPrefix(value, `"`) {
			return json.RawMessage(value)
		}
	}
	b, _ := json.Marshal(value) // a string always marshals
	return b
}

func (w *businessWriter) timetable() error {
	return w.section("timetable", `SELECT id, location_id, service_id, provider_id, day_id, start_min, capacity, room, valid_from, valid_to
	FROM class_timetable ORDER BY id`, func(r *sql.Rows) (any, error) {
		var id, loc, svc, prov, day, start int64
		var capacity sql.NullInt64
		var room, validTo sql.NullString
		var e importer.TimetableEntry
		if err := r.Scan(&id, &loc, &svc, &prov, &day, &start, &capacity, &room, &e.ValidFrom, &validTo); err != nil {
			return nil, err
		}
		e.Key, e.Location, e.Service, e.Provider = key("timetable", id), key("location", loc), key("service", svc), key("provider", prov)
		e.Day, e.Start, e.Capacity, e.Room, e.ValidTo = dayName(day), clock(start), num(capacity), str(room), str(validTo)
		var err error
		e.Cancelled, err = subList(w, `SELECT local_date FROM class_sessions WHERE timetable_id = ? AND status = ? ORDER BY local_date`,
			func(r *sql.Rows) (string, error) {
				var d string
				return d, r.Scan(&d)
			}, id, booking.SessionCancelled)
		return e, err
	})
}

// sessions are the one-off class sessions (those of no timetable entry) still held; the
// timetable's own are made again from it on import.
func (w *businessWriter) sessions() error {
	return w.section("sessions", `SELECT id, location_id, service_id, provider_id, start_at, capacity, room FROM class_sessions
	WHERE timetable_id IS NULL AND status = ? ORDER BY id`, func(r *sql.Rows) (any, error) {
		var id, loc, svc, prov, start int64
		var capacity sql.NullInt64
		var room sql.NullString
		if err := r.Scan(&id, &loc, &svc, &prov, &start, &capacity, &room); err != nil {
			return nil, err
		}
		return importer.ClassSession{Key: key("session", id), Location: key("location", loc), Service: key("service", svc),
			Provider: key("provider", prov), Start: instant(start, w.zone(loc)), Capacity: num(capacity), Room: str(room)}, nil
	}, booking.SessionScheduled)
}

// statusNames are booking_statuses ids as the format names them.
var statusNames = map[int64]string{1: "confirmed", 2: "reserved", 3: "attended", 4: "no_show", 5: "cancelled"}

func (w *businessWriter) bookings() error {
	return w.section("bookings", `SELECT id, location_id, service_id, provider_id, client_id, start_at, end_at, status_id, price_cents,
	list_price_cents, notes, pack_id, pack_returned, sale_id, b.created_at, session_id IS NOT NULL, cancelled_at, cancelled_by, cancelled_late,
	series_id, block_start_at, block_end_at, vb.visit_id, vb.position, vb.part, vb.addon_of, vb.hold_before_ms
	FROM bookings b LEFT JOIN visit_bookings vb ON vb.booking_id = b.id ORDER BY b.id`, func(r *sql.Rows) (any, error) {
		var id, loc, svc, prov, client, start, end, status, price, listPrice, created, blockStart, blockEnd int64
		var notes, cancelledBy sql.NullString
		var pack, sale, cancelledAt, series, visit, position, part, addOnOf, holdBefore sql.NullInt64
		var returned, seat, late bool
		if err := r.Scan(&id, &loc, &svc, &prov, &client, &start, &end, &status, &price, &listPrice, &notes, &pack, &returned, &sale, &created, &seat,
			&cancelledAt, &cancelledBy, &late, &series, &blockStart, &blockEnd, &visit, &position, &part, &addOnOf, &holdBefore); err != nil {
			return nil, err
		}
		zone := w.zone(loc)
		b := importer.Booking{Key: key("booking", id), Location: key("location", loc), Service: key("service", svc),
			Provider: key("provider", prov), Client: key("client", client), Start: instant(start, zone), End: ptr(instant(end, zone)),
			Status: statusNames[status], Price: ptr(amountText(price)), ListPrice: ptr(amountText(listPrice)), Notes: str(notes),
			Created: instant(created, time.UTC)}
		if seat {
			b.End = nil // a seat lasts as long as its session
		}
		if b.Status == "" {
			b.Status = strconv.FormatInt(status, 10) // refused on import, with its path
		}
		if pack.Valid {
			b.Pack, b.PackReturned = key("pack", pack.Int64), returned
		}
		if sale.Valid {
			b.Sale = key("sale", sale.Int64)
		}
		if cancelledAt.Valid {
			b.Cancellation = &importer.Cancellation{At: instant(cancelledAt.Int64, time.UTC), By: cancelledBy.String, Late: late}
		}
		if series.Valid {
			b.Series = key("series", series.Int64)
		}
		if visit.Valid {
			b.Visit = &importer.BookingVisit{Visit: key("visit", visit.Int64), Position: position.Int64, Part: part.Int64, AddOnOf: num(addOnOf),
				HeldBefore: (start - blockStart) / 60000, HeldAfter: (blockEnd - end) / 60000, HoldBefore: holdBefore.Int64 / 60000}
		}
		return b, nil
	})
}

// series are the rules of repeating bookings; their dates are bookings naming them.
func (w *businessWriter) series() error {
	return w.section("series", `SELECT id, freq, interval_weeks, week_of_month, count, first_local, created_at FROM booking_series ORDER BY id`,
		func(r *sql.Rows) (any, error) {
			var id, created int64
			var week sql.NullInt64
			var s importer.Series
			if err := r.Scan(&id, &s.Frequency, &s.Interval, &week, &s.Count, &s.First, &created); err != nil {
				return nil, err
			}
			s.Key, s.WeekOfMonth, s.Created = key("series", id), num(week), instant(created, time.UTC)
			return s, nil
		})
}

// visits group the bookings booked as one; each booking of a visit names it.
func (w *businessWriter) visits() error {
	return w.section("visits", `SELECT id, location_id, client_id, source, created_at FROM visits ORDER BY id`, func(r *sql.Rows) (any, error) {
		var id, loc, client, created int64
		var v importer.Visit
		if err := r.Scan(&id, &loc, &client, &v.Source, &created); err != nil {
			return nil, err
		}
		v.Key, v.Location, v.Client, v.Created = key("visit", id), key("location", loc), key("client", client), instant(created, time.UTC)
		return v, nil
	})
}

// waits are the waitlist for appointments (its offers, short-lived claim links, are left out).
func (w *businessWriter) waits() error {
	return w.section("appointment_waitlist", `SELECT client_id, location_id, service_id, provider_id, first_day, last_day, status,
	booking_id, source, created_at FROM appointment_waits ORDER BY id`, func(r *sql.Rows) (any, error) {
		var client, loc, svc, created int64
		var provider, bookingID sql.NullInt64
		var a importer.AppointmentWait
		if err := r.Scan(&client, &loc, &svc, &provider, &a.First, &a.Last, &a.Status, &bookingID, &a.Source, &created); err != nil {
			return nil, err
		}
		a.Client, a.Location, a.Service, a.Created = key("client", client), key("location", loc), key("service", svc), instant(created, time.UTC)
		if provider.Valid {
			a.Provider = key("provider", provider.Int64)
		}
		if bookingID.Valid {
			a.Booking = key("booking", bookingID.Int64)
		}
		return a, nil
	})
}

func (w *businessWriter) products() error {
	return w.section("products", `SELECT id, name, sku, price_cents, stock, description, active FROM products ORDER BY id`,
		func(r *sql.Rows) (any, error) {
			var id, price int64
			var p importer.Product
			var sku, description sql.NullString
			var stock sql.NullInt64
			var active bool
			if err := r.Scan(&id, &p.Name, &sku, &price, &stock, &description, &active); err != nil {
				return nil, err
			}
			p.Key, p.SKU, p.Price, p.Stock, p.Description, p.Active = key("product", id), str(sku), amountText(price), num(stock), str(description), &active
			return p, nil
		})
}

func (w *businessWriter) packs() error {
	return w.section("packs", `SELECT id, client_id, service_id, sessions_total, price_cents, sale_id, expires_at, created_at
	FROM client_packs ORDER BY id`, func(r *sql.Rows) (any, error) {
		var id, client, service, created int64
		var p importer.Pack
		var price int64
		var sale, expires sql.NullInt64
		if err := r.Scan(&id, &client, &service, &p.Sessions, &price, &sale, &expires, &created); err != nil {
			return nil, err
		}
		p.Key, p.Client, p.Service, p.Price, p.Created = key("pack", id), key("client", client), key("service", service), amountText(price), instant(created, time.UTC)
		if sale.Valid {
			p.Sale = key("sale", sale.Int64)
		}
		if expires.Valid {
			p.Expires = ptr(instant(expires.Int64, time.UTC))
		}
		return p, nil
	})
}

func (w *businessWriter) sales() error {
	return w.section("sales", `SELECT s.id, s.location_id, s.client_id, s.status, s.paid_cents, s.pending_cents, s.paid_at, s.created_at,
	k.note, s.cart_id FROM sales s JOIN carts k ON k.id = s.cart_id ORDER BY s.id`, func(r *sql.Rows) (any, error) {
		var id, loc, paid, pending, created, cart int64
		var client, paidAt sql.NullInt64
		var note sql.NullString
		var s importer.Sale
		if err := r.Scan(&id, &loc, &client, &s.Status, &paid, &pending, &paidAt, &created, &note, &cart); err != nil {
			return nil, err
		}
		s.Key, s.Location, s.Paid, s.Pending, s.Created, s.Note = key("sale", id), key("location", loc), amountText(paid), amountText(pending), instant(created, time.UTC), str(note)
		if client.Valid {
			s.Client = key("client", client.Int64)
		}
		if paidAt.Valid {
			s.PaidAt = ptr(instant(paidAt.Int64, time.UTC))
		}
		var err error
		if s.Lines, err = subList(w, `SELECT i.item_type, i.item_name, i.item_id, i.product_id, i.quantity, i.unit_price_cents, i.unit_discount_cents,
	EXISTS (SELECT 1 FROM services v WHERE v.id = i.item_id) FROM cart_items i WHERE i.cart_id = ? ORDER BY i.position, i.id`,
			func(r *sql.Rows) (importer.SaleLine, error) {
				var l importer.SaleLine
				var name sql.NullString
				var item, unit int64
				var product, discount sql.NullInt64
				var isService bool
				if err := r.Scan(&l.Type, &name, &item, &product, &l.Quantity, &unit, &discount, &isService); err != nil {
					return l, err
				}
				l.Name, l.UnitPrice = str(name), amountText(unit)
				if discount.Valid {
					l.UnitDiscount = ptr(amountText(discount.Int64))
				}
				switch {
				case product.Valid:
					l.Product = key("product", product.Int64)
				case isService && (l.Type == "service" || l.Type == "class" || l.Type == "session"):
					l.Service = key("service", item)
				}
				return l, nil
			}, cart); err != nil {
			return nil, err
		}
		s.Payments, err = subList(w, `SELECT t.amount_cents, m.name, t.paid_at, t.created_at FROM transactions t
	JOIN payment_methods m ON m.id = t.payment_method_id WHERE t.sale_id = ? ORDER BY t.id`, func(r *sql.Rows) (importer.SalePayment, error) {
			var p importer.SalePayment
			var amount, created int64
			var paidAt sql.NullInt64
			err := r.Scan(&amount, &p.Method, &paidAt, &created)
			p.Amount, p.Created = amountText(amount), instant(created, time.UTC)
			if amount < 0 {
				p.Amount = "-" + amountText(-amount)
			}
			if paidAt.Valid {
				p.PaidAt = ptr(instant(paidAt.Int64, time.UTC))
			}
			return p, err
		}, id)
		return s, err
	})
}
