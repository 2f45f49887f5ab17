// Package importer reads a whole business — or an addition to one — from one JSON file and
// writes it all or nothing. The format is documented in docs/import.md; the types below are
// that format, field for field. Records refer to each other with file-local string keys, so a
// file is self-contained and diffable; database ids are assigned on import.
//
// Load decodes strictly (an unknown field is an error: a typo in an operator's file must not be
// silently ignored), validates everything before writing anything, and then writes in one
// transaction. Import creates records and never updates them; the keys it created are
// remembered, so running the same file twice is refused rather than duplicating it.
package importer

import "encoding/json"

// File is one import file.
type File struct {
	// Company is required when the database has no business yet and refused when it has one.
	Company          *Company          `json:"company"`
	Locations        []Location        `json:"locations"`
	Categories       []Category        `json:"categories"`
	Services         []Service         `json:"services"`
	Resources        []Resource        `json:"resources"`
	Providers        []Provider        `json:"providers"`
	CustomAttributes []CustomAttribute `json:"custom_attributes"`
	Clients          []Client          `json:"clients"`
	// Timetable and Sessions schedule classes (services with capacity > 1): weekly entries
	// and one-off sessions. Bookings of a class are seats in their sessions.
	Timetable []TimetableEntry `json:"timetable"`
	Sessions  []ClassSession   `json:"sessions"`
	// Series are the rules of repeating bookings (docs/visits.md, "Series"); their dates are
	// bookings that name the series.
	Series []Series `json:"series"`
	// Visits group bookings booked as one (docs/visits.md, "Visits"); each booking of a visit
	// names it.
	Visits   []Visit   `json:"visits"`
	Bookings []Booking `json:"bookings"`
	// AppointmentWaitlist is the clients waiting for an appointment to free (docs/visits.md,
	// "Waitlist for appointments").
	AppointmentWaitlist []AppointmentWait `json:"appointment_waitlist"`
	Products            []Product         `json:"products"`
	// Sales and Packs are the business's money history: sales with their lines and payments,
	// and the session packs clients bought (bookings name the pack they used).
	Sales []Sale `json:"sales"`
	Packs []Pack `json:"packs"`
}

// Company is the installation's business and its booking policies; a nil policy takes the
// schema default.
type Company struct {
	Name             string `json:"name"`
	Currency         string `json:"currency"`
	SlotStepMin      *int64 `json:"slot_step_min"`
	MinNoticeMin     *int64 `json:"min_notice_min"`
	MaxAdvanceDays   *int64 `json:"max_advance_days"`
	CanEdit          *bool  `json:"can_edit"`
	CanCancel        *bool  `json:"can_cancel"`
	EditLockMin      *int64 `json:"edit_lock_min"`
	MaxChanges       *int64 `json:"max_changes"`
	OnlinePayments   *bool  `json:"online_payments"`
	PaymentExpiryMin *int64 `json:"payment_expiry_min"`
	Language         string `json:"language"`
	Clock            string `json:"clock"`
}

// Location is a place where the business works, with its zone, opening hours and closures.
type Location struct {
	Key       string            `json:"key"`
	Name      string            `json:"name"`
	Active    *bool             `json:"active"`
	Address   map[string]string `json:"address"`
	Phone     *string           `json:"phone"`
	Email     string            `json:"email"`
	Latitude  *float64          `json:"latitude"`
	Longitude *float64          `json:"longitude"`
	Timezone  string            `json:"timezone"`
	Image     *string           `json:"image"`
	ImageMap  *string           `json:"image_map"`
	Country   Country           `json:"country"`
	Hours     []DayHours        `json:"hours"`
	Closures  []Closure         `json:"closures"`
}

// Country is an ISO 3166-1 alpha-2 code and a display name.
type Country struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// DayHours is one opening range of a weekday: {"day":"monday","open":"09:00","close":"19:00"}.
type DayHours struct {
	Day   string `json:"day"`
	Open  string `json:"open"`
	Close string `json:"close"`
}

// Closure is a whole local day the location is closed.
type Closure struct {
	Date   string `json:"date"`
	Reason string `json:"reason"`
}

// Category groups services.
type Category struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Order *int64 `json:"order"`
}

// Service is something the business sells by time.
type Service struct {
	Key           string         `json:"key"`
	Name          string         `json:"name"`
	Category      string         `json:"category"`
	Price         string         `json:"price"`
	Discount      *string        `json:"discount"`
	Duration      int64          `json:"duration"`
	BufferBefore  int64          `json:"buffer_before"`
	BufferAfter   int64          `json:"buffer_after"`
	Description   *string        `json:"description"`
	Keywords      []string       `json:"keywords"`
	Images        []string       `json:"images"`
	Capacity      *int64         `json:"capacity"`
	SessionCount  *int64         `json:"session_count"`
	OnlineBooking *bool          `json:"online_booking"`
	OnlinePayment *OnlinePayment `json:"online_payment"`
	Outcall       bool           `json:"outcall"`
	IsVideo       bool           `json:"is_video"`
	Favorite      bool           `json:"favorite"`
	Active        *bool          `json:"active"`
	// Location is the key of the location the /v3 API shows as the service's location_id; "" for none.
	Location string `json:"location"`
	// Resources are the keys of the rooms and equipment the service requires (at each
	// location, those of that location: docs/visits.md, "Resources").
	Resources []string `json:"resources"`
}

// Resource is a room or a piece of equipment of a location, with how many bookings may use it
// at the same time.
type Resource struct {
	Key      string `json:"key"`
	Location string `json:"location"`
	Name     string `json:"name"`
	Kind     string `json:"kind"` // "room" (the default) or "equipment"
	Quantity int64  `json:"quantity"`
}

// OnlinePayment is a service's online payment mode and, for MANDATORY_PARTIAL, the amount due.
type OnlinePayment struct {
	Mode   string  `json:"mode"`
	Amount *string `json:"amount"`
}

// Provider is a person (or resource) who delivers services.
type Provider struct {
	Key           string `json:"key"`
	PublicName    string `json:"public_name"`
	Active        *bool  `json:"active"`
	OnlineBooking *bool  `json:"online_booking"`
	Email         string `json:"email"`
	Phone         string `json:"phone"`
	// NotifyBookings and AgendaTime ("07:00") are what the provider is emailed
	// (docs/messages.md, "Messages to providers"); both need an email.
	NotifyBookings bool            `json:"notify_bookings"`
	AgendaTime     string          `json:"agenda_time"`
	Locations      []string        `json:"locations"`
	Services       []string        `json:"services"`
	Images         []ProviderImage `json:"images"`
	Hours          []Shift         `json:"hours"`
	TimeOff        []TimeOff       `json:"time_off"`
}

// ProviderImage is a picture; the thumbnail defaults to the picture itself.
type ProviderImage struct {
	URL          string  `json:"url"`
	ThumbnailURL *string `json:"thumbnail_url"`
}

// Shift is one weekly working range of a provider at one location, with its breaks.
type Shift struct {
	Location string  `json:"location"`
	Day      string  `json:"day"`
	Open     string  `json:"open"`
	Close    string  `json:"close"`
	Breaks   []Break `json:"breaks"`
}

// Break is a pause inside a shift.
type Break struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// TimeOff is an absence: instants, or whole local days in the provider's main location zone.
type TimeOff struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason"`
}

// CustomAttribute is a template for an extra client field.
type CustomAttribute struct {
	Key         string   `json:"key"`
	Name        string   `json:"name"`
	Datatype    string   `json:"datatype"`
	Description *string  `json:"description"`
	Mandatory   bool     `json:"mandatory"`
	Order       *int64   `json:"order"`
	Group       *string  `json:"group"`
	Options     []string `json:"options"`
}

// Client is a customer, with the Connect v3 client fields and custom attribute values keyed by
// the attribute's key.
type Client struct {
	Key                  string  `json:"key"`
	FirstName            string  `json:"first_name"`
	LastName             *string `json:"last_name"`
	Email                *string `json:"email"`
	Phone                *string `json:"phone"`
	SecondPhone          *string `json:"second_phone"`
	IdentificationNumber *string `json:"identification_number"`
	Address              *string `json:"address"`
	District             *string `json:"district"`
	City                 *string `json:"city"`
	Region               string  `json:"region"`
	Age                  *int64  `json:"age"`
	Gender               int64   `json:"gender"`
	BirthDay             *int64  `json:"birth_day"`
	BirthMonth           *int64  `json:"birth_month"`
	BirthYear            *int64  `json:"birth_year"`
	RecordNumber         *string `json:"record_number"`
	Photo                *string `json:"photo"`
	Nationality          *string `json:"nationality"`
	PhoneCountry         *string `json:"phone_country"`
	// PreferredChannel is how the client hears about their bookings: "email" (the default)
	// or "sms" (docs/messages.md, "Channels").
	PreferredChannel string                     `json:"preferred_channel"`
	Active           *bool                      `json:"active"`
	CustomAttributes map[string]json.RawMessage `json:"custom_attributes"`
	// Created is when the client was first recorded (an RFC 3339 instant); by default the import's time.
	Created string `json:"created"`
}

// TimetableEntry is a class held every week at a location: a weekday, a local start time and
// a provider, from ValidFrom (default: the import date) to ValidTo (default: until further
// notice), except on the Cancelled dates.
type TimetableEntry struct {
	Key       string   `json:"key"`
	Location  string   `json:"location"`
	Service   string   `json:"service"`
	Provider  string   `json:"provider"`
	Day       string   `json:"day"`
	Start     string   `json:"start"`
	Capacity  *int64   `json:"capacity"`
	Room      *string  `json:"room"`
	ValidFrom string   `json:"valid_from"`
	ValidTo   *string  `json:"valid_to"`
	Cancelled []string `json:"cancelled"`
}

// ClassSession is a one-off session of a class.
type ClassSession struct {
	Key      string  `json:"key"`
	Location string  `json:"location"`
	Service  string  `json:"service"`
	Provider string  `json:"provider"`
	Start    string  `json:"start"`
	Capacity *int64  `json:"capacity"`
	Room     *string `json:"room"`
}

// Booking is an appointment. Start and end are local wall times in the location's zone, instants
// with an offset, or relative to the import date ("+1w mon 10:00"); see docs/import.md.
type Booking struct {
	Key      string  `json:"key"`
	Location string  `json:"location"`
	Service  string  `json:"service"`
	Provider string  `json:"provider"`
	Client   string  `json:"client"`
	Start    string  `json:"start"`
	End      *string `json:"end"`
	Status   string  `json:"status"`
	Price    *string `json:"price"`
	Notes    *string `json:"notes"`
	// ListPrice is the service's price when booked (default: the service's price now).
	ListPrice *string `json:"list_price"`
	// Created is when the booking was made (an RFC 3339 instant); by default the import's time.
	Created string `json:"created"`
	// Pack is the key of the session pack the booking used; PackReturned, for a cancelled
	// booking, that its session went back to the pack. Sale is the key of the sale that paid it.
	Pack         string `json:"pack"`
	PackReturned bool   `json:"pack_returned"`
	Sale         string `json:"sale"`
	// Cancellation says when and by whom a cancelled booking was cancelled (docs/reports.md).
	Cancellation *Cancellation `json:"cancellation"`
	// Series is the key of the series the booking is a date of.
	Series string `json:"series"`
	// Visit places the booking in a visit.
	Visit *BookingVisit `json:"visit"`
}

// Visit is several services booked as one for a client at a location.
type Visit struct {
	Key      string `json:"key"`
	Location string `json:"location"`
	Client   string `json:"client"`
	Source   string `json:"source"`  // connect, admin (the default), online or mcp
	Created  string `json:"created"` // an RFC 3339 instant; by default the import's time
}

// BookingVisit is a booking's place in its visit: the service's position (0 first), its part
// (1 for the part after a processing time), the position of the service it is an add-on of,
// how many minutes it holds its provider before its start and after its end (between the
// services of a visit the buffers are left out), and how many minutes before its block its
// resources are held (the processing time before a second part).
type BookingVisit struct {
	Visit      string `json:"visit"`
	Position   int64  `json:"position"`
	Part       int64  `json:"part"`
	AddOnOf    *int64 `json:"add_on_of"`
	HeldBefore int64  `json:"held_before"`
	HeldAfter  int64  `json:"held_after"`
	HoldBefore int64  `json:"resources_held_before"`
}

// Series is the rule of a repeating booking as it was asked for: weekly every Interval weeks,
// or monthly on the WeekOfMonth-th weekday (1–4, or -1 for the last); Count dates from First,
// the first date's local date and time ("2026-11-24T10:00").
type Series struct {
	Key         string `json:"key"`
	Frequency   string `json:"frequency"` // "weekly" or "monthly"
	Interval    int64  `json:"interval"`  // weekly: 1–52 (default 1)
	WeekOfMonth *int64 `json:"week_of_month"`
	Count       int64  `json:"count"`
	First       string `json:"first"`
	Created     string `json:"created"` // an RFC 3339 instant; by default the import's time
}

// AppointmentWait is a client waiting for a time of a service at a location, with one provider
// or anyone (Provider ""), on the local days First to Last.
type AppointmentWait struct {
	Client   string `json:"client"`
	Location string `json:"location"`
	Service  string `json:"service"`
	Provider string `json:"provider"`
	First    string `json:"first_day"`
	Last     string `json:"last_day"`
	Status   string `json:"status"`  // "waiting" (the default), "booked" or "left"
	Booking  string `json:"booking"` // the key of the booking made, for a booked wait
	Source   string `json:"source"`  // connect, admin (the default), online or mcp
	Created  string `json:"created"` // an RFC 3339 instant; by default the import's time
}

// Cancellation is how a booking came to be cancelled: at an RFC 3339 instant; by "client",
// "business" or "unpaid" (a hold given back when its payment request lapsed), or "" when that
// was not recorded; late when it came inside the cancel policy's window.
type Cancellation struct {
	At   string `json:"at"`
	By   string `json:"by"`
	Late bool   `json:"late"`
}

// Pack is a session pack a client bought: so many sessions of one service.
type Pack struct {
	Key      string  `json:"key"`
	Client   string  `json:"client"`
	Service  string  `json:"service"`
	Sessions int64   `json:"sessions"`
	Price    string  `json:"price"`
	Expires  *string `json:"expires"` // an RFC 3339 instant; null: never
	Sale     string  `json:"sale"`    // the sale that paid for it, if any
	Created  string  `json:"created"`
}

// Sale is a recorded sale: its lines as sold and the payments taken.
type Sale struct {
	Key      string        `json:"key"`
	Location string        `json:"location"`
	Client   string        `json:"client"` // "" for a sale to nobody in particular
	Status   string        `json:"status"` // paid, partially_paid, canceled, refunded
	Paid     string        `json:"paid"`
	Pending  string        `json:"pending"`
	PaidAt   *string       `json:"paid_at"`
	Created  string        `json:"created"`
	Note     *string       `json:"note"`
	Lines    []SaleLine    `json:"lines"`
	Payments []SalePayment `json:"payments"`
}

// SaleLine is one line of a sale. Product names a product key for a product line; Service a
// service key for a line of a service, class or session.
type SaleLine struct {
	Type         string  `json:"type"`
	Name         *string `json:"name"`
	Product      string  `json:"product"`
	Service      string  `json:"service"`
	Quantity     int64   `json:"quantity"`
	UnitPrice    string  `json:"unit_price"`
	UnitDiscount *string `json:"unit_discount"`
}

// SalePayment is a payment taken for a sale, by one of the payment methods ("Cash", "Card
// terminal", "Bank transfer", "Online Payment").
type SalePayment struct {
	Amount  string  `json:"amount"`
	Method  string  `json:"method"`
	PaidAt  *string `json:"paid_at"`
	Created string  `json:"created"`
}

// Product is a retail product (docs/api.md, "Products"). A null or absent stock means the
// business does not count it.
type Product struct {
	Key         string  `json:"key"`
	Name        string  `json:"name"`
	SKU         *string `json:"sku"`
	Price       string  `json:"price"`
	Stock       *int64  `json:"stock"`
	Description *string `json:"description"`
	Active      *bool   `json:"active"`
}
