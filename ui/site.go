package ui

// The public booking site's view models (app/site fills them; pages in site_*.templ). Every
// text that depends on the reader — dates, times, money — arrives formatted by the handler's
// printer; the components add the catalog's fixed texts.

// SitePage is the frame of every booking site page.
type SitePage struct {
	Title    string // the page's heading and <title>
	Business string // the site's display name
	LogoURL  string // our own /book/logo?v=…, "" for none
	ThemeURL string // the owner's accent colour as a stylesheet
	Back     string // the previous step, "" on the first page
	// Languages is the language switch: this page in each other language.
	Languages []SiteLanguage
}

// SiteLanguage is a link to the same page in another language.
type SiteLanguage struct {
	Code string // "es"
	Name string // as the language calls itself: "Español"
	URL  string
}

// SiteLocation is one location to choose.
type SiteLocation struct {
	Name, Address, URL string
}

// SiteLocationsView is the first step when the business has several locations.
type SiteLocationsView struct {
	Locations []SiteLocation
}

// SiteService is a service as the site lists it.
type SiteService struct {
	Name        string
	Description string
	Duration    string // "45 min"
	Price       string // what the customer pays, formatted
	ListPrice   string // the price before the discount, "" without one
	PayOnline   string // "" or a note that booking needs an online payment (and how much)
	URL         string
	Search      string // name and keywords, lower-case and without accents, for the as-you-type filter
}

// SiteServiceGroup is a category and its services.
type SiteServiceGroup struct {
	Name     string
	Services []SiteService
}

// SiteServicesView is the service step.
type SiteServicesView struct {
	Location string
	Query    string // the search as typed
	Action   string // where the search form goes
	Groups   []SiteServiceGroup
	Total    int    // services before the search
	VisitURL string // several services in one visit, "" when fewer than two can be combined
	// MembershipURL is the membership sign-up page, "" when clients cannot sign up online.
	MembershipURL string
}

// SiteChoice is a provider to choose (or "anyone available").
type SiteChoice struct {
	Name string
	URL  string
	Any  bool
}

// SiteProvidersView is the provider step.
type SiteProvidersView struct {
	Service SiteService
	Choices []SiteChoice
}

// SiteSummary is what is being booked, shown above the later steps.
type SiteSummary struct {
	Service  string
	Provider string // a name, or "" for anyone available
	Location string
	Address  string
	Duration string
	Price    string
	When     string // the chosen date and time in words, "" before one is chosen
	// Classes and packs (docs/classes.md): the seats left in the chosen session, and — instead
	// of a price — that the booking used one of the client's pack sessions.
	Seats string
	Pack  string
	// A visit of several services (docs/visits.md): every service with its provider and local
	// times, in order; Service and Provider are then unused.
	Segments []SiteSegment
	// A booking that repeats: its dates, free or not.
	Dates []SiteOccurrence
}

// SiteSegment is one service of a visit: "Haircut", "Ana", "10:00–10:30".
type SiteSegment struct {
	Service, Provider, Time string
	AddOn                   bool
}

// SiteOccurrence is one date of a series: when, and whether it is free (else why not).
type SiteOccurrence struct {
	When string
	Free bool
	Why  string
}

// SiteHidden is a value a form carries through a round trip.
type SiteHidden struct {
	Name, Value string
}

// SiteVisitStep is one service of a visit being chosen: its drop-down and, once chosen, the
// add-ons the business declares for it.
type SiteVisitStep struct {
	Field      string // the drop-down's name: s1, s2…
	Label      string // "Service 1"
	AddOnField string // the add-ons' name: a1, a2…
	AddOns     []Option
}

// SiteVisitView is the visit step: several services in order, a provider or anyone, and the
// times the whole visit is offered.
type SiteVisitView struct {
	Location  string
	Action    string
	Form      *Form
	Services  []Option
	Steps     []SiteVisitStep
	Providers []Option
	Message   string         // why the visit cannot be offered, "" when it can
	Total     string         // "1 h 30 min · $45.000", once services are chosen
	Picker    *SiteTimesView // nil before services are chosen
}

// SiteRepeatView asks how a booking repeats and shows which of its dates are free.
type SiteRepeatView struct {
	Summary     SiteSummary
	Action      string
	Form        *Form
	Hidden      []SiteHidden
	Freqs       []Option
	Occurrences []SiteOccurrence
	Max         string // the most dates a series may have
	ContinueURL string // the details form with the series, "" while nothing is free
}

// SiteDay is one day of the date picker.
type SiteDay struct {
	Weekday  string // "Sat"
	Day      string // "4"
	Spoken   string // "Saturday, 4 April 2026: 12 free times" / "…: closed" / "…: fully booked"
	Short    string // without a URL: why, in a word ("closed", "full", "no sessions")
	URL      string // "" when nothing is free that day
	Count    int
	Selected bool
}

// SiteTime is one bookable time.
type SiteTime struct {
	Label  string // "23:30"
	Offset string // "UTC−3" when the same clock time happens twice that day, else ""
	Spoken string // the full date, time and offset for screen readers
	URL    string // the next step (details, or a reschedule's confirmation)
	Value  string // the instant, RFC 3339, for forms that pick a time
	// A class session (docs/classes.md): who teaches it and its seats ("3 seats left"); a
	// full session's URL is its waitlist form.
	Teacher string
	Seats   string
	Full    bool
}

// SiteTimesView is the date and time step (also used to reschedule).
type SiteTimesView struct {
	Summary  SiteSummary
	Notice   string // "" or why the visitor is back here (the time they chose was taken)
	Days     []SiteDay
	PrevURL  string // the previous fortnight, "" at the start
	NextURL  string // the next fortnight, "" at the end of the booking window
	Range    string // "4 Apr – 17 Apr 2026"
	Zone     string // the location's time on the day shown, for people: "Santiago time (UTC−3)"
	Date     string // the selected day in words, "" when nothing in the range is free
	Times    []SiteTime
	Current  string // rescheduling: the booking's current time in words
	Empty    bool   // nothing free in the whole range
	FirstURL string // when empty: the first day with free times after the range, if any
	// NotifyURL joins the waitlist for appointments: "tell me when a time opens"; "" where
	// it is not offered (classes, reschedules).
	NotifyURL string
}

// SiteAttribute is a custom attribute the booking form asks.
type SiteAttribute struct {
	Name     string // the form field name: attr_<id>
	Label    string
	Type     string // the template's datatype
	Hint     string
	Required bool
	Options  []Option // categoric
}

// SiteDetailsView is the last step: the customer's details and the confirmation.
type SiteDetailsView struct {
	// Channels, when texts are set up, ask how the visitor wants to hear about their booking.
	Channels   []Option
	Summary    SiteSummary
	Action     string
	Form       *Form
	Attributes []SiteAttribute
	Policy     string
	// FeePolicy states the cancellation policy's fees for this service (payments.Policy
	// Statement); empty when it charges none.
	FeePolicy []string
	Nonce     string
	Start     string // the chosen instant (RFC 3339); "" when the visitor must choose again
	Provider  string
	// Taken is set when the chosen time was taken meanwhile: Alternatives are the times still
	// free that day, offered in the form itself so nothing typed is lost.
	Taken        bool
	Alternatives []SiteTime
	Zone         string // the location's time on the alternatives' day: "Santiago time (UTC−3)"
	TimesURL     string // the date picker, to choose another day
	PayNote      string // "" or what will be asked online after confirming
	PhoneHint    string // how to write the phone: with the country code, or as in the location's country
	TopTarget    bool   // the form leaves an embedding frame (payment pages cannot be framed)
	PackNote     string // "" or that a pack of this service pays for the booking
	// Waitlist: the form joins a full class session's waitlist instead of booking; WaitNote
	// says how it works. Full: the session filled up while the visitor typed (409); Sessions
	// are the sessions of that day with a seat left.
	Waitlist bool
	WaitNote string
	Notice   string
	Full     bool
	Sessions []SiteTime
	// Hidden are values the form carries (a visit's services, a series' rule).
	Hidden []SiteHidden
	// RepeatURL asks for the booking to repeat, "" when the site does not offer it. Modes,
	// for a series, ask what to do with the dates not free.
	RepeatURL string
	Modes     []Option
	// AskDays: the form is the waitlist for appointments, asking the range of days.
	AskDays bool
}

// SiteWaitlistView is the page behind a personal waitlist link.
type SiteWaitlistView struct {
	Summary  SiteSummary
	Status   string // waiting, booked, left, skipped
	Message  string // "" or the outcome of the last action (joined, left)
	Position string // "You are number 2 in the queue." while waiting
	LinkURL  string // the link itself, shown right after joining
	LeaveURL string // the page that asks before leaving, "" when not waiting
	// BookingURL is where the "see my booking" button posts once a seat came (a manage link
	// is made then), "" otherwise.
	BookingURL string
	StatusMsg  string // what the status means, in words
}

// SiteLeaveView asks before leaving a waitlist; the place is given up only on its POST.
type SiteLeaveView struct {
	Summary  SiteSummary
	Position string // "You are number 2 in the queue."
	Question string
	Action   string
	Back     string
}

// SiteManageView is the page behind a manage link.
type SiteManageView struct {
	// FeePolicy states the cancellation policy's fees, before the customer cancels.
	FeePolicy     []string
	Summary       SiteSummary
	Status        string // confirmed, reserved, attended, no_show, cancelled
	Message       string // "" or the outcome of the last action (booked, rescheduled, cancelled)
	ManageURL     string // the link itself, shown right after booking
	CalendarURL   string
	RescheduleURL string
	CancelURL     string
	// Why rescheduling or cancelling is not possible online, "" when it is.
	NoReschedule string
	NoCancel     string
	PayURL       string // a pending payment's checkout page, "" for none
	Past         bool
	AgainURL     string // a cancelled booking: the start of booking its service there again, "" when the site cannot
}

// SiteConfirmView asks before a reschedule or a cancel.
type SiteConfirmView struct {
	Summary  SiteSummary
	Action   string
	From     string // the booking's current time in words
	To       string // the new time (reschedule), "" for a cancel
	Start    string
	Provider string // rescheduling: the provider the booking moves with (the form carries it)
	// ProviderNote says that the booking moves to another provider, the booking's own not
	// being free then; "" when it stays with them.
	ProviderNote string
	Cancel       bool
	Back         string
}

// SiteMessageView is a page that only says something (booking off, not found, refusals).
type SiteMessageView struct {
	Message  string
	Link     string
	LinkText string
	AgainURL string // "" or where to book again (a refused change of a cancelled booking)
}
