package admin

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/errpage"
	"frontdesk/app/reports"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// reportPresets are the ranges the form offers, with their names in the catalogs.
var reportPresets = []struct{ Value, Key string }{
	{Value: reports.ThisWeek, Key: "reports.preset.this_week"},
	{Value: reports.LastMonth, Key: "reports.preset.last_month"},
	{Value: reports.Last12Months, Key: "reports.preset.last_12_months"},
	{Value: reports.Custom, Key: "reports.preset.custom"},
}

// bucketNames name the money chart's bucket: the chart's title and the table's column.
func bucketNames(r *http.Request, b reports.Bucket) (title, column string) {
	switch b {
	case reports.Week:
		return translate(r, "reports.chart.revenue_week"), translate(r, "reports.col.week")
	case reports.Month:
		return translate(r, "reports.chart.revenue_month"), translate(r, "reports.col.month")
	}
	return translate(r, "reports.chart.revenue_day"), translate(r, "reports.col.day")
}

// showReports is Reports (docs/reports.md): a preset or custom range of dates in the
// business's zone, one location or all, and the figures for it against the period before.
// Bad dates are a form error (422), an unknown location or preset a 404.
func (a *Admin) showReports(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	preset := q.Get("range")
	if preset == "" {
		preset = reports.LastMonth
	}
	f := ui.NewForm(url.Values{"range": {preset}, "from": {q.Get("from")}, "to": {q.Get("to")}, "location": {q.Get("location")}})
	ctx := r.Context()
	zone, err := a.businessZone(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	presets := []ui.Option{}
	for _, p := range reportPresets {
		presets = append(presets, ui.Option{Value: p.Value, Label: translate(r, p.Key)})
	}
	locations := []ui.Option{{Value: "", Label: translate(r, "reports.all_locations")}}
	for _, l := range locs {
		locations = append(locations, ui.Option{Value: strconv.FormatInt(l.ID, 10), Label: l.Name})
	}
	if !hasOption(presets, preset) || !hasOption(locations, f.Get("location")) {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	location, _ := strconv.ParseInt(f.Get("location"), 10, 64)
	today := booking.DateOf(a.now().In(zone))
	rng, ok := reports.PresetRange(preset, today)
	if !ok { // custom
		from, errFrom := booking.ParseDate(f.Get("from"))
		to, errTo := booking.ParseDate(f.Get("to"))
		if errFrom != nil {
			f.SetError("from", translate(r, "reports.error.date"))
		}
		if errTo != nil {
			f.SetError("to", translate(r, "reports.error.date"))
		}
		rng = reports.Range{From: from, To: to}
		if f.OK() {
			switch {
			case to.Before(from):
				f.SetError("to", translate(r, "reports.error.order"))
			case reports.CheckRange(rng) != nil:
				f.SetError("to", translate(r, "reports.error.long", "days", reports.MaxDays))
			}
		}
	} else {
		f.Values.Set("from", rng.From.String())
		f.Values.Set("to", rng.To.String())
	}
	v := ui.ReportsView{Filter: f, Presets: presets, Locations: locations}
	if !f.OK() {
		a.render(w, r, http.StatusUnprocessableEntity, ui.ReportsPage(a.page(r, translate(r, "reports.title")), v))
		return
	}
	rep, err := reports.Build(ctx, a.db, reports.Query{Range: rng, Location: location, Zone: zone})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	fillReport(r, &v, rep, zone)
	a.render(w, r, http.StatusOK, ui.ReportsPage(a.page(r, translate(r, "reports.title")), v))
}

// fillReport turns a report into the page's texts in the reader's language.
func fillReport(r *http.Request, v *ui.ReportsView, rep reports.Report, zone *time.Location) {
	p := i18n.From(r.Context())
	date := func(d booking.Date) string { return p.Date(booking.DayStart(zone, d)) }
	period := func(g reports.Range) string { return date(g.From) + " – " + date(g.To) }
	v.Shown = true
	v.Period, v.Previous = period(rep.Range), period(rep.PreviousRange)
	c, b := rep.Current, rep.Previous
	money, count := p.Money, p.Integer
	pct := func(bp int64) string { return percent(p, bp) }
	card := func(key, label string, now, before int64, show func(int64) string, isRate bool) {
		ch, trend := change(r, p, now, before, isRate)
		v.Cards = append(v.Cards, ui.ReportCard{Key: key, Label: label, Value: show(now), Before: show(before), Change: ch, Trend: trend})
	}
	o, ob := c.Outcomes, b.Outcomes
	card("net", translate(r, "reports.card.net"), c.NetCents, b.NetCents, money, false)
	card("received", translate(r, "reports.card.received"), c.ReceivedCents, b.ReceivedCents, money, false)
	card("refunded", translate(r, "reports.card.refunded"), c.RefundedCents, b.RefundedCents, money, false)
	card("bookings", translate(r, "reports.card.bookings"), o.Counted(), ob.Counted(), count, false)
	card("attended", translate(r, "reports.outcome.attended"), o.Attended, ob.Attended, count, false)
	card("no-show-rate", translate(r, "reports.card.no_show_rate"), o.NoShowRate(), ob.NoShowRate(), pct, true)
	card("cancel-rate", translate(r, "reports.card.cancel_rate"), o.CancelRate(), ob.CancelRate(), pct, true)
	card("late", translate(r, "reports.card.late"), o.Late, ob.Late, count, false)
	card("utilisation", translate(r, "reports.utilisation"), c.UtilisationRate(), b.UtilisationRate(), pct, true)
	card("new-clients", translate(r, "reports.card.new_clients"), c.NewClients, b.NewClients, count, false)
	card("returning-clients", translate(r, "reports.card.returning_clients"), c.ReturningClients, b.ReturningClients, count, false)
	card("fill-rate", translate(r, "reports.card.fill_rate"), c.FillRate(), b.FillRate(), pct, true)
	card("packs-sold", translate(r, "reports.card.packs_sold"), c.PacksSold, b.PacksSold, count, false)
	card("pack-sessions-used", translate(r, "reports.card.pack_sessions_used"), c.PackSessionsUsed, b.PackSessionsUsed, count, false)

	// The net series.
	title, column := bucketNames(r, rep.Bucket)
	rev := ui.ReportChart{ID: "revenue", Title: title, LabelHead: column,
		ValueHead: translate(r, "reports.card.net")}
	var best reports.Point
	for i, pt := range c.Series {
		label := p.DayShort(booking.DayStart(zone, pt.Start))
		if rep.Bucket == reports.Month {
			label = monthLabel(p, pt.Start)
		}
		rev.Bars = append(rev.Bars, ui.ReportBar{Label: label, Value: money(pt.Cents), Amount: pt.Cents})
		if i == 0 || pt.Cents > best.Cents {
			best = pt
		}
	}
	ui.MarkTicks(rev.Bars)
	rev.Desc = translate(r, "reports.chart.revenue_desc", "total", money(c.NetCents), "before", money(b.NetCents), "count", len(c.Series))
	if len(c.Series) > 0 && best.Cents > 0 {
		rev.Desc += " " + translate(r, "reports.chart.revenue_best", "label", rev.Bars[indexOf(c.Series, best)].Label, "amount", money(best.Cents))
	}
	v.Revenue = rev
	v.ByService = amountLines(c.ByService, b.ByService, translate(r, "reports.rest.service"), r, p)
	v.ByProvider = amountLines(c.ByProvider, b.ByProvider, translate(r, "reports.rest.provider"), r, p)
	v.ByMethod = amountLines(c.ByMethod, b.ByMethod, "", r, p)

	// Outcomes.
	out := ui.ReportChart{ID: "outcomes", Title: translate(r, "reports.chart.outcomes"), Horizontal: true,
		LabelHead: translate(r, "reports.col.outcome"), ValueHead: translate(r, "reports.col.bookings")}
	for _, x := range []struct {
		Key string
		N   int64
	}{
		{Key: "reports.outcome.attended", N: o.Attended}, {Key: "reports.outcome.no_show", N: o.NoShow},
		{Key: "reports.outcome.open", N: o.Open}, {Key: "reports.outcome.cancelled_client", N: o.CancelledClient},
		{Key: "reports.outcome.cancelled_business", N: o.CancelledBusiness},
		{Key: "reports.outcome.cancelled_unpaid", N: o.CancelledUnpaid},
		{Key: "reports.outcome.cancelled_unknown", N: o.CancelledUnknown},
	} {
		if x.N == 0 && x.Key == "reports.outcome.cancelled_unknown" {
			continue // only businesses with cancels from before they were recorded
		}
		out.Bars = append(out.Bars, ui.ReportBar{Label: translate(r, x.Key), Value: count(x.N), Amount: x.N})
	}
	out.Desc = translate(r, "reports.chart.outcomes_desc", "count", o.Total, "no_show", pct(o.NoShowRate()), "cancel", pct(o.CancelRate()), "late", o.Late)
	v.Outcomes = out

	// Top services.
	top := ui.ReportChart{ID: "top-services", Title: translate(r, "reports.top_services"), Horizontal: true,
		LabelHead: translate(r, "reports.col.service"), ValueHead: translate(r, "reports.col.bookings")}
	prevTop := map[int64]int64{}
	for _, t := range b.TopServices {
		prevTop[t.ID] = t.N
	}
	for _, t := range c.TopServices {
		top.Bars = append(top.Bars, ui.ReportBar{Label: t.Name, Value: count(t.N), Amount: t.N})
		ch, _ := change(r, p, t.N, prevTop[t.ID], false)
		v.TopServices = append(v.TopServices, ui.ReportLine{Name: t.Name, Value: count(t.N), Before: count(prevTop[t.ID]), Change: ch})
	}
	top.Desc = translate(r, "reports.chart.top_desc", "count", len(c.TopServices))
	v.ServiceChart = top

	// Utilisation.
	ut := ui.ReportChart{ID: "utilisation", Title: translate(r, "reports.chart.utilisation"), Horizontal: true, Scale: 10000,
		LabelHead: translate(r, "reports.col.provider"), ValueHead: translate(r, "reports.col.rate")}
	for _, u := range c.Utilisation {
		label := u.ProviderName
		if multipleLocations(c.Utilisation) {
			label += " (" + u.LocationName + ")"
		}
		ut.Bars = append(ut.Bars, ui.ReportBar{Label: label, Value: pct(u.Rate()), Amount: max(u.Rate(), 0)})
		v.UtilisationRows = append(v.UtilisationRows, ui.ReportUtilRow{Location: u.LocationName, Provider: u.ProviderName,
			Booked: p.Duration(time.Duration(u.BookedMin) * time.Minute), Working: p.Duration(time.Duration(u.WorkingMin) * time.Minute), Rate: pct(u.Rate())})
	}
	ut.Desc = translate(r, "reports.chart.utilisation_desc", "rate", pct(c.UtilisationRate()),
		"booked", p.Duration(time.Duration(c.BookedMin)*time.Minute), "working", p.Duration(time.Duration(c.WorkingMin)*time.Minute))
	v.Utilisation = ut
}

func indexOf(ps []reports.Point, x reports.Point) int {
	for i, p := range ps {
		if p == x {
			return i
		}
	}
	return 0
}

func multipleLocations(us []reports.Utilisation) bool {
	for _, u := range us {
		if u.LocationID != us[0].LocationID {
			return true
		}
	}
	return false
}

// monthLabel names a month bucket ("septiembre 2026").
func monthLabel(p *i18n.Printer, d booking.Date) string {
	return p.Month(d.Month) + " " + strconv.Itoa(d.Year)
}

// amountLines lists amounts now against the same names before; rest names ID 0 (empty: no
// rest expected). Names only the previous period had are listed too, at zero now.
func amountLines(now, before []reports.Amount, rest string, r *http.Request, p *i18n.Printer) []ui.ReportLine {
	prev := map[int64]int64{}
	for _, a := range before {
		prev[a.ID] = a.Cents
	}
	seen := map[int64]bool{}
	var out []ui.ReportLine
	add := func(a reports.Amount, was int64) {
		name := a.Name
		if a.ID == 0 && rest != "" {
			name = rest
		}
		ch, _ := change(r, p, a.Cents, was, false)
		out = append(out, ui.ReportLine{Name: name, Value: p.Money(a.Cents), Before: p.Money(was), Change: ch})
	}
	for _, a := range now {
		seen[a.ID] = true
		add(a, prev[a.ID])
	}
	for _, a := range before {
		if !seen[a.ID] {
			add(reports.Amount{ID: a.ID, Name: a.Name}, a.Cents)
		}
	}
	return out
}

// percent prints basis points as a percentage with one decimal in the reader's language;
// "–" for a rate with nothing to divide by (-1).
func percent(p *i18n.Printer, bp int64) string {
	if bp < 0 {
		return "–"
	}
	return p.Integer(bp/100) + p.T("_format.decimal") + strconv.FormatInt((bp%100+5)/10%10, 10) + " %"
}

// change says how now differs from before: a relative change for amounts and counts, a
// difference in percentage points for rates; "new" when there was nothing before.
func change(r *http.Request, p *i18n.Printer, now, before int64, isRate bool) (string, string) {
	trend := ""
	switch {
	case now > before:
		trend = "up"
	case now < before:
		trend = "down"
	}
	if isRate {
		if now < 0 || before < 0 {
			return translate(r, "reports.change.none"), ""
		}
		d := now - before
		sign := "+"
		if d < 0 {
			sign, d = "−", -d
		}
		return translate(r, "reports.change.points", "points", sign+points(percent(p, d))), trend
	}
	switch {
	case before == 0 && now == 0:
		return translate(r, "reports.change.same"), ""
	case before == 0:
		return translate(r, "reports.change.new"), trend
	}
	d := (now - before) * 1000 / abs(before) // tenths of a percent
	sign := "+"
	if d < 0 {
		sign, d = "−", -d
	}
	return sign + p.Integer(d/10) + p.T("_format.decimal") + strconv.FormatInt(d%10, 10) + " %", trend
}

// points drops percent's " %": a difference of rates is in points.
func points(s string) string {
	if len(s) > 2 && s[len(s)-2:] == " %" {
		return s[:len(s)-2]
	}
	return s
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
