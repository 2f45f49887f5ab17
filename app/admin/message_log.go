package admin

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/errpage"
	"frontdesk/app/messages"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The message log: every message with its state, attempts and the server's answers, with
// resend; and the messages of one booking on its page.

func messageHref(id int64) string { return "/settings/messages/log/" + strconv.FormatInt(id, 10) }

func stateLabel(r *http.Request, state string) string {
	switch state {
	case messages.StatePending:
		return translate(r, "messages.state.pending")
	case messages.StateSent:
		return translate(r, "messages.state.sent")
	case messages.StateFailed:
		return translate(r, "messages.state.failed")
	}
	return translate(r, "messages.state.skipped")
}

// messageTimes writes the times of messages: each in the zone of what the message is about
// (its booking's location; the business's zone when it has none), on the business's clock, the
// zone named beside the time when the business's locations are in more than one zone.
type messageTimes struct {
	p        *i18n.Printer
	business *time.Location
	zones    map[string]*time.Location
	named    bool
}

func (a *Admin) messageTimes(ctx context.Context) (*messageTimes, error) {
	locs, err := a.db.R.AdminBookingLocations(ctx)
	if err != nil {
		return nil, err
	}
	business, err := a.businessZone(ctx)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, l := range locs {
		seen[l.Timezone] = true
	}
	return &messageTimes{p: i18n.From(ctx), business: business, zones: map[string]*time.Location{}, named: len(seen) > 1}, nil
}

// zone is the zone named name, the business's when it is "" or unknown to this program.
func (m *messageTimes) zone(name string) *time.Location {
	if z, ok := m.zones[name]; ok {
		return z
	}
	z, err := booking.LoadZone(name)
	if name == "" || err != nil {
		z = m.business
	}
	m.zones[name] = z
	return z
}

// at is instant t in zone name as the log shows it, and the zone's name when it must be given.
func (m *messageTimes) at(t time.Time, zone string) (when, name string) {
	if t.IsZero() {
		return "", ""
	}
	z := m.zone(zone)
	if m.named {
		name = z.String()
	}
	return m.p.DateTimeOnce(t.In(z)), name
}

func (a *Admin) messageRow(r *http.Request, times *messageTimes, e messages.Entry) ui.MessageRow {
	label := kindLabel(r, e.Kind)
	if e.Kind == messages.Reminder {
		label = translate(r, "messages.kind.reminder_before", "offset", formatOffsets([]time.Duration{e.Offset}))
	}
	if e.Recipient == messages.ToOwner {
		label = translate(r, "messages.owner_copy_of", "type", label)
	}
	if e.Channel == messages.ChannelSMS || e.Channel == messages.ChannelWhatsApp {
		label = translate(r, "messages.by_channel", "type", label, "channel", translate(r, "clients.channel."+e.Channel))
	}
	state := stateLabel(r, e.State)
	if e.InFlight {
		state = translate(r, "messages.state.sending")
	}
	note := e.Note
	if e.Delivery != "" {
		// What the provider's status callbacks said after it took the text (app/replies).
		state = translate(r, "messages.delivery", "state", state, "delivery", translate(r, deliveryKeys[e.Delivery].Key))
		if e.DeliveryNote != "" {
			note = e.DeliveryNote
		}
	}
	row := ui.MessageRow{ID: e.ID, Kind: label, To: e.To, SendAt: e.SendAt, State: state,
		StateKey: e.State, Note: note, Attempts: e.Attempts, Code: e.LastCode}
	if e.ID != 0 {
		row.Href = messageHref(e.ID)
	}
	row.When, row.Zone = times.at(e.SendAt, e.Zone)
	return row
}

func (a *Admin) showMessageLog(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := ui.NewForm(url.Values{"state": {q.Get("state")}, "kind": {q.Get("kind")}, "q": {q.Get("q")}})
	states := []ui.Option{{Value: "", Label: translate(r, "messages.state.all")}}
	for _, s := range []string{messages.StatePending, messages.StateSent, messages.StateFailed, messages.StateSkipped} {
		states = append(states, ui.Option{Value: s, Label: stateLabel(r, s)})
	}
	kinds := []ui.Option{{Value: "", Label: translate(r, "messages.kind.all")}}
	for _, k := range slices.Concat(messages.Kinds, messages.ProviderKinds, messages.MoneyKinds) {
		kinds = append(kinds, ui.Option{Value: string(k), Label: kindLabel(r, k)})
	}
	if !hasOption(states, f.Get("state")) || !hasOption(kinds, f.Get("kind")) {
		a.renderError(w, r, errpage.NotFound)
		return
	}
	page, _ := strconv.Atoi(q.Get("page"))
	lp, err := a.msgs.Log(r.Context(), messages.LogFilter{State: f.Get("state"), Kind: messages.Kind(f.Get("kind")),
		Search: f.Get("q"), Page: page, PerPage: 30})
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	times, err := a.messageTimes(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.MessageLogView{Filter: f, States: states, Kinds: kinds, Page: lp.Page, TotalPages: lp.TotalPages, Total: lp.Total,
		CSVHref: csvLink(r.Context(), "/settings/messages/log/csv", q)}
	for _, e := range lp.Entries {
		v.Rows = append(v.Rows, a.messageRow(r, times, e))
	}
	link := func(p int) string {
		vals := url.Values{"state": {f.Get("state")}, "kind": {f.Get("kind")}, "q": {f.Get("q")}, "page": {strconv.Itoa(p)}}
		return "/settings/messages/log?" + vals.Encode()
	}
	if lp.Page > 1 {
		v.PrevHref = link(lp.Page - 1)
	}
	if lp.Page < lp.TotalPages {
		v.NextHref = link(lp.Page + 1)
	}
	a.render(w, r, http.StatusOK, ui.MessageLogPage(a.page(r, translate(r, "messages.log")), v))
}

func (a *Admin) showMessage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	d, err := a.msgs.Message(r.Context(), id)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	times, err := a.messageTimes(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.MessageDetailView{Row: a.messageRow(r, times, d.Entry), MessageID: d.MessageID, Subject: d.Subject,
		Resendable: d.State == messages.StateSent || d.State == messages.StateFailed, ResendHref: messageHref(id) + "/resend"}
	if d.BookingID != 0 {
		v.BookingHref = "/bookings/" + strconv.FormatInt(d.BookingID, 10)
	}
	for _, at := range d.Attempts {
		row := ui.MessageAttemptRow{Number: at.Number, StartedAt: at.StartedAt,
			Duration: at.Duration.String(), Code: at.Code, Category: at.Category, Reply: at.Reply, To: at.To, Header: at.Header}
		row.Policy = policyName(r, at.Policy)
		row.When, row.Zone = times.at(at.StartedAt, d.Zone)
		v.Attempts = append(v.Attempts, row)
	}
	if d.Segments > 0 {
		v.Cost = translate(r, "messages.log.segments", "count", d.Segments, "cost", i18n.From(r.Context()).Money(messages.CostCents(d.CostMilli)))
	}
	a.render(w, r, http.StatusOK, ui.MessageDetailPage(a.page(r, v.Row.Kind), v))
}

func (a *Admin) resendMessage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	switch err := a.msgs.Resend(r.Context(), id); {
	case errors.Is(err, messages.ErrNotResendable):
		a.flash(r.Context(), ui.FlashError, translate(r, "messages.resend.refused"))
	case err != nil:
		a.renderError(w, r, err)
		return
	default:
		a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.resend.queued"))
	}
	seeOther(w, r, messageHref(id))
}

// bookingMessages are the rows of a booking page's messages section.
func (a *Admin) bookingMessages(ctx context.Context, r *http.Request, bookingID int64) ([]ui.MessageRow, error) {
	entries, err := a.msgs.ForBooking(ctx, bookingID)
	if err != nil {
		return nil, err
	}
	times, err := a.messageTimes(ctx)
	if err != nil {
		return nil, err
	}
	rows := make([]ui.MessageRow, len(entries))
	for i, e := range entries {
		rows[i] = a.messageRow(r, times, e)
	}
	return rows, nil
}

// deliveryKeys name the delivery statuses providers report (app/replies).
var deliveryKeys = map[string]struct{ Key string }{
	"accepted": {Key: "messages.delivery.accepted"}, "scheduled": {Key: "messages.delivery.scheduled"},
	"queued": {Key: "messages.delivery.queued"}, "sending": {Key: "messages.delivery.sending"},
	"sent": {Key: "messages.delivery.sent"}, "delivered": {Key: "messages.delivery.delivered"},
	"read": {Key: "messages.delivery.read"}, "failed": {Key: "messages.delivery.failed"},
	"undelivered": {Key: "messages.delivery.undelivered"},
}

// policyName names the rule for texts that sent an attempt by email instead ("" for none;
// docs/messages.md, "Cost and courtesy").
func policyName(r *http.Request, policy string) string {
	switch policy {
	case messages.PolicyKindByEmail:
		return translate(r, "messages.log.policy.kind_by_email")
	case messages.PolicyQuietEmail:
		return translate(r, "messages.log.policy.quiet_hours")
	case messages.PolicyCapEmail:
		return translate(r, "messages.log.policy.daily_cap")
	case messages.PolicyNotClient:
		return translate(r, "messages.log.policy.not_a_client")
	}
	return ""
}
