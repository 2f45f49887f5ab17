package admin

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/catalog"
	"frontdesk/app/feeds"
	"frontdesk/app/staff"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Catalog → Providers: the list, and one form for creating and editing a provider with their
// locations, services and weekly hours (with breaks) per location; the edit page also lists
// their time off (add, remove), entered in the main location's time zone.

const providersPath = "/catalog/providers"

func (a *Admin) listProviders(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rows, err := a.db.R.AdminListProviders(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	locations, err := a.db.R.ListAllLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	var out []ui.ProviderRow
	for _, p := range rows {
		out = append(out, ui.ProviderRow{ID: p.ID, Name: p.PublicName, Location: p.LocationName, Services: p.ServiceCount,
			Active: p.Active, OnlineBooking: p.OnlineBooking})
	}
	a.render(w, r, http.StatusOK, ui.ProvidersPage(a.page(r, translate(r, "providers.title")), out, len(locations) > 0))
}

func (a *Admin) newProvider(w http.ResponseWriter, r *http.Request) {
	a.showProviderForm(w, r, http.StatusOK, 0, providerForm(catalog.NewProviderInput()), nil)
}

func (a *Admin) showProvider(w http.ResponseWriter, r *http.Request) {
	id, err := a.ownHoursID(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.showStoredProvider(w, r, http.StatusOK, id, ui.NewForm(nil))
}

// showStoredProvider renders the edit page of provider id as stored, with time-off form tf.
func (a *Admin) showStoredProvider(w http.ResponseWriter, r *http.Request, status int, id int64, tf *ui.Form) {
	in, err := catalog.EditProvider(r.Context(), a.db.R, id, hoursClock(r.Context()))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.showProviderForm(w, r, status, id, providerForm(in), tf)
}

// providerForm is formFrom plus the hours fields, which depend on the locations.
func providerForm(in catalog.ProviderInput) *ui.Form {
	f := formFrom(in)
	for loc, days := range in.Hours {
		for day, text := range days {
			f.Set(catalog.HoursField(loc, day), text)
		}
	}
	return f
}

// providerInput reads the form, with the hours of every location.
func (a *Admin) providerInput(r *http.Request, f *ui.Form) (catalog.ProviderInput, error) {
	var in catalog.ProviderInput
	inputFrom(f, &in)
	in.Clock12 = clock12(r.Context())
	locations, err := a.db.R.ListAllLocations(r.Context())
	if err != nil {
		return in, err
	}
	in.Hours = map[int64][7]string{}
	for _, l := range locations {
		var days [7]string
		for day := range days {
			days[day] = f.Raw(catalog.HoursField(l.ID, day))
		}
		in.Hours[l.ID] = days
	}
	return in, nil
}

func (a *Admin) createProvider(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in, err := a.providerInput(r, f)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	saved, err := catalog.CreateProvider(r.Context(), a.db, in, a.now())
	if refused(r.Context(), f, err) {
		a.showProviderForm(w, r, invalid, 0, f, nil)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.providerSaved(r, translate(r, "providers.created", "name", strings.TrimSpace(in.PublicName)), saved)
	seeOther(w, r, providersPath)
}

func (a *Admin) updateProvider(w http.ResponseWriter, r *http.Request) {
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
	in, err := a.providerInput(r, f)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	saved, err := catalog.UpdateProvider(r.Context(), a.db, id, in, a.now())
	if refused(r.Context(), f, err) {
		a.showProviderForm(w, r, invalid, id, f, ui.NewForm(nil))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.providerSaved(r, translate(r, "providers.saved", "name", strings.TrimSpace(in.PublicName)), saved)
	seeOther(w, r, providersPath)
}

// updateProviderHours saves a provider's weekly hours and nothing else of the record: what a
// provider's own account may change while the owner allows it (docs/roles.md).
func (a *Admin) updateProviderHours(w http.ResponseWriter, r *http.Request) {
	id, err := a.ownHoursID(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	in, err := catalog.EditProvider(ctx, a.db.R, id, hoursClock(ctx))
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	typed, err := a.providerInput(r, f)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in.Hours, in.Clock12 = typed.Hours, typed.Clock12
	saved, err := catalog.UpdateProvider(ctx, a.db, id, in, a.now())
	if refused(ctx, f, err) {
		a.showProviderForm(w, r, invalid, id, f, ui.NewForm(nil))
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.providerSaved(r, translate(r, "providers.saved", "name", strings.TrimSpace(in.PublicName)), saved)
	seeOther(w, r, ui.ProviderURL(id))
}

func (a *Admin) providerSaved(r *http.Request, msg string, saved catalog.ProviderSaved) {
	a.flash(r.Context(), ui.FlashSuccess, msg)
	for _, warning := range saved.Warnings {
		a.flash(r.Context(), ui.FlashInfo, i18n.From(r.Context()).Msg(catalog.FieldMsg(warning)))
	}
}

func (a *Admin) addTimeOff(w http.ResponseWriter, r *http.Request) {
	id, err := a.ownHoursID(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	in := catalog.TimeOffInput{From: timeOffField(ctx, f, "from"), To: timeOffField(ctx, f, "to"), Reason: f.Get("reason")}
	if !f.OK() {
		a.showStoredProvider(w, r, invalid, id, f)
		return
	}
	got := ui.NewForm(nil)
	if err := catalog.AddTimeOff(ctx, a.db, id, in); refused(ctx, got, err) {
		// The catalog names the from and to instants; the form asks for each as a date and a
		// time, and what can be wrong with a valid date is its time (one the clocks skip, an
		// end before the start).
		for _, name := range got.ErrorFields() {
			field := name
			if name == "from" || name == "to" {
				field = name + "_time"
			}
			f.SetError(field, got.Error(name))
		}
		a.showStoredProvider(w, r, invalid, id, f)
		return
	} else if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "providers.time_off_added"))
	seeOther(w, r, ui.ProviderURL(id))
}

func (a *Admin) removeTimeOff(w http.ResponseWriter, r *http.Request) {
	id, err := a.ownHoursID(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	off, err := pathID(r, "off")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := catalog.RemoveTimeOff(r.Context(), a.db, id, off); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "providers.time_off_removed"))
	seeOther(w, r, ui.ProviderURL(id))
}

// showProviderForm renders the provider form; on the edit page (id ≠ 0) with the time off and
// the time-off form tf.
func (a *Admin) showProviderForm(w http.ResponseWriter, r *http.Request, status int, id int64, f, tf *ui.Form) {
	ctx := r.Context()
	locations, err := a.db.R.ListAllLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	services, err := a.db.R.AdminListServiceNames(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.ProviderFormView{ID: id, Form: f, TimeOffForm: tf, HoursOnly: !can(ctx, staff.Catalog)}
	v.Locations = options(nil, len(locations), func(i int) (int64, string) { return locations[i].ID, locations[i].Name })
	v.Main = append([]ui.Option{{Value: "", Label: translate(r, "providers.choose_location")}}, v.Locations...)
	v.Services = options(nil, len(services), func(i int) (int64, string) {
		label := services[i].Name
		if !services[i].Active {
			label += " (inactive)"
		}
		return services[i].ID, label
	})
	for _, l := range locations {
		h := ui.ProviderHours{Location: l.Name, Zone: l.Timezone}
		for _, d := range catalog.WeekOrder {
			h.Days = append(h.Days, ui.DayField{Name: catalog.HoursField(l.ID, d), Day: i18n.From(r.Context()).Weekday(time.Weekday(d))})
		}
		v.Hours = append(v.Hours, h)
	}
	if id != 0 {
		zone, err := catalog.ProviderZone(ctx, a.db.R, id)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Zone = zone.String()
		if v.Feed, err = a.feedView(ctx, feeds.Subject{ProviderID: id}, ui.ProviderURL(id)); err != nil {
			a.renderError(w, r, err)
			return
		}
		if v.Calendar, err = a.calendarView(ctx, id); err != nil {
			a.renderError(w, r, err)
			return
		}
		offs, err := a.db.R.ListProviderTimeOff(ctx, id)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		p := i18n.From(ctx)
		for _, o := range offs {
			v.TimeOff = append(v.TimeOff, ui.TimeOffRow{ID: o.ID, Reason: o.Reason,
				From: p.DateTimeOnce(db.Time(o.StartsAt).In(zone)), To: p.DateTimeOnce(db.Time(o.EndsAt).In(zone))})
		}
	}
	title := translate(r, "providers.new")
	if id != 0 {
		title = translate(r, "providers.edit")
	}
	a.render(w, r, status, ui.ProviderFormPage(a.page(r, title), v))
}

// timeOffField reads one end of an absence, typed as a date (name_date) and a time of day on
// the business's clock (name_time), into the local date-time catalog.TimeOffInput takes;
// problems are recorded on f.
func timeOffField(ctx context.Context, f *ui.Form, name string) string {
	d, err := booking.ParseDate(f.Get(name + "_date"))
	if err != nil || d.Year < 1970 || d.Year > 9000 {
		f.SetError(name+"_date", i18n.T(ctx, "bookings.date.error"))
	}
	m, ok := readClock(ctx, f, name+"_time")
	if err != nil || !ok {
		return ""
	}
	return fmt.Sprintf("%sT%02d:%02d", d, m/60, m%60)
}
