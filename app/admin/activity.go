package admin

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/activity"
	"frontdesk/app/errpage"
	"frontdesk/app/staff"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// activityPerPage is how many entries Settings → Activity shows at once; a record's own page
// shows its latest few.
const (
	activityPerPage   = 50
	activityPerRecord = 10
)

// activityPrefixes are the kinds of change the filter offers: an action's first word.
var activityPrefixes = []string{"booking", "client", "service", "provider", "location", "category", "settings",
	"apikey", "webhook", "owner", "payment_request", "sale", "message", "product", "timetable_entry", "class_session", "payment_flag",
	"gift_card", "membership", "membership_plan", "resource", "appointment_wait"}

// actorKinds name each kind of actor in the catalogs.
var actorKinds = []struct {
	Kind activity.Kind
	Key  string
}{
	{Kind: activity.KindOwner, Key: "activity.kind.owner"},
	{Kind: activity.KindAPIKey, Key: "activity.kind.api_key"},
	{Kind: activity.KindMCP, Key: "activity.kind.mcp"},
	{Kind: activity.KindClient, Key: "activity.kind.client"},
	{Kind: activity.KindSite, Key: "activity.kind.site"},
	{Kind: activity.KindCLI, Key: "activity.kind.cli"},
	{Kind: activity.KindSystem, Key: "activity.kind.system"},
}

// kindName is a kind of actor in the reader's language.
func kindName(r *http.Request, k activity.Kind) string {
	for _, ak := range actorKinds {
		if ak.Kind == k {
			return translate(r, ak.Key)
		}
	}
	return string(k)
}

// showActivity is Settings → Activity: who changed what, newest first, filtered by person (or
// kind of actor), kind of change and dates, a page at a time.
func (a *Admin) showActivity(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := ui.NewForm(url.Values{"actor": {q.Get("actor")}, "kind": {q.Get("kind")}, "from": {q.Get("from")}, "to": {q.Get("to")}})
	actors, err := activity.Actors(r.Context(), a.db.R)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	who := []ui.Option{{Value: "", Label: translate(r, "activity.everyone")}}
	for _, k := range activity.Kinds {
		who = append(who, ui.Option{Value: string(k), Label: kindName(r, k)})
	}
	for _, ac := range actors {
		if ac.ID != "" {
			who = append(who, ui.Option{Value: activity.ActorRef(ac), Label: actorLabel(r, ac)})
		}
	}
	kinds := []ui.Option{{Value: "", Label: translate(r, "activity.all_kinds")}}
	for _, p := range activityPrefixes {
		kinds = append(kinds, ui.Option{Value: p, Label: translate(r, "activity.prefix."+p)})
	}
	zone, err := a.businessZone(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	filter := activity.Filter{Actor: f.Get("actor"), Prefix: f.Get("kind")}
	filter.Before, _ = strconv.ParseInt(q.Get("before"), 10, 64)
	var bad bool
	if filter.From, bad = dayStart(f.Get("from"), zone, 0); bad {
		f.SetError("from", translate(r, "activity.error.date"))
	}
	if filter.To, bad = dayStart(f.Get("to"), zone, 1); bad {
		f.SetError("to", translate(r, "activity.error.date"))
	}
	if !hasOption(kinds, filter.Prefix) || !validActor(filter.Actor) {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	v := ui.ActivityView{Filter: f, Actors: who, Kinds: kinds}
	status := http.StatusOK
	if !f.OK() {
		status = http.StatusUnprocessableEntity
	} else {
		items, next, err := activity.List(r.Context(), a.db.R, filter, activityPerPage)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Rows = activityRows(r, items, zone)
		link := func(before int64) string {
			vals := url.Values{"actor": {filter.Actor}, "kind": {filter.Prefix}, "from": {f.Get("from")}, "to": {f.Get("to")}}
			if before != 0 {
				vals.Set("before", strconv.FormatInt(before, 10))
			}
			return "/settings/activity?" + vals.Encode()
		}
		if next != 0 {
			v.NextHref = link(next)
		}
		if filter.Before != 0 {
			v.FirstHref = link(0)
		}
	}
	a.render(w, r, status, ui.ActivityPage(a.page(r, translate(r, "activity.title")), v))
}

// entityActivity is the latest history of one booking or client, for its page. A provider's
// account, which sees a client's name and phone only (docs/roles.md), gets none: the changes
// name the other fields.
func (a *Admin) entityActivity(r *http.Request, entity string, id int64) ([]ui.ActivityRow, error) {
	if !can(r.Context(), staff.ClientsEdit) {
		return nil, nil
	}
	items, err := activity.ForEntity(r.Context(), a.db.R, entity, id, activityPerRecord)
	if err != nil {
		return nil, err
	}
	zone, err := a.businessZone(r.Context())
	if err != nil {
		return nil, err
	}
	return activityRows(r, items, zone), nil
}

func activityRows(r *http.Request, items []activity.Item, zone *time.Location) []ui.ActivityRow {
	p := i18n.From(r.Context())
	rows := make([]ui.ActivityRow, len(items))
	for i, it := range items {
		row := ui.ActivityRow{At: it.At, When: p.DateTimeOnce(it.At.In(zone)), Who: actorLabel(r, it.Actor),
			Kind: kindName(r, it.Actor.Kind), Action: it.Action, IP: it.IP,
			Entity: it.Entity, Href: entityHref(it.Entity, it.EntityID)}
		if it.EntityID != 0 {
			row.Entity += " " + strconv.FormatInt(it.EntityID, 10)
		}
		for _, c := range it.Changes {
			row.Changes = append(row.Changes, ui.ActivityChange{Field: c.Field, Old: c.Old, New: c.New})
		}
		rows[i] = row
	}
	return rows
}

// actorLabel names an actor for a reader: their label (an email, a key's name), else the kind
// with the id.
func actorLabel(r *http.Request, ac activity.Actor) string {
	if ac.Label != "" {
		return ac.Label
	}
	label := kindName(r, ac.Kind)
	if ac.ID != "" {
		label += " " + ac.ID
	}
	return label
}

// entityHref is the admin page of what an entry changed, when it has one.
func entityHref(entity string, id int64) string {
	if id == 0 {
		return ""
	}
	n := strconv.FormatInt(id, 10)
	switch entity {
	case "booking":
		return "/bookings/" + n
	case "client":
		return ui.ClientURL(id)
	case "service", "provider", "location", "category":
		return "/catalog/" + map[string]string{"service": "services", "provider": "providers", "location": "locations", "category": "categories"}[entity] + "/" + n
	case "webhook":
		return "/settings/integrations/webhooks/" + n
	case "payment_request":
		return "/payments/" + n
	case "sale":
		return "/payments/sales/" + n
	case "message":
		return "/settings/messages/log/" + n
	case "product":
		return "/catalog/products/" + n
	case "gift_card":
		return ui.GiftCardURL(id)
	case "membership_plan":
		return "/payments/memberships"
	}
	return ""
}

// dayStart reads a YYYY-MM-DD date of the filter as the start of that day (plus days) in zone;
// bad reports a date that is not one.
func dayStart(s string, zone *time.Location, days int) (t time.Time, bad bool) {
	if s == "" {
		return time.Time{}, false
	}
	d, err := time.ParseInLocation(time.DateOnly, s, zone)
	if err != nil {
		return time.Time{}, true
	}
	return d.AddDate(0, 0, days), false
}

// validActor accepts the filter's actor values: "", a kind, or a kind and an id.
func validActor(s string) bool {
	if s == "" {
		return true
	}
	kind, _, _ := strings.Cut(s, ":")
	for _, k := range activity.Kinds {
		if string(k) == kind {
			return true
		}
	}
	return false
}
