package admin

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/catalog"
	"frontdesk/app/feeds"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Catalog → Locations: the list, and one form for creating and editing a location with its
// address, time zone and opening hours; the edit page also lists the closed days (add, remove).

const locationsPath = "/catalog/locations"

func (a *Admin) listLocations(w http.ResponseWriter, r *http.Request) {
	rows, err := a.db.R.AdminListLocations(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var out []ui.LocationRow
	for _, l := range rows {
		address := map[string]string{}
		_ = json.Unmarshal([]byte(l.Location.AddressJSON), &address) // written only by validated code
		out = append(out, ui.LocationRow{ID: l.Location.ID, Name: l.Location.Name, Locality: address["locality"],
			Zone: l.Location.Timezone, Country: l.CountryName, Active: l.Location.Active})
	}
	a.render(w, r, http.StatusOK, ui.LocationsPage(a.page(r, translate(r, "locations.title")), out))
}

func (a *Admin) newLocation(w http.ResponseWriter, r *http.Request) {
	a.showLocationForm(w, r, http.StatusOK, 0, formFrom(catalog.NewLocationInput()), nil)
}

func (a *Admin) showLocation(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.showStoredLocation(w, r, http.StatusOK, id, ui.NewForm(nil))
}

// showStoredLocation renders the edit page of location id as stored, with closure form cf.
func (a *Admin) showStoredLocation(w http.ResponseWriter, r *http.Request, status int, id int64, cf *ui.Form) {
	in, err := catalog.EditLocation(r.Context(), a.db.R, id, hoursClock(r.Context()))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.showLocationForm(w, r, status, id, formFrom(in), cf)
}

func (a *Admin) createLocation(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.LocationInput
	inputFrom(f, &in)
	in.Clock12 = clock12(r.Context())
	if _, err := catalog.CreateLocation(r.Context(), a.db, in, a.now()); refused(r.Context(), f, err) {
		a.showLocationForm(w, r, invalid, 0, f, nil)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "locations.created", "name", strings.TrimSpace(in.Name)))
	seeOther(w, r, locationsPath)
}

func (a *Admin) updateLocation(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.LocationInput
	inputFrom(f, &in)
	in.Clock12 = clock12(r.Context())
	if err := catalog.UpdateLocation(r.Context(), a.db, id, in, a.now()); refused(r.Context(), f, err) {
		a.showLocationForm(w, r, invalid, id, f, ui.NewForm(nil))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "locations.saved", "name", strings.TrimSpace(in.Name)))
	seeOther(w, r, locationsPath)
}

func (a *Admin) addClosure(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var in catalog.ClosureInput
	inputFrom(f, &in)
	if err := catalog.AddClosure(r.Context(), a.db, id, in); refused(r.Context(), f, err) {
		a.showStoredLocation(w, r, invalid, id, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, closedOnText(r, in.Date))
	seeOther(w, r, ui.LocationURL(id))
}

func (a *Admin) removeClosure(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	closure, err := pathID(r, "closure")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := catalog.RemoveClosure(r.Context(), a.db, id, closure); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "locations.closed_day_removed"))
	seeOther(w, r, ui.LocationURL(id))
}

// showLocationForm renders the location form; on the edit page (id ≠ 0) with the closed days
// and the closure form cf.
func (a *Admin) showLocationForm(w http.ResponseWriter, r *http.Request, status int, id int64, f, cf *ui.Form) {
	v := ui.LocationFormView{ID: id, Form: f, ClosureForm: cf}
	v.Zones = []ui.Option{{Value: "", Label: translate(r, "locations.choose_zone")}}
	for _, z := range catalog.Zones() {
		v.Zones = append(v.Zones, ui.Option{Value: z, Label: strings.ReplaceAll(z, "_", " ")})
	}
	v.Countries = []ui.Option{{Value: "", Label: translate(r, "locations.choose_country")}}
	for _, c := range catalog.Countries() {
		v.Countries = append(v.Countries, ui.Option{Value: c.Code, Label: countryName(r, c.Code, c.Name)})
	}
	// A zone or country stored by an import may be missing from the lists: keep it choosable.
	v.Zones = keepChoice(v.Zones, f.Get("timezone"))
	v.Countries = keepChoice(v.Countries, f.Get("country_code"))
	for _, d := range catalog.WeekOrder {
		v.Days = append(v.Days, ui.DayField{Name: "hours_" + strconv.Itoa(d), Day: i18n.From(r.Context()).Weekday(time.Weekday(d))})
	}
	if id != 0 {
		closures, err := a.db.R.ListAllLocationClosures(r.Context(), id)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		for _, c := range closures {
			v.Closures = append(v.Closures, ui.ClosureRow{ID: c.ID, Date: c.Date, Reason: c.Reason})
		}
		if v.Feed, err = a.feedView(r.Context(), feeds.Subject{LocationID: id}, ui.LocationURL(id)); err != nil {
			a.renderError(w, r, err)
			return
		}
	}
	title := translate(r, "locations.new")
	if id != 0 {
		title = translate(r, "locations.edit")
	}
	a.render(w, r, status, ui.LocationFormPage(a.page(r, title), v))
}

// keepChoice appends value to opts when it is set, not among them and short enough to be a
// zone or country someone stored.
func keepChoice(opts []ui.Option, value string) []ui.Option {
	if value == "" || len(value) > 100 || slices.ContainsFunc(opts, func(o ui.Option) bool { return o.Value == value }) {
		return opts
	}
	return append(opts, ui.Option{Value: value, Label: value})
}

// closedOnText confirms a closed day, as a date in the reader's words when it reads as one.
func closedOnText(r *http.Request, date string) string {
	date = strings.TrimSpace(date)
	if d, err := time.Parse(time.DateOnly, date); err == nil {
		date = i18n.From(r.Context()).DateLong(d)
	}
	return translate(r, "locations.closed_on", "date", date)
}

// countryName is a country's name in the reader's language (CLDR's, app/catalog/countries.go),
// or the stored (English) name for a code the table does not know.
func countryName(r *http.Request, code, stored string) string {
	if name := catalog.CountryName(code, i18n.From(r.Context()).Lang()); name != "" {
		return name
	}
	return stored
}
