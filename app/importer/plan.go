package importer

import (
	"database/sql"
	"time"

	"frontdesk/app/booking"
	"frontdesk/db"
)

// plan is a validated file turned into rows, ready to write. References between records are
// indexes into the plan's slices; the writer replaces them with database ids as it goes.
// Timestamps (created_at, updated_at) are filled in by the writer.
type plan struct {
	company    *db.CreateCompanyParams
	locations  []locationPlan
	categories []categoryPlan
	services   []servicePlan
	resources  []resourcePlan
	providers  []providerPlan
	attributes []attributePlan
	clients    []clientPlan
	timetable  []timetablePlan
	sessions   []sessionPlan
	series     []seriesPlan
	visits     []visitPlan
	bookings   []bookingPlan
	waits      []waitPlan
	products   []productPlan
	sales      []salePlan
	packs      []packPlan
}

type timetablePlan struct {
	index                       int // in the file's timetable
	key                         string
	location, service, provider int
	day, start                  int64
	capacity                    sql.NullInt64
	room                        sql.NullString
	validFrom                   booking.Date
	validTo                     *booking.Date
	cancelled                   []booking.Date
}

type sessionPlan struct {
	index                       int // in the file's sessions
	key                         string
	location, service, provider int
	start                       time.Time
	capacity                    sql.NullInt64
	room                        sql.NullString
}

type locationPlan struct {
	key      string
	row      db.CreateLocationParams // CountryID is set when written
	country  Country
	zone     *time.Location
	hours    []wallRange
	closures []db.CreateLocationClosureParams // LocationID is set when written
}

// wallRange is a weekly range of wall time: minutes since local midnight on a weekday.
type wallRange struct{ day, open, close int64 }

type categoryPlan struct {
	key   string
	name  string
	order int64
}

type servicePlan struct {
	key       string
	row       db.CreateServiceParams // CategoryID is set when written
	category  int                    // index into plan.categories, or -1
	location  int                    // index into plan.locations, or -1 for none
	images    []string
	resources []int // indexes into plan.resources
}

type resourcePlan struct {
	key      string
	location int // index into plan.locations
	name     string
	kind     string
	quantity int64
}

type providerPlan struct {
	key       string
	row       db.CreateProviderParams // LocationID is set when written
	locations []int                   // indexes into plan.locations; the first is the main one
	services  []int
	images    []db.CreateProviderImageParams
	shifts    []shiftPlan
	timeOff   []db.CreateProviderTimeOffParams
}

type shiftPlan struct {
	location int
	hours    wallRange
	breaks   [][2]int64
}

type attributePlan struct {
	key     string
	row     db.CreateCustomAttributeParams // GroupID is set when written
	group   string                         // attribute group name, "" for none
	options []string
}

type clientPlan struct {
	key     string
	created int64
	row     db.ImportClientParams
	values  []attributeValue
	channel string // the preferred channel; "" for email
}

type attributeValue struct {
	attribute int
	value     string
}

type bookingPlan struct {
	index                               int // in the file's bookings
	key                                 string
	row                                 db.ImportBookingParams // the four ids are set when written
	location, service, provider, client int
	class                               bool // a seat in a class session (found or made when written)
	created                             int64
	pack, sale                          int // indexes into plan.packs and plan.sales, -1 for none
	packReturned                        bool
	cancel                              cancelPlan
	series                              int // index into plan.series, -1 for none
	visit                               *visitPart
}

// visitPart is a booking's row of visit_bookings (VisitID set when written).
type visitPart struct {
	visit int // index into plan.visits
	row   db.InsertVisitBookingParams
}

type visitPlan struct {
	row              db.InsertVisitParams
	location, client int
}

type seriesPlan struct {
	row db.InsertBookingSeriesParams
}

type waitPlan struct {
	index                     int // in the file's appointment_waitlist
	row                       db.ImportAppointmentWaitParams
	client, location, service int
	provider                  int // index into plan.providers, -1 for anyone
	booking                   int // index into the file's bookings, -1 for none
}

type productPlan struct {
	key string
	row db.ImportProductParams
}

// Summary says what an import created.
type Summary struct {
	Company          string // the company created, "" when the file added to an existing one
	Locations        int
	Categories       int
	Services         int
	Providers        int
	CustomAttributes int
	Clients          int
	Timetable        int
	Sessions         int
	Bookings         int
	Products         int
	Sales            int
	Packs            int
}

func (p *plan) summary() Summary {
	s := Summary{
		Locations: len(p.locations), Categories: len(p.categories), Services: len(p.services),
		Providers: len(p.providers), CustomAttributes: len(p.attributes), Clients: len(p.clients),
		Timetable: len(p.timetable), Sessions: len(p.sessions), Bookings: len(p.bookings), Products: len(p.products),
		Sales: len(p.sales), Packs: len(p.packs),
	}
	if p.company != nil {
		s.Company = p.company.Name
	}
	return s
}

// cancelPlan is a cancelled booking's record of its cancel: when, by whom, whether late.
type cancelPlan struct {
	at   sql.NullInt64
	by   sql.NullString
	late bool
}
