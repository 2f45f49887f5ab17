package admin

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/queue"
	"frontdesk/app/webhook"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Integrations → Webhooks: the list, create, edit, delete and secret rotation.
// The detail page with the delivery log and the recovery actions is webhook_deliveries.go.
// Every change goes through webhook.Manager, which validates and writes in one transaction;
// these handlers move values between forms and the Manager and never see a secret except the
// one just made, which is stashed in the session and shown once (like a new API key).

// WebhookOptions tell the webhook pages how serve runs its dispatcher.
type WebhookOptions struct {
	// Schedule is the dispatcher's retry schedule, for a failing endpoint's countdown
	// (nil: the default schedule).
	Schedule webhook.Schedule
	// AllowPrivate mirrors --webhook-allow-private: whether deliveries to loopback and
	// private addresses are allowed at all. Without it the forms say such targets are refused.
	AllowPrivate bool
	// Live, if set, is the running dispatcher's (dispatch.Dispatcher.Live): each endpoint's
	// concurrency and delivery rate, for the backlog's drain estimate.
	Live func(id int64) (queue.TargetStats, bool)
}

// webhookPages is what the webhook handlers share.
type webhookPages struct {
	manager      *webhook.Manager
	allowPrivate bool
	schedule     webhook.Schedule // the dispatcher's, for pages that describe it
}

func newWebhookPages(d *db.DB, now func() time.Time, o WebhookOptions) webhookPages {
	schedule := o.Schedule
	if len(schedule) == 0 {
		schedule = webhook.DefaultSchedule()
	}
	return webhookPages{
		manager:      webhook.NewManager(d, webhook.ManagerOptions{Now: now, Schedule: o.Schedule, Live: o.Live}),
		allowPrivate: o.AllowPrivate,
		schedule:     schedule,
	}
}

// keyNewWebhookSecret holds a secret just made until the webhook's page shows it, once.
const keyNewWebhookSecret = "new_webhook_secret"

func init() { gob.Register(ui.NewWebhookSecret{}) }

// chartSlots is how many recent attempts the outcome chart shows.
const chartSlots = 30

func (a *Admin) listWebhooks(w http.ResponseWriter, r *http.Request) {
	hooks, err := a.hooks.manager.List(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v := ui.WebhooksView{Limit: webhook.DefaultLimit, Attempts: len(a.hooks.schedule), RetryWindow: a.hooks.schedule.Remaining(1)}
	for _, h := range hooks {
		row, err := a.webhookRow(r.Context(), h)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Hooks = append(v.Hooks, row)
	}
	a.render(w, r, http.StatusOK, ui.WebhooksPage(a.page(r, translate(r, "dashboard.webhooks")), v))
}

// webhookRow turns a webhook and its health into what the list and the detail page show.
func (a *Admin) webhookRow(ctx context.Context, h webhook.Overview) (ui.WebhookRow, error) {
	row := ui.WebhookRow{
		ID: h.ID, URL: h.URL, Description: h.Description, Events: h.Events,
		Active: h.State == webhook.WebhookActive, DeactivatedReason: h.DeactivatedReason, DeactivatedAt: h.DeactivatedAt,
		PausedAt: h.PausedAt,
	}
	if h.Health.Failing() && h.PausedAt.IsZero() { // paused: nothing is attempted, nothing counts down
		row.Countdown = countdown(ctx, h.Health.DeactivatesAt.Sub(a.now()))
	}
	if h.Health.LastDelivery != nil {
		last := deliveryRow(*h.Health.LastDelivery)
		row.Last = &last
	}
	if h.Health.Sample > 0 {
		row.Rate = i18n.T(ctx, "webhooks.rate", "percent", int(math.Round(100*h.Health.SuccessRate)), "count", h.Health.Sample)
	}
	row.Backlog = ui.Backlog{Pending: h.Health.Pending, Serving: h.Health.HasServing,
		Limit: h.Health.Serving.Limit, Bound: h.Health.Serving.Bound}
	row.Backlog.Drain, row.Backlog.DrainKnown = h.Health.DrainIn()
	attempts, err := a.db.R.AdminRecentWebhookAttempts(ctx, db.AdminRecentWebhookAttemptsParams{WebhookID: h.ID, Lim: chartSlots})
	if err != nil {
		return row, err
	}
	row.Chart.Slots = chartSlots
	for _, at := range slices.Backward(attempts) {
		row.Chart.Bars = append(row.Chart.Bars, outcomeBar(ctx, at))
	}
	return row, nil
}

func outcomeBar(ctx context.Context, at db.AdminRecentWebhookAttemptsRow) ui.OutcomeBar {
	status := int(at.StatusCode.Int64)
	outcome := at.ErrorCategory.String
	if status != 0 {
		outcome = fmt.Sprintf("HTTP %d", status)
	}
	return ui.OutcomeBar{
		OK:    status >= 200 && status <= 299,
		Label: i18n.T(ctx, "webhooks.chart.bar", "time", db.Time(at.StartedAt).UTC().Format("2006-01-02 15:04:05 UTC"), "outcome", outcome, "ms", at.DurationMs),
	}
}

func deliveryRow(d webhook.Delivery) ui.DeliveryRow {
	return ui.DeliveryRow{
		ID: d.ID, WebhookID: d.WebhookID, EventID: d.EventID, EventType: d.EventType, State: d.State,
		InFlight: d.InFlight, Attempts: d.Attempts, LastStatus: d.LastStatus,
		Created: d.CreatedAt, LastAttempt: d.LastAttemptAt, NextAttempt: d.NextAttemptAt,
	}
}

// countdown says roughly how long until a failing endpoint is deactivated.
func countdown(ctx context.Context, d time.Duration) string {
	switch {
	case d < time.Minute:
		return i18n.T(ctx, "age.under_minute")
	case d < 59*time.Minute+30*time.Second:
		return "~" + i18n.T(ctx, "age.minutes", "count", int(d.Round(time.Minute).Minutes()))
	case d < 47*time.Hour+30*time.Minute:
		return "~" + i18n.T(ctx, "age.hours", "count", int(d.Round(time.Hour).Hours()))
	}
	return "~" + i18n.T(ctx, "age.days", "count", int(d.Round(24*time.Hour).Hours()/24))
}

// findWebhook loads the webhook named by the {id} URL parameter, or errpage.NotFound.
func (a *Admin) findWebhook(r *http.Request) (webhook.Overview, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return webhook.Overview{}, err
	}
	return a.hooks.manager.Get(r.Context(), id)
}

// Wording of the event checkboxes; the values are webhook.Patterns().
var eventLabels = map[string]i18n.Msg{
	webhook.MatchAll:              i18n.M("webhooks.event.all"),
	"booking.*":                   i18n.M("webhooks.event.booking_all"),
	"client.*":                    i18n.M("webhooks.event.client_all"),
	"payment_request.*":           i18n.M("webhooks.event.payment_request_all"),
	"service.*":                   i18n.M("webhooks.event.service_all"),
	webhook.BookingCreated:        i18n.M("webhooks.event.booking_created"),
	webhook.BookingUpdated:        i18n.M("webhooks.event.booking_updated"),
	webhook.ClientCreated:         i18n.M("webhooks.event.client_created"),
	webhook.ClientUpdated:         i18n.M("webhooks.event.client_updated"),
	webhook.PaymentRequestPaid:    i18n.M("webhooks.event.payment_request_paid"),
	webhook.PaymentRequestExpired: i18n.M("webhooks.event.payment_request_expired"),
	webhook.ServiceUpdated:        i18n.M("webhooks.event.service_updated"),
	webhook.TestEvent:             i18n.M("webhooks.event.webhook_test"),
}

func (a *Admin) webhookForm(r *http.Request, id int64, url string, f *ui.Form) ui.WebhookFormView {
	v := ui.WebhookFormView{ID: id, URL: url, Form: f, AllowPrivate: a.hooks.allowPrivate}
	types := webhook.EventTypes()
	for _, p := range webhook.Patterns() {
		c := ui.EventChoice{Value: p, Label: i18n.From(r.Context()).Msg(eventLabels[p])}
		if slices.Contains(types, p) || p == webhook.TestEvent {
			v.Types = append(v.Types, c)
		} else {
			v.Wildcards = append(v.Wildcards, c)
		}
	}
	return v
}

func (a *Admin) newWebhook(w http.ResponseWriter, r *http.Request) {
	f := ui.NewForm(nil)
	f.Set("key_mode", webhook.KeyModeStandard)
	f.Set("max_concurrency", strconv.Itoa(webhook.DefaultConcurrency))
	a.render(w, r, http.StatusOK, ui.WebhookFormPage(a.page(r, translate(r, "webhooks.add")), a.webhookForm(r, 0, "", f)))
}

// webhookInput reads the form; the Manager validates.
func (a *Admin) webhookInput(f *ui.Form) (url string, events []string, description string, allowPrivate bool) {
	// Never nil: an empty selection must reach the Manager as "none", not as "unchanged".
	events = append([]string{}, f.Values["events"]...)
	return f.Get("url"), events, f.Get("description"), a.hooks.allowPrivate && f.Checked("allow_private", "1")
}

// keyModeInput is the form's signature key mode (docs/webhooks.md, "Signature key mode"): "" when the form has none, which
// creates a standard webhook and leaves an existing one's mode alone.
func keyModeInput(f *ui.Form) string { return f.Get("key_mode") }

// concurrencyInput is the form's most deliveries at once (docs/webhooks.md, "Slow endpoints"): 0 when the form has none
// (the default on create, unchanged on edit), -1 when it is not a whole number or is 0 (the
// Manager refuses it).
func concurrencyInput(f *ui.Form) int {
	v := strings.TrimSpace(f.Get("max_concurrency"))
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n == 0 {
		return -1
	}
	return n
}

func (a *Admin) createWebhook(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	url, events, description, allowPrivate := a.webhookInput(f)
	h, secret, err := a.hooks.manager.Create(r.Context(), webhook.CreateInput{URL: url, Events: events, Description: description, AllowPrivate: allowPrivate, KeyMode: keyModeInput(f), MaxConcurrency: concurrencyInput(f)})
	if a.webhookFieldErrors(r, f, err) {
		a.render(w, r, http.StatusUnprocessableEntity, ui.WebhookFormPage(a.page(r, translate(r, "webhooks.add")), a.webhookForm(r, 0, "", f)))
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.sessions.Put(r.Context(), keyNewWebhookSecret, ui.NewWebhookSecret{WebhookID: h.ID, Secret: secret})
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "webhooks.added"))
	seeOther(w, r, ui.WebhookURL(h.ID))
}

func (a *Admin) editWebhook(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f := ui.NewForm(nil)
	f.Set("url", h.URL)
	f.Set("description", h.Description)
	f.Set("key_mode", h.KeyMode)
	f.Set("max_concurrency", strconv.Itoa(h.MaxConcurrency))
	f.Values["events"] = h.Events
	a.render(w, r, http.StatusOK, ui.WebhookFormPage(a.page(r, translate(r, "webhooks.edit")), a.webhookForm(r, h.ID, h.URL, f)))
}

func (a *Admin) updateWebhook(w http.ResponseWriter, r *http.Request) {
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
	url, events, description, allowPrivate := a.webhookInput(f)
	in := webhook.UpdateInput{Events: events, Description: &description, AllowPrivate: allowPrivate}
	if url != h.URL {
		in.URL = &url // an unchanged URL keeps the opt-in it was registered with
	}
	if mode := keyModeInput(f); mode != "" {
		in.KeyMode = &mode
	}
	if n := concurrencyInput(f); n != 0 {
		in.MaxConcurrency = &n
	}
	_, err = a.hooks.manager.Update(r.Context(), h.ID, in)
	if a.webhookFieldErrors(r, f, err) {
		a.render(w, r, http.StatusUnprocessableEntity, ui.WebhookFormPage(a.page(r, translate(r, "webhooks.edit")), a.webhookForm(r, h.ID, h.URL, f)))
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "webhooks.saved"))
	seeOther(w, r, ui.WebhookURL(h.ID))
}

// webhookFieldErrors puts the Manager's validation failures beside their fields and reports
// whether there were any.
func (a *Admin) webhookFieldErrors(r *http.Request, f *ui.Form, err error) bool {
	var fe *webhook.FieldError
	if !errors.As(err, &fe) {
		return false
	}
	switch {
	case errors.Is(fe, webhook.ErrPrivateTarget) && a.hooks.allowPrivate:
		f.SetError("url", translate(r, "webhooks.err.private"))
	case errors.Is(fe, webhook.ErrPrivateTarget):
		f.SetError("url", translate(r, "webhooks.err.private_refused"))
	case errors.Is(fe, webhook.ErrInvalidPatterns) && len(f.Values["events"]) == 0:
		f.SetError("events", translate(r, "webhooks.err.events"))
	case errors.Is(fe, webhook.ErrInvalidKeyMode):
		f.SetError("key_mode", translate(r, "webhooks.key_mode.error"))
	case errors.Is(fe, webhook.ErrInvalidURL):
		f.SetError("url", translate(r, "webhooks.err.url"))
	case errors.Is(fe, webhook.ErrInvalidPatterns):
		f.SetError("events", translate(r, "webhooks.err.patterns"))
	case errors.Is(fe, webhook.ErrInvalidDescription):
		f.SetError("description", translate(r, "webhooks.err.description"))
	case errors.Is(fe, webhook.ErrTooManyWebhooks):
		f.Message = translate(r, "webhooks.err.too_many", "count", webhook.DefaultLimit)
	case errors.Is(fe, webhook.ErrInvalidConcurrency):
		f.SetError("max_concurrency", translate(r, "webhooks.max_concurrency.error"))
	case fe.Field == "":
		f.Message = sentenceAfter(fe.Err)
	default:
		f.SetError(fe.Field, sentenceAfter(fe.Err))
	}
	return true
}

// sentenceAfter is a Manager error as a sentence, without the sentinel's prefix
// ("invalid webhook URL: …").
func sentenceAfter(err error) string {
	msg := err.Error()
	if inner := errors.Unwrap(err); inner != nil {
		msg = strings.TrimPrefix(msg, inner.Error()+": ")
	}
	return asSentence(msg)
}

func (a *Admin) confirmDeleteWebhook(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.DeleteWebhookPage(a.page(r, translate(r, "webhooks.delete.title")), ui.WebhookRow{ID: h.ID, URL: h.URL}))
}

func (a *Admin) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := a.hooks.manager.Delete(r.Context(), h.ID); err != nil && !errors.Is(err, webhook.ErrNotFound) {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "webhooks.deleted", "url", h.URL))
	seeOther(w, r, ui.WebhooksPath)
}

func (a *Admin) confirmRotateSecret(w http.ResponseWriter, r *http.Request) {
	h, err := a.findWebhook(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f := ui.NewForm(nil)
	f.Set("grace", "24h")
	a.render(w, r, http.StatusOK, ui.RotateSecretPage(a.page(r, translate(r, "webhooks.rotate.title")), ui.WebhookRow{ID: h.ID, URL: h.URL}, f))
}

func (a *Admin) rotateSecret(w http.ResponseWriter, r *http.Request) {
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
	grace, err := time.ParseDuration(f.Get("grace"))
	if err != nil || !slices.Contains(ui.GraceValues, f.Get("grace")) {
		f.SetError("grace", translate(r, "webhooks.err.grace"))
		a.render(w, r, http.StatusUnprocessableEntity, ui.RotateSecretPage(a.page(r, translate(r, "webhooks.rotate.title")), ui.WebhookRow{ID: h.ID, URL: h.URL}, f))
		return
	}
	secret, err := a.hooks.manager.RotateSecret(r.Context(), h.ID, grace)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	s := ui.NewWebhookSecret{WebhookID: h.ID, Secret: secret, Rotated: true}
	if grace > 0 {
		s.OldUntil = a.now().Add(grace)
	}
	a.sessions.Put(r.Context(), keyNewWebhookSecret, s)
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "webhooks.rotated"))
	seeOther(w, r, ui.WebhookURL(h.ID))
}
