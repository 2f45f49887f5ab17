package importer

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Every broken file is refused with a problem that names its JSON path, and writes nothing.
func TestLoadRefusesBrokenFiles(t *testing.T) {
	example := exampleFile(t)
	cut := map[string]any{"location": "centro", "service": "cut", "provider": "ana", "client": "maria"}
	booking := func(start string, extra ...string) map[string]any {
		b := map[string]any{"start": start}
		for k, v := range cut {
			b[k] = v
		}
		for i := 0; i+1 < len(extra); i += 2 {
			b[extra[i]] = extra[i+1]
		}
		return b
	}
	yoga := func(start, client string) map[string]any {
		return map[string]any{"location": "centro", "service": "yoga", "provider": "ana", "client": client, "start": start}
	}
	tests := []struct {
		name string
		file string
		want []string // each must be one of the reported problems, in full or as a prefix
	}{
		{"invalid JSON", `{"company": {"name": "X",}}`,
			[]string{`company: line 1, column 26: invalid JSON: invalid character '}' looking for beginning of object key string`}},
		{"truncated file", `{"locations": [{"key": "a"`,
			[]string{"locations[0]: line 1, column 27: invalid JSON: unexpected end of file"}},
		{"not an object", `[]`, []string{`want an object, got an array`}},
		{"null", ` null `, []string{`want an object, got null`}},
		{"empty file", "\n", []string{`the file is empty (want a JSON object)`}},
		{"not UTF-8", "{\"company\": {\"name\": \"\xff\"}}", []string{`the file is not valid UTF-8`}},
		{"data after the object", "{\"company\": null}\n {}", []string{`line 2, column 2: unexpected data after the top-level object`}},
		{"unknown field", edit(t, example, map[string]any{"providers[0].hours[0].brakes": []any{}}),
			[]string{`providers[0].hours[0].brakes: unknown field (did you mean "breaks"?)`}},
		{"unknown section", edit(t, example, map[string]any{"staff": []any{}}),
			[]string{`staff: unknown field`}},
		{"field given twice", strings.Replace(example, `"name": "Haircut",`, `"name": "Haircut", "name": "Cut",`, 1),
			[]string{`services[0].name: appears twice in the same object`}},
		{"bidi control in a name", edit(t, example, map[string]any{"services[0].name": "Hair\u202Ecut"}),
			[]string{`services[0].name: must not contain direction-changing characters (U+202E)`}},
		{"zero-width character in a name", edit(t, example, map[string]any{"clients[0].first_name": "Ma\u200Bria"}),
			[]string{`clients[0].first_name: must not contain invisible characters (U+200B)`}},
		{"wrong JSON type", edit(t, example, map[string]any{"services[0].duration": "30"}),
			[]string{`services[0].duration: want an integer, got the string "30"`}},
		{"fractional integer", edit(t, example, map[string]any{"company.slot_step_min": 7.5}),
			[]string{`company.slot_step_min: 7.5 is not an integer`}},
		{"bad break time", edit(t, example, map[string]any{"providers[0].hours[0].breaks[0].start": "25:00"}),
			[]string{`providers[0].hours[0].breaks[0].start: "25:00" is not a time (want HH:MM)`}},
		{"break outside its shift", edit(t, example, map[string]any{"providers[0].hours[0].breaks[0].end": "18:30"}),
			[]string{`providers[0].hours[0].breaks[0]: 13:00–18:30 is not inside the shift 09:00–18:00`}},
		{"close before open", edit(t, example, map[string]any{"locations[0].hours[2].close": "08:00"}),
			[]string{`locations[0].hours[2].close: "08:00" is not after open "09:00"`}},
		{"overlapping opening ranges", edit(t, example, map[string]any{"locations[0].hours[1].open": "12:00"}),
			[]string{`locations[0].hours[1]: overlaps the opening range at locations[0].hours[0]`}},
		{"bad weekday", edit(t, example, map[string]any{"locations[1].hours[0].day": "Wednesday"}),
			[]string{`locations[1].hours[0].day: "Wednesday" is not a weekday`}},
		{"bad zone", edit(t, example, map[string]any{"locations[1].timezone": "Europe/Madird"}),
			[]string{`locations[1].timezone: "Europe/Madird" is not an IANA time zone`}},
		{"the local zone, which is no zone", edit(t, example, map[string]any{"locations[1].timezone": "Local"}),
			[]string{`locations[1].timezone: "Local" is not an IANA time zone`}},
		// The catalog's bounds (catalog.MaxName), which the location and provider forms apply: a
		// name the owner could not save again in the admin is not imported either.
		{"a location name longer than the catalog's", edit(t, example, map[string]any{"locations[0].name": strings.Repeat("a", 201)}),
			[]string{`locations[0].name: is longer than 200 characters`}},
		{"a provider name longer than the catalog's", edit(t, example, map[string]any{"providers[0].public_name": strings.Repeat("a", 201)}),
			[]string{`providers[0].public_name: is longer than 200 characters`}},
		{"a latitude off the globe", edit(t, example, map[string]any{"locations[0].latitude": 90.5}),
			[]string{`locations[0].latitude: 90.5 is not a latitude (want -90 to 90)`}},
		{"shift at a location the provider does not work at", edit(t, example, map[string]any{"providers[1].hours[0].location": "online"}),
			[]string{`providers[1].hours[0].location: "online" is not one of this provider's locations`}},
		{"time off ending before it starts", edit(t, example, map[string]any{"providers[0].time_off[0].to": "2026-12-20"}),
			[]string{`providers[0].time_off[0].to: 2026-12-21T00:00-03:00 is not after from 2026-12-28T00:00-03:00`}},
		{"unknown reference", edit(t, example, map[string]any{"bookings[0].provider": "zed"}),
			[]string{`bookings[0].provider: "zed" is not the key of any entry in providers`}},
		{"unknown category", edit(t, example, map[string]any{"services[1].category": "nails"}),
			[]string{`services[1].category: "nails" is not the key of any entry in categories`}},
		{"duplicate key", edit(t, example, map[string]any{"clients[1].key": "maria"}),
			[]string{`clients[1].key: "maria" is already the key of clients[0]`}},
		{"duplicate record number", edit(t, example, map[string]any{"clients[1].record_number": "C-0001"}),
			[]string{`clients[1].record_number: "C-0001" is already the record number of clients[0]`}},
		{"provider not at the location", edit(t, example, map[string]any{"bookings[3].location": "online"}),
			[]string{`bookings[3].provider: provider "ben" does not work at location "online"`}},
		{"provider not offering the service", edit(t, example, map[string]any{"bookings[3].service": "colour"}),
			[]string{`bookings[3].provider: provider "ben" does not offer service "colour"`}},
		{"overlapping bookings", edit(t, example, map[string]any{"bookings[+]": booking("2026-12-01T10:20")}),
			[]string{`bookings[6]: provider "ana" already has a booking at 2026-12-01T10:00-03:00 (bookings[0])`}},
		{"overlapping buffers", edit(t, example, map[string]any{"bookings[+]": booking("2026-12-01T10:35")}),
			[]string{`bookings[6]: provider "ana" already has a booking at 2026-12-01T10:00-03:00 (bookings[0])`}},
		{"overlap across zones", edit(t, example, map[string]any{"bookings[+]": booking("2026-12-02T13:10")}),
			[]string{`bookings[6]: provider "ana" already has a booking at 2026-12-02T17:00+01:00 (bookings[2])`}},
		{"class booking at no session", edit(t, example, map[string]any{"bookings[+]": yoga("2026-12-01T18:30", "maria")}),
			[]string{`bookings[6].start: 2026-12-01T18:30-03:00 is not a session of class "yoga" with provider "ana"`}},
		{"class booking in a cancelled session", edit(t, example, map[string]any{"bookings[+]": yoga("2026-12-29T18:00", "maria")}),
			[]string{`bookings[6].start: the session at 2026-12-29T18:00-03:00 is cancelled (timetable[0] 2026-12-29)`}},
		{"a client twice in a session", edit(t, example, map[string]any{"bookings[+]": yoga("2026-12-01T18:00", "maria")}),
			[]string{`bookings[6].client: client "maria" already has a seat in this session (bookings[4])`}},
		{"more seats than the capacity", edit(t, example, map[string]any{"timetable[0].capacity": 1}),
			[]string{`bookings[5]: the session at 2026-12-01T18:00-03:00 (timetable[0] 2026-12-01) has 1 seats, and this is booking 2 in it`}},
		{"a seat longer than its session", edit(t, example, map[string]any{"bookings[4].end": "2026-12-01T19:30"}),
			[]string{`bookings[4].end: a seat lasts as long as its session, until 2026-12-01T19:00-03:00; leave end out`}},
		{"a booking during a class", edit(t, example, map[string]any{"bookings[+]": booking("2026-12-01T18:15")}),
			[]string{`bookings[6]: provider "ana" is taken then: bookings[6] overlaps timetable[0] 2026-12-01`}},
		{"a one-off over a booking", edit(t, example, map[string]any{"sessions[0].start": "2026-12-01T09:30"}),
			[]string{`bookings[0]: provider "ana" is taken then: bookings[0] overlaps sessions[0]`}},
		{"a timetable for a service that is no class", edit(t, example, map[string]any{"timetable[0].service": "cut"}),
			[]string{`timetable[0].service: service "cut" is not a class (give it a capacity above 1)`}},
		{"a cancelled date on another weekday", edit(t, example, map[string]any{"timetable[0].cancelled[0]": "2026-12-30"}),
			[]string{`timetable[0].cancelled[0]: 2026-12-30 is a Wednesday; the entry is on tuesdays`}},
		{"a cancelled date in the missing hour", edit(t, example, map[string]any{"timetable[0].day": "sunday", "timetable[0].start": "00:30",
			"timetable[0].cancelled[0]": "2026-09-06", "timetable[0].valid_from": "2026-09-01", "bookings[4]": nil, "bookings[5]": nil}),
			[]string{`timetable[0].cancelled[0]: there is no session on 2026-09-06: 00:30 does not exist that day`}},
		{"local time skipped by daylight saving", edit(t, example, map[string]any{"bookings[0].start": "2026-09-06T00:30"}),
			[]string{`bookings[0].start: 2026-09-06T00:30 does not exist in America/Santiago (the clocks skip it)`}},
		{"start without a time", edit(t, example, map[string]any{"bookings[0].start": "+1w mon"}),
			[]string{`bookings[0].start: "+1w mon" is a date; want a time of day too`}},
		{"bad relative weekday", edit(t, example, map[string]any{"bookings[1].start": "+1w funday 10:00"}),
			[]string{`bookings[1].start: "+1w funday": "funday" is not a weekday (want mon … sun)`}},
		{"unparseable start", edit(t, example, map[string]any{"bookings[0].start": "tomorrow at ten"}),
			[]string{`bookings[0].start: "tomorrow at ten" is not a time`}},
		{"end before start", edit(t, example, map[string]any{"bookings[2].end": "2026-12-02T16:30+01:00"}),
			[]string{`bookings[2].end: 2026-12-02T16:30+01:00 is not after start 2026-12-02T17:00+01:00`}},
		{"bad status", edit(t, example, map[string]any{"bookings[0].status": "done"}),
			[]string{`bookings[0].status: "done" is not one of confirmed, reserved, attended, no_show, cancelled`}},
		{"bad price", edit(t, example, map[string]any{"services[0].price": "15.000"}),
			[]string{`services[0].price: "15.000" must be a non-negative decimal`}},
		{"duration out of range", edit(t, example, map[string]any{"services[0].duration": 1440}),
			[]string{`services[0].duration: 1440 is out of range (want 5 to 1439)`}},
		{"categoric value not an option", edit(t, example, map[string]any{"clients[0].custom_attributes.hair_type": "Wavy"}),
			[]string{`clients[0].custom_attributes.hair_type: "Wavy" is not one of the options`}},
		{"attribute value of the wrong type", edit(t, example, map[string]any{"clients[0].custom_attributes.vip": "yes"}),
			[]string{`clients[0].custom_attributes.vip: want true or false for a boolean attribute, got "yes"`}},
		{"unknown custom attribute", edit(t, example, map[string]any{"clients[1].custom_attributes": map[string]any{"shoe size": 42}}),
			[]string{`clients[1].custom_attributes["shoe size"]: "shoe size" is not the key of any entry in custom_attributes`}},
		{"phone not E.164", edit(t, example, map[string]any{"clients[1].phone": "212 555 0123"}),
			[]string{`clients[1].phone: "212 555 0123" is not a phone number in E.164 form`}},
		{"bad email", edit(t, example, map[string]any{"clients[1].email": "john@"}),
			[]string{`clients[1].email: "john@" is not an email address`}},
		// The values of clients and services follow the rules of app/clients and app/catalog, the
		// ones the API and the admin apply: an import stores nothing they would refuse.
		{"email without a dotted domain", edit(t, example, map[string]any{"clients[1].email": "john@localhost"}),
			[]string{`clients[1].email: "john@localhost" is not an email address`}},
		{"a day the month has not, year unknown", edit(t, example, map[string]any{"clients[1].birth_day": 31, "clients[1].birth_month": 4}),
			[]string{`clients[1].birth_day: month 4 has no day 31`}},
		{"phone country not letters", edit(t, example, map[string]any{"clients[1].phone_country": "C1"}),
			[]string{`clients[1].phone_country: "C1" is not an ISO 3166-1 alpha-2 code`}},
		{"unknown preferred channel", edit(t, example, map[string]any{"clients[1].preferred_channel": "pigeon"}),
			[]string{`clients[1].preferred_channel: "pigeon" is not a channel (want "email" or "sms")`}},
		{"service image with a space", edit(t, example, map[string]any{"services[0].images": []any{"https://example.com/a cut.jpg"}}),
			[]string{`services[0].images[0]: "https://example.com/a cut.jpg" is not an absolute http(s) URL`}},
		{"product without a price", edit(t, example, map[string]any{"products[0].price": ""}),
			[]string{`products[0].price: is required`}},
		{"product SKU twice, other case", edit(t, example, map[string]any{"products[1].sku": "arg-50"}),
			[]string{`products[1].sku: "arg-50" is already the SKU of products[0] (SKUs are unique, ignoring case)`}},
		{"negative stock", edit(t, example, map[string]any{"products[0].stock": -1}),
			[]string{`products[0].stock: -1 is out of range (want 0 to 1000000000)`}},
		{"duplicate product key", edit(t, example, map[string]any{"products[1].key": "argan"}),
			[]string{`products[1].key: "argan" is already the key of products[0]`}},
		{"unknown product field", edit(t, example, map[string]any{"products[0].qty": 3}),
			[]string{`products[0].qty: unknown field`}},
		{"sale of an unknown product, a bad status and method", edit(t, example, map[string]any{
			"sales[0].lines[0].product": "oil", "sales[0].status": "done", "sales[0].payments[0].method": "Cheque",
		}), []string{
			`sales[0].status: "done" is not one of paid, partially_paid, canceled, refunded`,
			`sales[0].lines[0].product: "oil" is not the key of any entry in products`,
			`sales[0].payments[0].method: "Cheque" is not a payment method`,
		}},
		{"sale without lines", edit(t, example, map[string]any{"sales[1].lines": []any{}}),
			[]string{`sales[1].lines: is required: at least one line`}},
		{"product named on a service line", edit(t, example, map[string]any{"sales[1].lines[0].product": "comb"}),
			[]string{`sales[1].lines[0].product: is only for a line of type product`}},
		{"sale time not an instant", edit(t, example, map[string]any{"sales[0].created": "2026-11-20 12:00"}),
			[]string{`sales[0].created: "2026-11-20 12:00" is not an RFC 3339 instant`}},
		{"pack of no sessions for an unknown client", edit(t, example, map[string]any{"packs[0].sessions": 0, "packs[0].client": "nobody"}),
			[]string{`packs[0].client: "nobody" is not the key of any entry in clients`, `packs[0].sessions: 0 is out of range (want at least 1)`}},
		{"booking of an unknown pack and sale", edit(t, example, map[string]any{"bookings[0].pack": "x", "bookings[0].sale": "y"}),
			[]string{`bookings[0].pack: "x" is not the key of any entry in packs`, `bookings[0].sale: "y" is not the key of any entry in sales`}},
		{"pack returned by a live booking", edit(t, example, map[string]any{"bookings[0].pack_returned": true}),
			[]string{`bookings[0].pack_returned: is only for a cancelled booking that used a pack`}},
		{"cancellation of a live booking, by nobody known", edit(t, example, map[string]any{"bookings[0].cancellation": map[string]any{
			"at": "yesterday", "by": "the dog"}}),
			[]string{`bookings[0].cancellation: is only for a cancelled booking`, `bookings[0].cancellation.at: "yesterday" is not an RFC 3339 instant`,
				`bookings[0].cancellation.by: "the dog" is not who cancels`}},
		{"booking of another client's pack", edit(t, example, map[string]any{"bookings[0].client": "john"}),
			[]string{`bookings[0].pack: "maria-cuts" is a pack of client "maria" for service "cut"`}},
		{"booking after its pack expired", edit(t, example, map[string]any{"packs[0].expires": "2026-11-30T00:00:00-03:00"}),
			[]string{`bookings[0].pack: "maria-cuts" expired on 2026-11-30T00:00-03:00, before this booking`}},
		{"pack used more than its sessions", edit(t, example, map[string]any{"packs[0].sessions": 1, "bookings[3].service": "cut",
			"bookings[3].provider": "ana", "bookings[3].status": "confirmed", "bookings[3].pack": "maria-cuts", "bookings[3].start": "2026-12-01T11:00"}),
			[]string{`bookings[3].pack: "maria-cuts" has 1 session, and this is booking 2 of it`}},
		{"missing company in an empty database", edit(t, example, map[string]any{"company": nil}),
			[]string{`company: is required: this database has no business yet`}},
		{"decoding and validation problems together", edit(t, example, map[string]any{
			"services[0].duration": "30", "services[0].colour": "red", "locations[1].timezone": "Europe/Madird",
		}), []string{
			`services[0].duration: want an integer, got the string "30"`,
			`services[0].colour: unknown field`,
			`locations[1].timezone: "Europe/Madird" is not an IANA time zone`,
		}},
		{"several problems at once", edit(t, example, map[string]any{
			"locations[0].timezone": "Nowhere", "services[2].price": "", "bookings[1].client": "nobody",
		}), []string{
			`locations[0].timezone: "Nowhere" is not an IANA time zone`,
			`services[2].price: is required`,
			`bookings[1].client: "nobody" is not the key of any entry in clients`,
		}},
	}
	// One database for every case: each refused import must leave it exactly as it was.
	d := openDB(t)
	before := tableCounts(t, d)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(context.Background(), d, []byte(tt.file), testNow)
			got := problemsOf(t, err)
			if len(tt.want) > 1 && len(got) != len(tt.want) {
				t.Errorf("got %d problems\n  %s\nwant %d", len(got), strings.Join(got, "\n  "), len(tt.want))
			}
			for _, want := range tt.want {
				if !hasProblem(got, want) {
					t.Errorf("got problems\n  %s\nwant one starting with\n  %s", strings.Join(got, "\n  "), want)
				}
			}
			wantSameCounts(t, tableCounts(t, d), before)
		})
	}
}

func hasProblem(got []string, want string) bool {
	for _, g := range got {
		if strings.HasPrefix(g, want) {
			return true
		}
	}
	return false
}

// A visit's place taken twice is refused with both paths, before anything is written; so is a
// series without its rule's required parts and a booked wait without its booking.
func TestRefuseVisitSeriesAndWaitProblems(t *testing.T) {
	raw := []byte(`{
	"company": {"name": "Studio", "currency": "CLP"},
	"locations": [{"key": "l", "name": "Centro", "timezone": "America/Santiago", "country": {"code": "CL", "name": "Chile"}}],
	"services": [{"key": "s", "name": "Cut", "price": "1000", "duration": 30}],
	"providers": [{"key": "p", "public_name": "Ana", "locations": ["l"], "services": ["s"]}],
	"clients": [{"key": "c", "first_name": "Rosa"}],
	"series": [{"key": "m", "frequency": "monthly", "count": 3, "first": "2026-11-24T10:00"}],
	"visits": [{"key": "v", "location": "l", "client": "c"}],
	"bookings": [
		{"key": "b1", "location": "l", "service": "s", "provider": "p", "client": "c", "start": "2020-01-01 10:00", "visit": {"visit": "v", "position": 0}},
		{"key": "b2", "location": "l", "service": "s", "provider": "p", "client": "c", "start": "2020-01-01 10:30", "visit": {"visit": "v", "position": 0}}
	],
	"appointment_waitlist": [{"client": "c", "location": "l", "service": "s", "first_day": "2026-11-24", "last_day": "2026-11-25", "status": "booked"}]
}`)
	d := openDB(t)
	before := tableCounts(t, d)
	_, loadErr := Load(context.Background(), d, raw, time.Now())
	if loadErr == nil {
		t.Fatal("the file was imported")
	}
	wantSameCounts(t, tableCounts(t, d), before)
	err := loadErr.Error()
	for _, want := range []string{
		`bookings[1].visit: position 0, part 0 of visit "v" is already bookings[0].visit's`,
		`series[0].week_of_month: is required for a monthly series`,
		`appointment_waitlist[0].booking: is required for a booked wait`,
	} {
		if !strings.Contains(err, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, err)
		}
	}
}
