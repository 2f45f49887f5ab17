// Package ui is the admin UI's HTML: templ components fed by view models defined here. It
// imports nothing of app/: handlers in app/admin turn database rows into these models, and the
// components only print them (templ escapes every value). See README.md for how a page is made.
package ui

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

	"frontdesk/ui/i18n"
)

// Page is what the layout needs from every page.
type Page struct {
	Title string
	// Path is the request path; the nav marks the item it falls under.
	Path string
	// Owner is the signed-in owner's email; empty on public pages (login, setup), which get
	// a layout without navigation.
	Owner   string
	Flashes []Flash
	// UnconfiguredLinkBase is set (to the base links use instead, the listen address) when no
	// public URL is configured; owner pages then show a notice saying so.
	UnconfiguredLinkBase string
	// Here is the page's path and query, where hiding the notice comes back to.
	Here string
	// StorageFullSince is when the disk under the database filled up; while it is set, every
	// page of a signed-in owner carries a banner saying that nothing can be saved.
	StorageFullSince time.Time
	// Allowed are the navigation's links (and a few forms, as "POST /path") the signed-in
	// account's role may use (docs/roles.md); pages show only those. The server refuses the
	// others whatever is shown.
	Allowed map[string]bool
}

// Flash kinds.
const (
	FlashSuccess = "success"
	FlashError   = "error"
	FlashInfo    = "info"
)

// Flash is a one-time message shown on the next page after a redirect.
type Flash struct {
	Kind    string
	Message string
}

// NavItem is one link of the navigation; Children make a second level (shown as tabs on the
// pages of that section). Its text is the catalog message Key (or, for a name that is not
// translated, Label).
type NavItem struct {
	Key      string
	Label    string
	Href     string
	Children []NavItem
}

// Text is the item's text in the request's language.
func (item NavItem) Text(ctx context.Context) string {
	if item.Key != "" {
		return i18n.T(ctx, item.Key)
	}
	return item.Label
}

// Nav is the admin navigation. A page group added to the route table gets its entry here.
var Nav = []NavItem{
	// A provider account's own schedule, its landing page; shown to provider accounts only
	// (app/admin/render.go), as others reach a provider's schedule from the calendar.
	{Key: "nav.schedule", Href: "/schedule"},
	{Key: "nav.dashboard", Href: "/"},
	{Key: "nav.bookings", Href: "/bookings"},
	{Key: "nav.clients", Href: "/clients"},
	{Key: "nav.catalog", Href: "/catalog/services", Children: []NavItem{
		{Key: "nav.services", Href: "/catalog/services"},
		{Key: "nav.categories", Href: "/catalog/categories"},
		{Key: "nav.providers", Href: "/catalog/providers"},
		{Key: "nav.locations", Href: "/catalog/locations"},
		{Key: "nav.resources", Href: "/catalog/resources"}, // rooms and equipment (docs/visits.md)
		{Key: "nav.custom_attributes", Href: "/catalog/custom-attributes"},
		// Products (docs/api.md, "Products").
		{Key: "nav.products", Href: "/catalog/products"},
		{Key: "nav.timetable", Href: "/catalog/timetable"}, // classes
	}},
	{Key: "nav.payments", Href: "/payments"},
	{Key: "nav.reports", Href: "/reports"}, // owners and managers (docs/reports.md)
	{Key: "nav.settings", Href: "/settings/business", Children: []NavItem{
		{Key: "nav.business", Href: "/settings/business"},
		{Key: "nav.integrations", Href: "/settings/integrations"},
		{Key: "nav.messages", Href: "/settings/messages"}, // customer messages (docs/messages.md)
		// Online payments.
		{Key: "nav.payment_settings", Href: "/settings/payments"},
		{Key: "nav.fee_policy", Href: "/settings/cancellation"}, // fees, card on file, deposits
		{Key: "nav.team", Href: "/settings/team"},               // staff accounts and roles (docs/roles.md)
		// Booking site (docs/booking-site.md).
		{Key: "nav.booking_site", Href: "/settings/booking-site"},
		{Key: "nav.classes", Href: "/settings/classes"},   // classes and packs
		{Key: "nav.activity", Href: "/settings/activity"}, // who changed what
		{Key: "nav.data", Href: "/settings/data"},         // download everything (docs/data.md)
	}},
}

// under reports whether path is href or below it ("/" matches only itself).
func under(path, href string) bool {
	if href == "/" {
		return path == "/"
	}
	return path == href || strings.HasPrefix(path, href+"/")
}

// Active reports whether the page at path belongs to item or one of its children.
func (item NavItem) Active(path string) bool {
	if under(path, item.Href) {
		return true
	}
	for _, c := range item.Children {
		if c.Active(path) {
			return true
		}
	}
	return false
}

// Form is a form as the user last saw it: their input, kept so nothing they typed is lost when
// validation fails, and an error per field. Handlers fill it from r.PostForm, call SetError
// while validating, and render the page again with it when OK is false.
type Form struct {
	Values url.Values
	Errors map[string]string
	// Message is a problem with the form as a whole, shown above the fields.
	Message string
	// order is the fields in the order their problems were found, for the error summary.
	order []string
}

// NewForm returns a form holding values (nil for an empty form).
func NewForm(values url.Values) *Form {
	if values == nil {
		values = url.Values{}
	}
	return &Form{Values: values, Errors: map[string]string{}}
}

// Get returns a field's value with surrounding spaces removed.
func (f *Form) Get(name string) string {
	if f == nil {
		return ""
	}
	return strings.TrimSpace(f.Values.Get(name))
}

// Raw returns a field's value exactly as submitted (passwords: spaces are significant).
func (f *Form) Raw(name string) string {
	if f == nil {
		return ""
	}
	return f.Values.Get(name)
}

// Set sets a field's value, for forms filled from stored data.
func (f *Form) Set(name, value string) { f.Values.Set(name, value) }

// Checked reports whether a checkbox (or one value of a checkbox group) was ticked.
func (f *Form) Checked(name, value string) bool {
	if f == nil {
		return false
	}
	for _, v := range f.Values[name] {
		if v == value {
			return true
		}
	}
	return false
}

// SetError records a problem with one field; the first one recorded for a field wins.
func (f *Form) SetError(name, msg string) {
	if _, ok := f.Errors[name]; !ok {
		f.Errors[name] = msg
		f.order = append(f.order, name)
	}
}

// ErrorFields lists the fields with a problem, in the order they were found (validation
// follows the form's order), then any recorded another way, by name.
func (f *Form) ErrorFields() []string {
	if f == nil {
		return nil
	}
	out := slices.Clone(f.order)
	var rest []string
	for name := range f.Errors {
		if !slices.Contains(out, name) {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// Error returns the problem recorded for a field, if any.
func (f *Form) Error(name string) string {
	if f == nil {
		return ""
	}
	return f.Errors[name]
}

// OK reports whether no problem was recorded.
func (f *Form) OK() bool { return len(f.Errors) == 0 && f.Message == "" }

// Field describes one input for the form components.
type Field struct {
	Form  *Form
	Name  string
	Label string
	// Type is the input type: text (default), email, password, number, url, …
	Type         string
	Hint         string
	Required     bool
	Autocomplete string
	// Attrs are extra attributes for the input (min, max, step, inputmode, placeholder, …).
	Attrs map[string]any
}

func (f Field) id() string      { return "f-" + f.Name }
func (f Field) errorID() string { return "f-" + f.Name + "-error" }
func (f Field) hintID() string  { return "f-" + f.Name + "-hint" }
func (f Field) inputType() string {
	if f.Type == "" {
		return "text"
	}
	return f.Type
}

// describedBy links the input to its hint and error for screen readers.
func (f Field) describedBy() string {
	var ids []string
	if f.Hint != "" {
		ids = append(ids, f.hintID())
	}
	if f.Form.Error(f.Name) != "" {
		ids = append(ids, f.errorID())
	}
	return strings.Join(ids, " ")
}

// value is what the input shows: never a password.
func (f Field) value() string {
	if f.Type == "password" {
		return ""
	}
	return f.Form.Raw(f.Name)
}

// Option is one choice of a select or checkbox group.
type Option struct {
	Value string
	Label string
}

// PollHeaders go on elements that refresh themselves (hx-headers={ PollHeaders }): the server
// treats such requests as background polls, which do not extend an idle session — an
// unattended screen still signs out after the idle timeout.
const PollHeaders = `{"X-Frontdesk-Poll": "1"}`

// MinPassword is the shortest password an owner may choose (owner.MinPasswordLen, which ui
// cannot import; a test in app/admin keeps the two equal), for the forms' hints.
const MinPassword = 10
