package admin

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/errpage"
	"frontdesk/app/export"
	"frontdesk/app/webhook"
	"frontdesk/ui"
)

// A webhook's detail page: its state and health, the delivery log with filters, and the
// owner's recovery actions (send a test event, reactivate and replay what it missed, recover
// failed deliveries of a time range, resend one delivery). The actions only queue deliveries;
// the running dispatcher sends them.

const deliveriesPerPage = 25

func deliveryStateOptions(r *http.Request) []ui.Option {
	return []ui.Option{
		{Value: "", Label: translate(r, "deliveries.filter.all")},
		{Value: webhook.StateSucceeded, Label: translate(r, "deliveries.filter.succeeded")},
		{Value: webhook.StateFailed, Label: translate(r, "deliveries.filter.failed")},
		{Value: webhook.StatePending, Label: translate(r, "deliveries.filter.pending")},
		{Value: webhook.StateMissed, Label: translate(r, "deliveries.filter.missed")},
	}
}

func eventTypeOptions(r *http.Request) []ui.Option {
	opts := []ui.Option{{Value: "", Label: translate(r, "deliveries.filter.all_types")}}
	for _, t := range append(webhook.EventTypes(), webhook.TestEvent) {
		opts = append(opts, ui.Option{Value: t, Label: t})
	}
	return opts
}

func hasOption(opts []ui.Option, v string) bool {
	return slices.ContainsFunc(opts, func(o ui.Option) bool { return o.Value == v })
}

func (a *Admin) showWebhook(w http.ResponseWriter, r *http.Request) {
	now := a.now().UTC()
	f := ui.NewForm(nil)
	for name, t := range map[string]time.Time{"from": now.Add(-24 * time.Hour), "to": now.Truncate(time.Minute).Add(time.Minute)} {
		f.Set(name+"_date", t.Format(time.DateOnly))
		f.Set(name+"_time", clockText(r.Context(), t.Hour()*60+t.Minute()))
	}
	a.renderWebhook(w, r, http.StatusOK, f)
}

// renderWebhook renders the detail page with the recover form as given (kept input and
// errors after a failed submit).
func (a *Admin) renderWebhook(w http.ResponseWriter, r *http.Request, status int, recoverForm *ui.Form) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	row, err := a.webhookRow(r.Context(), h)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.WebhookDetailView{
		Hook: row, KeyMode: h.KeyMode, Created: h.CreatedAt, Recover: recoverForm, NowUTC: a.now().UTC().Format("2006-01-02 15:04"),
		Pending: h.Health.Pending, Succeeded: h.Health.SucceededTotal, Failed: h.Health.Failed, Missed: h.Health.Missed,
		States: deliveryStateOptions(r), Types: eventTypeOptions(r),
	}
	for _, s := range h.Secrets {
		v.Secrets = append(v.Secrets, ui.SecretRow{Created: s.CreatedAt, Expires: s.ExpiresAt})
	}
	// A secret just made is shown once, on its own webhook's page; popping it either way
	// means it cannot linger in the session.
	if s, ok := a.sessions.Pop(r.Context(), keyNewWebhookSecret).(ui.NewWebhookSecret); ok && s.WebhookID == h.ID {
		v.NewSecret = &s
	}
	if err := a.deliveryLog(r, h.ID, &v); err != nil {
		if errors.Is(err, webhook.ErrNotFound) { // deleted while the page was being made
			err = errpage.NotFound
		}
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, status, ui.WebhookDetailPage(a.page(r, translate(r, "webhooks.detail.title")), v))
}

// deliveryLog fills in the page of the log the query asks for. Unknown filter values are
// ignored (the filters show "all"); a search by event id lists that event's delivery, within
// the other filters.
func (a *Admin) deliveryLog(r *http.Request, webhookID int64, v *ui.WebhookDetailView) error {
	q := r.URL.Query()
	filter := webhook.DeliveryFilter{WebhookID: webhookID, Page: int(pageNumber(q)), PerPage: deliveriesPerPage}
	if s := q.Get("state"); hasOption(v.States, s) {
		filter.State = s
	}
	if t := q.Get("type"); hasOption(v.Types, t) {
		filter.EventType = t
	}
	eventID := searchText(q.Get("q"))
	v.Filter = ui.NewForm(url.Values{"state": {filter.State}, "type": {filter.EventType}, "q": {eventID}})
	// The page is the owner's (Integrations), stricter than Exports: whoever sees the log may
	// download it, with the page's filters.
	defer func() { v.Pager.CSV = csvPath(fmt.Sprintf("/settings/integrations/webhooks/%d/csv", webhookID), q) }()

	if eventID != "" {
		found, err := a.hooks.manager.FindEvent(r.Context(), eventID)
		if err != nil {
			return err
		}
		for _, d := range found {
			if d.WebhookID == webhookID && (filter.State == "" || d.State == filter.State) && (filter.EventType == "" || d.EventType == filter.EventType) {
				v.Deliveries = append(v.Deliveries, deliveryRow(d))
			}
		}
		v.Pager = ui.Pager{Page: 1, Pages: 1, Total: int64(len(v.Deliveries)), Noun: translate(r, "pager.events", "count", len(v.Deliveries))}
		return nil
	}
	page, err := a.hooks.manager.Deliveries(r.Context(), filter)
	if err != nil {
		return err
	}
	for _, d := range page.Deliveries {
		v.Deliveries = append(v.Deliveries, deliveryRow(d))
	}
	v.Pager = listPager(r.URL, int64(page.Page), int64(page.PerPage), int64(page.Total), translate(r, "pager.events", "count", int64(page.Total)))
	return nil
}

// afterAction ends a recovery action: a refusal the owner can act on (a deactivated endpoint,
// a delivery still being retried) becomes an error flash on the page they came from.
func (a *Admin) afterAction(w http.ResponseWriter, r *http.Request, err error, back, done string) {
	switch {
	case err == nil:
		a.flash(r.Context(), ui.FlashSuccess, done)
	case errors.Is(err, webhook.ErrInvalidState):
		a.flash(r.Context(), ui.FlashError, sentenceAfter(err))
	default:
		a.renderError(w, r, err)
		return
	}
	seeOther(w, r, back)
}

func (a *Admin) sendTestEvent(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	eventID, err := a.hooks.manager.SendTest(r.Context(), h.ID)
	a.afterAction(w, r, err, ui.WebhookURL(h.ID),
		translate(r, "webhooks.test_sent", "event", eventID))
}

func (a *Admin) reactivateWebhook(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := r.ParseForm(); err != nil {
		a.renderError(w, r, formError(err))
		return
	}
	replay := r.PostForm.Get("replay") == "1"
	res, err := a.hooks.manager.Reactivate(r.Context(), h.ID, replay)
	var msg string
	switch {
	case res.Reactivated && replay:
		msg = translate(r, "webhooks.reactivated_replay", "count", res.Replayed)
	case res.Reactivated && h.Health.Missed > 0:
		msg = translate(r, "webhooks.reactivated_kept", "count", h.Health.Missed)
	case res.Reactivated:
		msg = translate(r, "webhooks.reactivated")
	case replay:
		msg = translate(r, "webhooks.replayed", "count", res.Replayed)
	default:
		msg = translate(r, "webhooks.already_active")
	}
	a.afterAction(w, r, err, ui.WebhookURL(h.ID), msg)
}

func (a *Admin) recoverDeliveries(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	from, to := parseUTC(r, f, "from"), parseUTC(r, f, "to")
	if f.OK() && !from.Before(to) {
		f.SetError("to_time", translate(r, "catalog.err.end_after_start"))
	}
	if !f.OK() {
		a.renderWebhook(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	n, err := a.hooks.manager.Recover(r.Context(), h.ID, from, to)
	msg := translate(r, "webhooks.recovered", "count", n)
	if n == 0 {
		msg = translate(r, "webhooks.nothing_to_recover")
	}
	a.afterAction(w, r, err, ui.WebhookURL(h.ID), msg)
}

// parseUTC reads one end of the recovery range, a date (name_date) and a time of day on the
// business's clock (name_time), as a UTC time, recording on f what is not one.
func parseUTC(r *http.Request, f *ui.Form, name string) time.Time {
	d, err := booking.ParseDate(f.Get(name + "_date"))
	if err != nil {
		f.SetError(name+"_date", translate(r, "bookings.date.error"))
	}
	m, ok := readClock(r.Context(), f, name+"_time")
	if err != nil || !ok {
		return time.Time{}
	}
	return time.Date(d.Year, d.Month, d.Day, m/60, m%60, 0, 0, time.UTC)
}

// findDelivery loads the delivery named by {delivery} if it belongs to webhook {id}.
func (a *Admin) findDelivery(r *http.Request) (webhook.DeliveryDetail, error) {
	webhookID, err := pathID(r, "id")
	if err != nil {
		return webhook.DeliveryDetail{}, err
	}
	id, err := pathID(r, "delivery")
	if err != nil {
		return webhook.DeliveryDetail{}, err
	}
	d, err := a.hooks.manager.Delivery(r.Context(), id)
	if errors.Is(err, webhook.ErrNotFound) || (err == nil && d.WebhookID != webhookID) {
		return d, errpage.NotFound
	}
	return d, err
}

func (a *Admin) showDelivery(w http.ResponseWriter, r *http.Request) {
	d, err := a.findDelivery(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.DeliveryDetailView{
		Delivery: deliveryRow(d.Delivery), WebhookURL: h.URL, WebhookActive: h.State == webhook.WebhookActive,
		Body: strings.ToValidUTF8(string(d.Body), "\uFFFD"), KeptBytes: webhook.MaxResponseBody,
	}
	for _, at := range d.AttemptLog {
		v.Attempts = append(v.Attempts, ui.AttemptView{
			Number: at.Number, Started: at.StartedAt, Duration: fmt.Sprintf("%d ms", at.Duration.Milliseconds()),
			Status: at.StatusCode, Category: at.ErrorCategory, Message: at.ErrorMessage,
			RequestHeaders: at.RequestHeaders, ResponseHeaders: at.ResponseHeaders, ResponseBody: at.ResponseBody,
			Truncated: len(at.ResponseBody) >= webhook.MaxResponseBody,
		})
	}
	a.render(w, r, http.StatusOK, ui.DeliveryPage(a.page(r, translate(r, "webhooks.delivery.title", "event", d.EventID)), v))
}

func (a *Admin) resendDelivery(w http.ResponseWriter, r *http.Request) {
	d, err := a.findDelivery(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	_, err = a.hooks.manager.Resend(r.Context(), d.ID)
	a.afterAction(w, r, err, ui.DeliveryURL(d.WebhookID, d.ID),
		translate(r, "webhooks.resent", "event", d.EventID))
}

// exportDeliveries downloads an endpoint's delivery log as CSV with the page's filters
// (docs/data.md); unknown filter values are ignored, as on the page.
func (a *Admin) exportDeliveries(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	q := r.URL.Query()
	from, to, ok := exportDates(q)
	if !ok {
		a.renderError(w, r, badDate)
		return
	}
	f := export.Filter{WebhookID: h.ID, From: from, To: to, DeliveryEvent: searchText(q.Get("q"))}
	if s := q.Get("state"); hasOption(deliveryStateOptions(r), s) {
		f.DeliveryState = s
	}
	if t := q.Get("type"); hasOption(eventTypeOptions(r), t) {
		f.DeliveryType = t
	}
	a.writeCSV(w, r, "deliveries", f)
}
