package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"frontdesk/app/importer"
	"frontdesk/db"
)

// The bench's own records, imported beside the demo business through the importer (the path an
// owner's data takes), so that scenario sizes are fixed whatever the demo holds:
//
//   - "Bench Slots Studio" (New York, open 08:00–20:00 daily): 10 providers working
//     08:00–20:00 with a 12:00–13:00 break, and about 200 bookings on the slots day;
//   - "Bench Booking Hall" (Bogotá, no daylight saving time, open all day): providers for
//     create_booking and for conflicting_booking, all working all day, so every grid time is
//     bookable — as many as the run's length needs (gridDemand), at least 50 and 10;
//   - "Bench Archive" (UTC): 50 providers whose bookings list_bookings_100k seeds in bulk;
//   - "Bench Week Desk" (New York, open 08:00–20:00 daily): 30 providers with two bookings
//     each weekday of one week, 300 in all, for week_view;
//   - "Bench Visit Salon" (New York, open 08:00–20:00 daily): 20 providers offering three
//     services (two, three and one steps long), four bookings each on the slots day, for
//     slots_visit and series_check;
//   - one more hall provider whose calendar feed feed_provider reads (its 5,000 bookings are
//     written by the scenario).
const (
	slotsProviders = 10
	minHall        = 50
	minRace        = 10
	maxGridSize    = 5000
	archProviders  = 50
	benchClients   = 50
	slotsDayTarget = 200
	weekProviders  = 30
	weekBookings   = weekProviders * 5 * 2
	visitProviders = 20
	visitDayEach   = 4 // bookings of each visit provider on the slots day
)

// maxBookingRate bounds the booking requests per second either side of a booking scenario can
// make on one machine: the raw SQLite single-row insert ceiling measured on the project's
// machine (≈50k/s, above the ≈19k/s of a whole booking transaction). The grids are sized from
// it, so a run of any length or concurrency never runs out of free or contested times — and
// if one ever did, its errors would fail the scenario rather than pass unnoticed.
const maxBookingRate = 50_000

// gridDemand is how many booking requests one side of a booking scenario may make, and how many
// of them race for each contested group.
type gridDemand struct {
	requests int64
	racers   int
}

func demandOf(cfg Config) gridDemand {
	return gridDemand{requests: int64(maxBookingRate * (cfg.Warmup + cfg.Duration).Seconds()), racers: cfg.Concurrency}
}

// gridSizes is how many hall and race providers cover the demand over days of step minutes:
// a free provider takes one booking per step of the day, a race provider one group of racers
// per six steps. The hall serves two scenarios one after the other (create_booking from its
// first half, then day_in_the_life from its second: grid.half), so it holds twice the demand,
// up to maxGridSize providers.
func gridSizes(d gridDemand, days, step int) (hall, race int) {
	freePer := int64(days * (1440 / step))
	groupsPer := int64(days * (1440 / (6 * step)))
	groups := d.requests/int64(max(d.racers, 1)) + 1
	hall = int(min(max(ceilDiv(2*d.requests, freePer), minHall), maxGridSize))
	race = int(min(max(ceilDiv(groups, groupsPer), minRace), maxGridSize))
	return hall, race
}

func ceilDiv(a, b int64) int64 { return (a + b - 1) / b }

// fixture is what the scenarios need to know about the seeded data.
type fixture struct {
	step       int // the company's slot step, minutes
	slotsLoc   int64
	hallLoc    int64
	archiveLoc int64
	quick      int64 // service lasting one step, offered at the studio, the hall and the archive
	race       int64 // service lasting three steps, offered by the race providers
	slotsDay   time.Time
	slotsSeed  int // bookings seeded on slotsDay
	slots      []int64
	hall       grid
	raceGrid   grid
	// hallSize and raceSize are the providers of each grid.
	hallSize, raceSize int
	// maxChanges is the company's limit of changes per booking (0: none): a customer may
	// reschedule or cancel a booking only while it has been rescheduled fewer times
	// (app/booking/change.go: editPolicy, cancelPolicy). canEdit and canCancel say whether
	// customers may reschedule and cancel at all.
	maxChanges         int
	canEdit, canCancel bool
	archive            []int64
	clients            []int64
	// weekLoc is the week desk; weekMonday the Monday of its booked week (New York).
	weekLoc    int64
	weekMonday time.Time
	// visitLoc is the visit salon, visitServices its three services in visit order and
	// visitProviders its providers; feedProvider the hall provider of feed_provider.
	visitLoc       int64
	visitServices  []int64
	visitProviders []int64
	feedProvider   int64
}

// policy is the part of the company's booking policy the fixture must respect.
type policy struct {
	step, minNoticeMin, maxAdvanceDays, maxChanges, editLockMin int
	canEdit, canCancel                                          bool
}

// seedFixture imports the bench records into d (adding a company first when the database has
// none, so the bench still runs without the demo business), with grids sized for demand, and
// returns their ids.
func seedFixture(ctx context.Context, d *db.DB, now time.Time, demand gridDemand) (*fixture, error) {
	var f importer.File
	pol := policy{step: 15, minNoticeMin: 0, maxAdvanceDays: 90, canEdit: true, canCancel: true}
	n, err := d.R.CountCompanies(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		step, notice, advance := int64(pol.step), int64(pol.minNoticeMin), int64(pol.maxAdvanceDays)
		f.Company = &importer.Company{Name: "Bench company", Currency: "USD", SlotStepMin: &step, MinNoticeMin: &notice, MaxAdvanceDays: &advance,
			CanEdit: &pol.canEdit, CanCancel: &pol.canCancel}
	} else {
		c, err := d.R.GetCompany(ctx)
		if err != nil {
			return nil, err
		}
		pol = policy{step: int(c.SlotStepMin), minNoticeMin: int(c.MinNoticeMin), maxAdvanceDays: int(c.MaxAdvanceDays),
			maxChanges: int(c.MaxChanges), editLockMin: int(c.EditLockMin), canEdit: c.CanEdit, canCancel: c.CanCancel}
	}
	if 6*pol.step > 1440 {
		return nil, fmt.Errorf("the company's slot step of %d minutes leaves no room for the booking scenarios", pol.step)
	}

	studio := mustZone("America/New_York")
	hall := mustZone("America/Bogota")
	// The first local day the scenarios book: past the minimum notice and past the pre-start
	// window in which customers may no longer change a booking (edit_lock_min), with a day to
	// spare, so every reschedule and cancel day_in_the_life sends is one the policy allows.
	lead := max(pol.minNoticeMin, pol.editLockMin)
	first := func(zone *time.Location) time.Time {
		t := now.Add(time.Duration(lead) * time.Minute).In(zone)
		return time.Date(t.Year(), t.Month(), t.Day()+2, 0, 0, 0, 0, zone)
	}
	days := 365
	if pol.maxAdvanceDays > 0 {
		days = pol.maxAdvanceDays - 3 - lead/1440
	}
	if days < 2 {
		return nil, fmt.Errorf("the company books at most %d days ahead, too few for the booking scenarios", pol.maxAdvanceDays)
	}
	slotsDay := first(studio).AddDate(0, 0, min(5, days-1))

	fx := &fixture{step: pol.step, slotsDay: slotsDay, maxChanges: pol.maxChanges, canEdit: pol.canEdit, canCancel: pol.canCancel}
	fx.weekMonday = slotsDay.AddDate(0, 0, (8-int(slotsDay.Weekday()))%7+7) // a Monday a week or two ahead
	fx.hallSize, fx.raceSize = gridSizes(demand, days, pol.step)
	addFixtureRecords(&f, fx, pol.step)
	raw, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	if _, err := importer.Load(ctx, d, raw, now); err != nil {
		return nil, fmt.Errorf("import the bench records: %w", err)
	}

	// The importer remembers the id of every record by its file key.
	id := func(kind, key string) (int64, error) {
		k, err := d.R.GetImportKey(ctx, db.GetImportKeyParams{Kind: kind, Key: key})
		if err != nil {
			return 0, fmt.Errorf("bench %s %s: %w", kind, key, err)
		}
		return k.RecordID, nil
	}
	ids := func(kind, prefix string, n int) ([]int64, error) {
		out := make([]int64, n)
		for i := range out {
			var err error
			if out[i], err = id(kind, fmt.Sprintf("%s%d", prefix, i+1)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	var hallIDs, raceIDs []int64
	for _, step := range []func() error{
		func() (err error) { fx.slotsLoc, err = id("location", "bench-studio-1"); return },
		func() (err error) { fx.hallLoc, err = id("location", "bench-hall-1"); return },
		func() (err error) { fx.archiveLoc, err = id("location", "bench-archive-1"); return },
		func() (err error) { fx.weekLoc, err = id("location", "bench-week-1"); return },
		func() (err error) { fx.quick, err = id("service", "bench-quick-1"); return },
		func() (err error) { fx.race, err = id("service", "bench-race-1"); return },
		func() (err error) { fx.slots, err = ids("provider", "bench-studio-p", slotsProviders); return },
		func() (err error) { hallIDs, err = ids("provider", "bench-hall-p", fx.hallSize); return },
		func() (err error) { raceIDs, err = ids("provider", "bench-race-p", fx.raceSize); return },
		func() (err error) { fx.archive, err = ids("provider", "bench-archive-p", archProviders); return },
		func() (err error) { fx.clients, err = ids("client", "bench-client-", benchClients); return },
		func() (err error) { fx.visitLoc, err = id("location", "bench-visit-1"); return },
		func() (err error) { fx.visitServices, err = ids("service", "bench-visit-s", 3); return },
		func() (err error) { fx.visitProviders, err = ids("provider", "bench-visit-p", visitProviders); return },
		func() (err error) { fx.feedProvider, err = id("provider", "bench-feed-p1"); return },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	fx.hall = grid{providers: hallIDs, zone: hall, firstDay: first(hall), days: days, step: pol.step}
	fx.raceGrid = grid{providers: raceIDs, zone: hall, firstDay: first(hall), days: days, step: pol.step}
	return fx, nil
}

// addFixtureRecords appends the bench's locations, services, providers, clients and the slots
// day's bookings to f.
func addFixtureRecords(f *importer.File, fx *fixture, step int) {
	everyDay := func(open, close string) []importer.DayHours {
		var out []importer.DayHours
		for _, d := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
			out = append(out, importer.DayHours{Day: d, Open: open, Close: close})
		}
		return out
	}
	shifts := func(loc, open, close string, breaks []importer.Break) []importer.Shift {
		var out []importer.Shift
		for _, h := range everyDay(open, close) {
			out = append(out, importer.Shift{Location: loc, Day: h.Day, Open: h.Open, Close: h.Close, Breaks: breaks})
		}
		return out
	}
	us := importer.Country{Code: "US", Name: "United States"}
	co := importer.Country{Code: "CO", Name: "Colombia"}
	f.Locations = append(f.Locations,
		importer.Location{Key: "bench-studio-1", Name: "Bench Slots Studio", Timezone: "America/New_York", Country: us, Hours: everyDay("08:00", "20:00")},
		importer.Location{Key: "bench-hall-1", Name: "Bench Booking Hall", Timezone: "America/Bogota", Country: co, Hours: everyDay("00:00", "24:00")},
		importer.Location{Key: "bench-archive-1", Name: "Bench Archive", Timezone: "UTC", Country: us, Hours: everyDay("09:00", "17:00")},
		importer.Location{Key: "bench-week-1", Name: "Bench Week Desk", Timezone: "America/New_York", Country: us, Hours: everyDay("08:00", "20:00")},
		importer.Location{Key: "bench-visit-1", Name: "Bench Visit Salon", Timezone: "America/New_York", Country: us, Hours: everyDay("08:00", "20:00")},
	)
	f.Categories = append(f.Categories, importer.Category{Key: "bench-cat-1", Name: "Bench"})
	f.Services = append(f.Services,
		importer.Service{Key: "bench-quick-1", Name: "Bench quick visit", Category: "bench-cat-1", Price: "20.00", Duration: int64(step)},
		importer.Service{Key: "bench-race-1", Name: "Bench contested visit", Category: "bench-cat-1", Price: "45.00", Duration: int64(3 * step)},
		importer.Service{Key: "bench-visit-s1", Name: "Bench cut", Category: "bench-cat-1", Price: "30.00", Duration: int64(2 * step)},
		importer.Service{Key: "bench-visit-s2", Name: "Bench colour", Category: "bench-cat-1", Price: "60.00", Duration: int64(3 * step)},
		importer.Service{Key: "bench-visit-s3", Name: "Bench style", Category: "bench-cat-1", Price: "15.00", Duration: int64(step)},
	)
	lunch := []importer.Break{{Start: "12:00", End: "13:00"}}
	add := func(prefix, loc, service string, n int, hours []importer.Shift, more ...string) {
		for i := range n {
			f.Providers = append(f.Providers, importer.Provider{
				Key: fmt.Sprintf("%s%d", prefix, i+1), PublicName: fmt.Sprintf("Bench %s %d", loc, i+1),
				Locations: []string{loc}, Services: append([]string{service}, more...), Hours: hours,
			})
		}
	}
	add("bench-studio-p", "bench-studio-1", "bench-quick-1", slotsProviders, shifts("bench-studio-1", "08:00", "20:00", lunch))
	add("bench-hall-p", "bench-hall-1", "bench-quick-1", fx.hallSize, shifts("bench-hall-1", "00:00", "24:00", nil))
	add("bench-race-p", "bench-hall-1", "bench-race-1", fx.raceSize, shifts("bench-hall-1", "00:00", "24:00", nil))
	add("bench-archive-p", "bench-archive-1", "bench-quick-1", archProviders, shifts("bench-archive-1", "09:00", "17:00", nil))
	add("bench-week-p", "bench-week-1", "bench-quick-1", weekProviders, shifts("bench-week-1", "08:00", "20:00", lunch))
	add("bench-visit-p", "bench-visit-1", "bench-visit-s1", visitProviders, shifts("bench-visit-1", "08:00", "20:00", lunch), "bench-visit-s2", "bench-visit-s3")
	add("bench-feed-p", "bench-hall-1", "bench-quick-1", 1, shifts("bench-hall-1", "00:00", "24:00", nil))
	for i := range benchClients {
		last := "Load"
		f.Clients = append(f.Clients, importer.Client{Key: fmt.Sprintf("bench-client-%d", i+1), FirstName: fmt.Sprintf("Bench %d", i+1), LastName: &last})
	}

	// The slots day: each studio provider has bookings of one step, one step apart, outside
	// the lunch break, up to about 200 in all; the free step between two bookings is a slot.
	var starts []int
	for m := 8 * 60; m+step <= 20*60 && len(starts)*slotsProviders < slotsDayTarget; m += 2 * step {
		if m+step > 12*60 && m < 13*60 {
			continue
		}
		starts = append(starts, m)
	}
	day := fx.slotsDay
	for p := range slotsProviders {
		for j, m := range starts {
			at := time.Date(day.Year(), day.Month(), day.Day(), 0, m, 0, 0, day.Location())
			f.Bookings = append(f.Bookings, importer.Booking{
				Key: fmt.Sprintf("bench-day-%d-%d", p+1, j+1), Location: "bench-studio-1", Service: "bench-quick-1",
				Provider: fmt.Sprintf("bench-studio-p%d", p+1), Client: fmt.Sprintf("bench-client-%d", (p*len(starts)+j)%benchClients+1),
				Start: at.Format(time.RFC3339),
			})
		}
	}
	fx.slotsSeed = len(f.Bookings)

	// The visit salon: each provider has bookings of one step at 09:00, 11:00, 14:00 and 17:00
	// on the slots day, so a visit's three parts must fit around them.
	for p := range visitProviders {
		for j, hour := range []int{9, 11, 14, 17}[:visitDayEach] {
			at := time.Date(day.Year(), day.Month(), day.Day(), hour, 0, 0, 0, day.Location())
			f.Bookings = append(f.Bookings, importer.Booking{
				Key: fmt.Sprintf("bench-visit-%d-%d", p+1, j+1), Location: "bench-visit-1", Service: "bench-visit-s3",
				Provider: fmt.Sprintf("bench-visit-p%d", p+1), Client: fmt.Sprintf("bench-client-%d", (p*visitDayEach+j)%benchClients+1),
				Start: at.Format(time.RFC3339),
			})
		}
	}

	// The week desk: each provider has a booking at 09:00 and one at 15:00, Monday to Friday.
	for p := range weekProviders {
		for d := range 5 {
			for j, hour := range []int{9, 15} {
				m := fx.weekMonday
				at := time.Date(m.Year(), m.Month(), m.Day()+d, hour, 0, 0, 0, m.Location())
				f.Bookings = append(f.Bookings, importer.Booking{
					Key: fmt.Sprintf("bench-week-%d-%d-%d", p+1, d+1, j+1), Location: "bench-week-1", Service: "bench-quick-1",
					Provider: fmt.Sprintf("bench-week-p%d", p+1), Client: fmt.Sprintf("bench-client-%d", (p*10+d*2+j)%benchClients+1),
					Start: at.Format(time.RFC3339),
				})
			}
		}
	}
}

func mustZone(name string) *time.Location {
	z, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // the binary embeds time/tzdata; a missing zone is a build mistake
	}
	return z
}
