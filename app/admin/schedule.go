package admin

import (
	"net/http"
	"net/url"
	"slices"

	"frontdesk/app/booking"
	"frontdesk/app/input"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// A provider's schedule (docs/calendar.md, "A provider's schedule"): one provider's day or
// week at one location, as the agenda's sections — the day is the agenda of that provider, the
// week is seven of its days, one section each. Made for a phone first and working without
// JavaScript (links and a GET form). A provider account sees its own, always (its landing
// page and first navigation item); owners, managers and reception choose whose.

// scheduleURL is a provider's schedule for a location and date; week picks the week.
func scheduleURL(locationID int64, d booking.Date, providerID int64, week bool) string {
	q := url.Values{"location": {idText(locationID)}, "date": {d.String()}}
	if providerID != 0 {
		q.Set("provider", idText(providerID))
	}
	if week {
		q.Set("view", "week")
	}
	return "/schedule?" + q.Encode()
}

func (a *Admin) showSchedule(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	only := scopedProvider(ctx)
	q := r.URL.Query()
	week := q.Get("view") == "week"
	whose := only
	if whose == 0 {
		whose = queryID(q, "provider")
	}
	var where []int64 // the locations whose schedule it is works at
	if whose != 0 {
		var err error
		if where, err = a.db.R.ListProviderLocationIDs(ctx, whose); err != nil {
			a.renderError(w, r, err)
			return
		}
	}
	if len(where) > 0 && !q.Has("location") {
		// A provider's schedule opens at the first location they work at.
		r = r.Clone(ctx)
		q.Set("location", idText(slices.Min(where)))
		r.URL.RawQuery = q.Encode()
	}
	title := translate(r, "schedule.mine")
	v := ui.ScheduleView{Nav: ui.CalendarNav{Action: r.URL.Path}, Heading: title, Week: week}
	if week {
		v.Nav.View = "week"
	}
	cq, ok, err := a.readCalendarQuery(r, &v.Nav, only)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if only != 0 {
		// A provider chooses among the locations they work at, and only when there are several.
		v.Nav.Locations = slices.DeleteFunc(v.Nav.Locations, func(o ui.Option) bool {
			id, _ := input.ParseID(o.Value)
			return !slices.Contains(where, id)
		})
		if len(v.Nav.Locations) < 2 {
			v.Nav.Locations = nil
		}
	}
	if ok && only == 0 {
		// Someone else's schedule: a provider must be chosen; the first of the location when
		// none is, and no "all providers" choice.
		if len(v.Nav.Providers) > 0 && v.Nav.Providers[0].Value == "" {
			v.Nav.Providers = v.Nav.Providers[1:]
		}
		if cq.provider == 0 && len(v.Nav.Providers) > 0 {
			cq.provider, _ = input.ParseID(v.Nav.Providers[0].Value)
			v.Nav.Filter.Set("provider", idText(cq.provider))
		}
		if cq.provider == 0 {
			v.Nav.Message = translate(r, "day.no_providers")
			ok = false
		}
	}
	if !ok {
		a.render(w, r, http.StatusOK, ui.SchedulePage(a.page(r, title), v))
		return
	}
	v.DayURL = scheduleURL(cq.loc.ID, cq.date, cq.provider, false)
	v.WeekURL = scheduleURL(cq.loc.ID, cq.date, cq.provider, true)
	v.Nav.ScheduleURL = ""
	if week {
		wv, err := a.weekView(r, ui.WeekView{Nav: v.Nav}, cq)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Nav = wv.Nav
		p := i18n.From(ctx)
		for _, row := range wv.Rows {
			for d, cell := range row.Cells {
				date := weekStart(cq.date).AddDays(d)
				v.Sections = append(v.Sections, ui.AgendaSection{
					Provider: row.Provider, Heading: p.DayShort(booking.DayStart(cq.zone, date)),
					HeadingURL: scheduleURL(cq.loc.ID, date, cq.provider, false), Today: wv.Days[d].Today,
					Hours: cell.Hours, Off: cell.Off, Items: cell.Items, NewURL: cell.NewURL,
				})
			}
		}
	} else {
		av, err := a.agendaView(r, ui.AgendaView{Nav: v.Nav}, cq)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Nav, v.Sections = av.Nav, av.Sections
	}
	if only == 0 {
		for _, s := range v.Sections {
			v.Heading = translate(r, "schedule.of", "provider", s.Provider.Name)
			title = v.Heading
			break
		}
	}
	a.render(w, r, http.StatusOK, ui.SchedulePage(a.page(r, title), v))
}
