// Package staff is the team (docs/roles.md): the four fixed roles and what each may do
// (Permission, Can), inviting people by a single-use link (invite.go), changing an account's
// role, disabling and re-enabling it, resetting a password by link (manage.go), and the
// owner's team settings. Accounts themselves — email, password, sessions' stamp — are
// app/owner's; the table owners holds every staff account, whatever its role. It knows nothing
// about HTTP: app/admin's route table names the Permission each route needs.
package staff

import "slices"

// Role is what an account may do. The four are fixed; the database CHECKs the same list.
type Role string

// The roles.
const (
	RoleOwner     Role = "owner"
	RoleManager   Role = "manager"
	RoleReception Role = "reception"
	RoleProvider  Role = "provider"
)

// Roles are every role, most powerful first.
var Roles = []Role{RoleOwner, RoleManager, RoleReception, RoleProvider}

// ParseRole reads a role's name, or reports false.
func ParseRole(s string) (Role, bool) {
	r := Role(s)
	return r, slices.Contains(Roles, r)
}

// Permission is one thing an account may do; each admin route needs exactly one.
type Permission string

// The permissions, in the order of docs/roles.md's table.
const (
	// SignedIn: the dashboard, one's own account, signing out.
	SignedIn Permission = "signed-in"
	// Calendar: the bookings list, the day view, a booking, a class session. A provider sees
	// only their own (the handlers narrow every list and refuse another's by 404).
	Calendar Permission = "calendar"
	// Attendance: marking a booking or a class attendee attended or no-show.
	Attendance Permission = "attendance"
	// Book: creating, moving and cancelling bookings, class attendees and waitlists; asking
	// why a slot is not offered.
	Book Permission = "book"
	// Clients: reading clients. A provider reads only the clients of their own bookings.
	Clients Permission = "clients"
	// ClientsEdit: creating, editing, deactivating clients.
	ClientsEdit Permission = "clients-edit"
	// Desk: payment requests and sales, settling and collecting at the desk, session packs.
	Desk Permission = "desk"
	// Refunds: refunds, flagged online payments, reconciling with the provider.
	Refunds Permission = "refunds"
	// Catalog: services, categories, locations, providers, attributes, products, timetable
	// and class sessions' seats.
	Catalog Permission = "catalog"
	// OwnHours: a provider's hours and time off. A provider account has it for its own
	// provider record only, and only while the owner allows it (team settings).
	OwnHours Permission = "own-hours"
	// Settings: business, booking site, classes, cancellations and deposits, customer messages'
	// options, templates and log.
	Settings Permission = "settings"
	// Team: inviting people, changing roles, disabling, password resets (a manager never
	// for an owner).
	Team Permission = "team"
	// Owners: owner accounts, the team settings.
	Owners Permission = "owners"
	// Credentials: the mail server (SMTP), the SMS provider and the payment provider's keys.
	Credentials Permission = "credentials"
	// Integrations: API keys, webhooks, MCP.
	Integrations Permission = "integrations"
	// Exports: CSV downloads of the lists (bookings, clients, sales, payments, the message log).
	Exports Permission = "exports"
	// Reports: the owner's figures — money, bookings, utilisation, clients (docs/reports.md).
	// Its own permission, not Exports': reading the business's takings is a decision apart
	// from downloading its lists, though today the same two roles have both.
	Reports Permission = "reports"
	// Data: exporting or erasing the business's data.
	Data Permission = "data"
	// Activity: the trail of who changed what (Settings → Activity; docs/activity.md).
	Activity Permission = "activity"
)

// Permissions are every permission, in the order of docs/roles.md.
var Permissions = []Permission{SignedIn, Calendar, Attendance, Book, Clients, ClientsEdit, Desk, Refunds,
	Catalog, OwnHours, Settings, Team, Exports, Reports, Owners, Credentials, Integrations, Data, Activity}

// grants is the one table of what each role may do (docs/roles.md is the same table in words).
var grants = map[Role][]Permission{
	RoleOwner: Permissions,
	RoleManager: {SignedIn, Calendar, Attendance, Book, Clients, ClientsEdit, Desk, Refunds,
		Catalog, OwnHours, Settings, Team, Exports, Reports},
	RoleReception: {SignedIn, Calendar, Attendance, Book, Clients, ClientsEdit, Desk},
	RoleProvider:  {SignedIn, Calendar, Attendance, Clients, OwnHours},
}

// Can reports whether role may do p. An unknown role may do nothing.
func Can(role Role, p Permission) bool { return slices.Contains(grants[role], p) }

// Scoped reports whether role sees only its own provider's bookings and clients.
func (r Role) Scoped() bool { return r == RoleProvider }
