package catalog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/booking"
	"frontdesk/db"
)

// LocationInput is a location as the owner types it. The address fields are the keys of the
// Connect v3 address object; Hours holds one weekday per entry by day_id (0 = Sunday) in the
// syntax of hours.go.
type LocationInput struct {
	Name           string    `form:"name"`
	Active         bool      `form:"active"`
	Route          string    `form:"route"`
	StreetNumber   string    `form:"street_number"`
	Locality       string    `form:"locality"`
	Region         string    `form:"administrative_area_level_1"`
	AddressCountry string    `form:"address_country"` // "" = the country's name
	Phone          string    `form:"phone"`
	Email          string    `form:"email"`
	Latitude       string    `form:"latitude"`
	Longitude      string    `form:"longitude"`
	Timezone       string    `form:"timezone"`
	CountryCode    string    `form:"country_code"`
	Hours          [7]string `form:"hours"`
	// Clock12 says the business writes times on a 12-hour clock: the hours' 1:00 to 12:59 then
	// need am or pm (parseDay). The admin sets it from the business's setting.
	Clock12 bool `form:"-"`
}

// NewLocationInput is the form of a new location: active, open nowhere yet.
func NewLocationInput() LocationInput { return LocationInput{Active: true} }

// addressKeys are the address object's keys the form edits, by form field. Other keys an import
// stored are kept as they are.
var addressKeys = []string{"route", "street_number", "locality", "administrative_area_level_1", "country"}

type location struct {
	row     db.UpdateLocationParams // without UpdatedAt, ID, ImageURL, ImageMap
	address map[string]string
	country Country
	hours   [7][]Shift
}

func (in LocationInput) check(ctx context.Context, q *db.Queries) (location, error) {
	p := problems{}
	var l location
	r := &l.row
	r.Name = p.name("name", in.Name, true, MaxName)
	r.Active = in.Active
	code := strings.ToUpper(strings.TrimSpace(in.CountryCode))
	if c, ok := CountryByCode(code); ok {
		l.country = c
	} else if c, err := q.GetCountryByCode(ctx, code); err == nil && code != "" {
		l.country = Country{Code: c.Code, Name: c.Name} // a country an import brought
	} else if err != nil && !db.IsNotFound(err) {
		return l, err
	} else {
		p.add("country_code", "Choose the country from the list.")
	}
	l.address = map[string]string{}
	for i, v := range []string{in.Route, in.StreetNumber, in.Locality, in.Region, in.AddressCountry} {
		field := addressKeys[i]
		if field == "country" {
			field = "address_country"
		}
		l.address[addressKeys[i]] = p.text(field, v, false, MaxName)
	}
	if l.address["country"] == "" {
		l.address["country"] = l.country.Name
	}
	if phone := p.phone("phone", in.Phone); phone != "" {
		r.Phone = sql.NullString{String: phone, Valid: true}
	}
	r.Email = p.email("email", in.Email)
	r.Latitude = p.coordinate("latitude", in.Latitude, MaxLatitude)
	r.Longitude = p.coordinate("longitude", in.Longitude, MaxLongitude)
	r.Timezone = strings.TrimSpace(in.Timezone)
	if _, err := LocationZone(r.Timezone); err != nil {
		p.add("timezone", "Choose the time zone from the list.")
	}
	for day, text := range in.Hours {
		shifts, msg := parseDay(text, false, in.Clock12)
		if msg != "" {
			p.add("hours_"+strconv.Itoa(day), "%s", msg)
		}
		l.hours[day] = shifts
	}
	return l, p.err()
}

// LocationZone is the time zone a location may be in: an IANA zone name (not "Local", not
// empty), the rule of the location form and of the importer.
func LocationZone(name string) (*time.Location, error) { return booking.LoadZone(name) }

// Bounds of a location's coordinates, in decimal degrees either side of zero.
const (
	MaxLatitude  = 90
	MaxLongitude = 180
)

// ValidCoordinate reports whether v is a coordinate within ±limit degrees (MaxLatitude,
// MaxLongitude).
func ValidCoordinate(v, limit float64) bool { return v >= -limit && v <= limit }

// coordinate reads an optional latitude or longitude within ±limit degrees.
func (p problems) coordinate(field, s string, limit float64) sql.NullFloat64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return sql.NullFloat64{}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !ValidCoordinate(v, limit) {
		p.add(field, "Enter decimal degrees from %g to %g, like -33.4255.", -limit, limit)
		return sql.NullFloat64{}
	}
	return sql.NullFloat64{Float64: v, Valid: true}
}

// countryID finds or creates the countries row of c.
func countryID(ctx context.Context, q *db.Queries, c Country) (int64, error) {
	row, err := q.GetCountryByCode(ctx, c.Code)
	if db.IsNotFound(err) {
		row, err = q.CreateCountry(ctx, db.CreateCountryParams{Code: c.Code, Name: c.Name})
	}
	return row.ID, err
}

// writeHours replaces the opening hours of location id.
func (l location) writeHours(ctx context.Context, q *db.Queries, id int64) error {
	if err := q.DeleteLocationHours(ctx, id); err != nil {
		return err
	}
	for day, shifts := range l.hours {
		for _, sh := range shifts {
			err := q.CreateLocationHours(ctx, db.CreateLocationHoursParams{LocationID: id, DayID: int64(day), OpenMin: sh.Open, CloseMin: sh.Close})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// CreateLocation stores a new location with its opening hours.
func CreateLocation(ctx context.Context, d *db.DB, in LocationInput, now time.Time) (int64, error) {
	var id int64
	err := d.InTx(ctx, func(q *db.Queries) error {
		l, err := in.check(ctx, q)
		if err != nil {
			return err
		}
		country, err := countryID(ctx, q, l.country)
		if err != nil {
			return err
		}
		address, _ := json.Marshal(compact(l.address)) // a map of strings always marshals
		r, ms := l.row, db.Millis(now)
		row, err := q.CreateLocation(ctx, db.CreateLocationParams{
			UUID: newUUID(), Name: r.Name, Active: r.Active, AddressJSON: string(address), Phone: r.Phone, Email: r.Email,
			Latitude: r.Latitude, Longitude: r.Longitude, Timezone: r.Timezone, CountryID: country, CreatedAt: ms, UpdatedAt: ms,
		})
		if err != nil {
			return err
		}
		id = row.ID
		if err := record(ctx, q, now, "location.created", id, activity.Created(row, unrecorded...)); err != nil {
			return err
		}
		return l.writeHours(ctx, q, id)
	})
	return id, err
}

// UpdateLocation saves location id and replaces its opening hours. The picture fields and
// address keys the form does not show are kept.
func UpdateLocation(ctx context.Context, d *db.DB, id int64, in LocationInput, now time.Time) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		old, err := q.GetLocation(ctx, id)
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		l, err := in.check(ctx, q)
		if err != nil {
			return err
		}
		address := map[string]string{}
		_ = json.Unmarshal([]byte(old.Location.AddressJSON), &address) // written only by validated code
		for k, v := range l.address {
			address[k] = v
		}
		encoded, _ := json.Marshal(compact(address)) // a map of strings always marshals
		r := l.row
		r.AddressJSON, r.ID, r.UpdatedAt = string(encoded), id, db.Millis(now)
		r.ImageURL, r.ImageMap = old.Location.ImageURL, old.Location.ImageMap
		if r.CountryID, err = countryID(ctx, q, l.country); err != nil {
			return err
		}
		if err := q.UpdateLocation(ctx, r); err != nil {
			return err
		}
		if err := record(ctx, q, now, "location.updated", id, activity.Diff(old.Location, r, unrecorded...)); err != nil {
			return err
		}
		return l.writeHours(ctx, q, id)
	})
}

// compact drops empty address parts, so a cleared field is absent rather than "".
func compact(m map[string]string) map[string]string {
	for k, v := range m {
		if v == "" {
			delete(m, k)
		}
	}
	return m
}

// EditLocation returns location id as its form shows it, its hours' times written by clock.
func EditLocation(ctx context.Context, q *db.Queries, id int64, clock Clock) (LocationInput, error) {
	row, err := q.GetLocation(ctx, id)
	if db.IsNotFound(err) {
		return LocationInput{}, ErrNotFound
	}
	if err != nil {
		return LocationInput{}, err
	}
	hours, err := q.ListLocationHours(ctx, id)
	if err != nil {
		return LocationInput{}, err
	}
	l := row.Location
	address := map[string]string{}
	_ = json.Unmarshal([]byte(l.AddressJSON), &address) // written only by validated code
	in := LocationInput{
		Name: l.Name, Active: l.Active, Route: address["route"], StreetNumber: address["street_number"],
		Locality: address["locality"], Region: address["administrative_area_level_1"], AddressCountry: address["country"],
		Phone: l.Phone.String, Email: l.Email, Timezone: l.Timezone, CountryCode: row.CountryCode,
	}
	if l.Latitude.Valid {
		in.Latitude = strconv.FormatFloat(l.Latitude.Float64, 'f', -1, 64)
	}
	if l.Longitude.Valid {
		in.Longitude = strconv.FormatFloat(l.Longitude.Float64, 'f', -1, 64)
	}
	var days [7][]Shift
	for _, h := range hours {
		days[h.DayID] = append(days[h.DayID], Shift{Span: Span{h.OpenMin, h.CloseMin}})
	}
	for day, shifts := range days {
		in.Hours[day] = formatDay(shifts, clock)
	}
	return in, nil
}

// ClosureInput is a day a location is closed.
type ClosureInput struct {
	Date   string `form:"date"`
	Reason string `form:"reason"`
}

// AddClosure closes location id for a whole local day.
func AddClosure(ctx context.Context, d *db.DB, locationID int64, in ClosureInput) error {
	p := problems{}
	date, err := booking.ParseDate(strings.TrimSpace(in.Date))
	if err != nil || !date.IsValid() {
		p.add("date", "Enter a date like 2026-12-25.")
	}
	reason := p.text("reason", in.Reason, false, MaxName)
	if err := p.err(); err != nil {
		return err
	}
	return d.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.GetLocation(ctx, locationID); db.IsNotFound(err) {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		err := q.CreateLocationClosure(ctx, db.CreateLocationClosureParams{LocationID: locationID, Date: date.String(), Reason: reason})
		if db.IsConstraint(err, "UNIQUE") {
			return &Invalid{Fields: map[string]string{"date": fmt.Sprintf("The location is already closed on %s.", date)}}
		} else if err != nil {
			return err
		}
		return record(ctx, q, time.Now(), "location.closure_added", locationID,
			activity.Changes{}.Set("closure.date", nil, date.String()).Set("closure.reason", nil, reason))
	})
}

// RemoveClosure reopens a closed day.
func RemoveClosure(ctx context.Context, d *db.DB, locationID, closureID int64) error {
	return d.InTx(ctx, func(q *db.Queries) error {
		closures, err := q.ListAllLocationClosures(ctx, locationID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(closures, func(c db.LocationClosure) bool { return c.ID == closureID })
		if i < 0 {
			return ErrNotFound
		}
		if err := q.DeleteLocationClosure(ctx, db.DeleteLocationClosureParams{ID: closureID, LocationID: locationID}); err != nil {
			return err
		}
		return record(ctx, q, time.Now(), "location.closure_removed", locationID,
			activity.Changes{}.Set("closure.date", closures[i].Date, nil).Set("closure.reason", closures[i].Reason, nil))
	})
}
