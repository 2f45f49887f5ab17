package webhook

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/app/queue"
	"frontdesk/db"
)

// Manager registers webhooks and runs the owner's recovery operations (docs/webhooks.md). The CLI uses
// it now and the admin UI later, so its inputs and outputs are plain structs carrying what a
// page needs; every state change is one db.InTx transaction.
type Manager struct {
	db       *db.DB
	now      func() time.Time
	limit    int
	schedule Schedule
	live     func(id int64) (queue.TargetStats, bool)
}

// ManagerOptions tunes a Manager; the zero value is the production default.
type ManagerOptions struct {
	Now func() time.Time // nil: time.Now
	// Limit is the most webhooks one installation may have (0: DefaultLimit). Every webhook
	// costs a delivery per matching event, so the cap keeps a typo loop from fanning out.
	Limit int
	// Schedule is the dispatcher's retry schedule, used for a failing endpoint's countdown
	// (nil: DefaultSchedule).
	Schedule Schedule
	// Live, if set, is the running dispatcher's Live: how each endpoint is served now, for
	// the backlog's drain estimate (Health).
	Live func(id int64) (queue.TargetStats, bool)
}

// DefaultLimit is the default per-installation webhook limit.
const DefaultLimit = 20

// maxDescription bounds a description: it is a label, not a document.
const maxDescription = 500

// Errors a caller turns into messages. Every Manager error that is the caller's fault wraps
// one of these (or is a *FieldError); anything else is an internal failure.
var (
	ErrNotFound           = &fail.Error{Code: fail.CodeNotFound, Reason: "webhook", Message: "not found"}
	ErrInvalidState       = errors.New("not allowed in the current state")
	ErrInvalidDescription = errors.New("invalid webhook description")
	ErrTooManyWebhooks    = errors.New("webhook limit reached")
	ErrPrivateTarget      = errors.New("private webhook target")
	ErrInvalidConcurrency = fmt.Errorf("the most deliveries at once must be a whole number from %d to %d", MinConcurrency, MaxConcurrency)
)

// The range of a webhook's MaxConcurrency, and its default (docs/webhooks.md, "Slow endpoints").
const (
	MinConcurrency     = 1
	MaxConcurrency     = 256
	DefaultConcurrency = 32
)

// FieldError is a validation failure of one input field, for forms that show errors next to
// the field. Field is "url", "events", "description", "key_mode" or "max_concurrency", or ""
// for the form as a whole (the webhook limit). Err wraps ErrInvalidURL, ErrPrivateTarget,
// ErrInvalidPatterns, ErrInvalidDescription, ErrInvalidKeyMode, ErrInvalidConcurrency or
// ErrTooManyWebhooks and reads well on its own.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// NewManager returns a Manager over d.
func NewManager(d *db.DB, o ManagerOptions) *Manager {
	m := &Manager{db: d, now: o.Now, limit: o.Limit, schedule: o.Schedule, live: o.Live}
	if m.now == nil {
		m.now = time.Now
	}
	if m.limit <= 0 {
		m.limit = DefaultLimit
	}
	if len(m.schedule) == 0 {
		m.schedule = DefaultSchedule()
	}
	return m
}

// Webhook is a registered endpoint as the owner sees it. It never carries a secret.
type Webhook struct {
	ID                int64
	URL               string
	Events            []string
	Description       string
	State             string // WebhookActive or WebhookDeactivated
	DeactivatedReason string // "" while active
	DeactivatedAt     time.Time
	LastSuccessAt     time.Time // zero: nothing has reached it yet
	CreatedAt         time.Time
	UpdatedAt         time.Time
	Secrets           []SecretInfo // newest first
	KeyMode           string       // KeyModeStandard or KeyModeSecretText
	// PausedAt is when the owner paused the webhook (zero: not paused); see pause.go.
	PausedAt time.Time
	// MaxConcurrency bounds the deliveries in flight to it at once (docs/webhooks.md, "Slow
	// endpoints").
	MaxConcurrency int
}

// SecretInfo describes one signing secret without revealing it. A zero ExpiresAt marks the
// current secret; a rotated-out one signs alongside it until ExpiresAt.
type SecretInfo struct {
	CreatedAt time.Time
	ExpiresAt time.Time
}

// CreateInput is a new webhook. AllowPrivate is the owner's explicit opt-in to a URL whose
// host is a loopback, private or link-local literal address (or "localhost"); delivery to any
// such address is still refused at dial time unless serve runs with --webhook-allow-private.
type CreateInput struct {
	URL          string
	Events       []string
	Description  string
	AllowPrivate bool
	KeyMode      string // "" is KeyModeStandard
	// MaxConcurrency bounds its deliveries in flight; 0 is DefaultConcurrency.
	MaxConcurrency int
}

// Create registers a webhook and returns it with its signing secret, which is shown to the
// owner once and never again.
func (m *Manager) Create(ctx context.Context, in CreateInput) (Webhook, string, error) {
	if err := validateInput(in.URL, in.Events, in.Description, in.AllowPrivate); err != nil {
		return Webhook{}, "", err
	}
	if in.KeyMode == "" {
		in.KeyMode = KeyModeStandard
	}
	if err := ValidateKeyMode(in.KeyMode); err != nil {
		return Webhook{}, "", &FieldError{"key_mode", err}
	}
	if in.MaxConcurrency == 0 {
		in.MaxConcurrency = DefaultConcurrency
	}
	if err := validateConcurrency(in.MaxConcurrency); err != nil {
		return Webhook{}, "", err
	}
	secret, err := NewSecret()
	if err != nil {
		return Webhook{}, "", err
	}
	events, err := json.Marshal(in.Events)
	if err != nil {
		return Webhook{}, "", err
	}
	now := m.now()
	var id int64
	err = m.db.InTx(ctx, func(q *db.Queries) error {
		n, err := q.CountWebhooks(ctx)
		if err != nil {
			return err
		}
		if n >= int64(m.limit) {
			return &FieldError{"", fmt.Errorf("%w: this installation already has %d webhooks, the most allowed; delete one first", ErrTooManyWebhooks, n)}
		}
		ms := db.Millis(now)
		id, err = q.CreateWebhook(ctx, db.CreateWebhookParams{URL: in.URL, EventsJSON: string(events), Description: in.Description, KeyMode: in.KeyMode, CreatedAt: ms, UpdatedAt: ms})
		if err != nil {
			return err
		}
		if err := q.CreateWebhookSecret(ctx, db.CreateWebhookSecretParams{WebhookID: id, Secret: secret, CreatedAt: ms}); err != nil {
			return err
		}
		ch := activity.Changes{}.Set("url", nil, in.URL).Set("events", nil, string(events)).Set("description", nil, in.Description).
			Set("key_mode", nil, in.KeyMode).Set("secret", nil, secret) // activity hides the secret
		if err := activity.Record(ctx, q, now, activity.Entry{Action: "webhook.created", EntityID: id, Changes: ch}); err != nil {
			return err
		}
		if in.MaxConcurrency == DefaultConcurrency {
			return nil
		}
		return q.SetWebhookMaxConcurrency(ctx, db.SetWebhookMaxConcurrencyParams{WebhookID: id, MaxConcurrency: int64(in.MaxConcurrency)})
	})
	if err != nil {
		return Webhook{}, "", err
	}
	w, err := m.webhook(ctx, m.db.R, id)
	return w, secret, err
}

// UpdateInput changes a webhook; nil fields stay as they are. Already queued deliveries keep
// going to the endpoint they were created for, at its new URL.
type UpdateInput struct {
	URL          *string
	Events       []string
	Description  *string
	AllowPrivate bool
	// KeyMode changes how the secrets sign, from the next attempt on (the receiver must verify
	// the new way from then).
	KeyMode *string
	// MaxConcurrency changes the bound on deliveries in flight, from the next claim on.
	MaxConcurrency *int
}

// Update changes a webhook's URL, events or description.
func (m *Manager) Update(ctx context.Context, id int64, in UpdateInput) (Webhook, error) {
	err := m.db.InTx(ctx, func(q *db.Queries) error {
		cur, err := m.webhook(ctx, q, id)
		if err != nil {
			return err
		}
		before := cur
		if in.URL != nil {
			cur.URL = *in.URL
		}
		if in.Events != nil {
			cur.Events = in.Events
		}
		if in.Description != nil {
			cur.Description = *in.Description
		}
		if in.KeyMode != nil {
			if err := ValidateKeyMode(*in.KeyMode); err != nil {
				return &FieldError{"key_mode", err}
			}
			cur.KeyMode = *in.KeyMode
		}
		// An unchanged URL that was registered with an opt-in keeps it.
		allowPrivate := in.AllowPrivate || in.URL == nil
		if err := validateInput(cur.URL, cur.Events, cur.Description, allowPrivate); err != nil {
			return err
		}
		events, err := json.Marshal(cur.Events)
		if err != nil {
			return err
		}
		if _, err = q.UpdateWebhook(ctx, db.UpdateWebhookParams{ID: id, URL: cur.URL, EventsJSON: string(events), Description: cur.Description, KeyMode: cur.KeyMode, UpdatedAt: db.Millis(m.now())}); err != nil {
			return err
		}
		ch := activity.Changes{}.Set("url", before.URL, cur.URL).Set("events", strings.Join(before.Events, ","), strings.Join(cur.Events, ",")).
			Set("description", before.Description, cur.Description).Set("key_mode", before.KeyMode, cur.KeyMode)
		if in.MaxConcurrency != nil {
			ch.Set("max_concurrency", before.MaxConcurrency, *in.MaxConcurrency)
		}
		if len(ch) > 0 {
			if err := activity.Record(ctx, q, m.now(), activity.Entry{Action: "webhook.updated", EntityID: id, Changes: ch}); err != nil {
				return err
			}
		}
		if in.MaxConcurrency == nil || *in.MaxConcurrency == cur.MaxConcurrency {
			return nil
		}
		if err := validateConcurrency(*in.MaxConcurrency); err != nil {
			return err
		}
		return q.SetWebhookMaxConcurrency(ctx, db.SetWebhookMaxConcurrencyParams{WebhookID: id, MaxConcurrency: int64(*in.MaxConcurrency)})
	})
	if err != nil {
		return Webhook{}, err
	}
	return m.webhook(ctx, m.db.R, id)
}

// Delete removes a webhook with its secrets, deliveries and attempt log. Events stay for the
// other endpoints.
func (m *Manager) Delete(ctx context.Context, id int64) error {
	return m.db.InTx(ctx, func(q *db.Queries) error {
		n, err := q.DeleteWebhook(ctx, id)
		if err == nil && n == 0 {
			err = notFound("webhook", id)
		}
		if err != nil {
			return err
		}
		return activity.Record(ctx, q, m.now(), activity.Entry{Action: "webhook.deleted", EntityID: id})
	})
}

// Overview is a webhook with its health, for lists and detail pages.
type Overview struct {
	Webhook
	Health Health
}

// Get returns one webhook with its health.
func (m *Manager) Get(ctx context.Context, id int64) (Overview, error) {
	w, err := m.webhook(ctx, m.db.R, id)
	if err != nil {
		return Overview{}, err
	}
	h, err := m.health(ctx, w)
	return Overview{w, h}, err
}

// List returns every webhook with its health, oldest first.
func (m *Manager) List(ctx context.Context) ([]Overview, error) {
	rows, err := m.db.R.ListWebhooks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Overview, 0, len(rows))
	for _, r := range rows {
		w, err := m.withSecrets(ctx, m.db.R, db.GetWebhookRow(r))
		if err != nil {
			return nil, err
		}
		h, err := m.health(ctx, w)
		if err != nil {
			return nil, err
		}
		out = append(out, Overview{w, h})
	}
	return out, nil
}

func (m *Manager) webhook(ctx context.Context, q *db.Queries, id int64) (Webhook, error) {
	r, err := q.GetWebhook(ctx, id)
	if db.IsNotFound(err) {
		return Webhook{}, notFound("webhook", id)
	}
	if err != nil {
		return Webhook{}, err
	}
	return m.withSecrets(ctx, q, r)
}

func (m *Manager) withSecrets(ctx context.Context, q *db.Queries, r db.GetWebhookRow) (Webhook, error) {
	w := Webhook{
		ID: r.ID, URL: r.URL, Description: r.Description, State: r.State, KeyMode: r.KeyMode,
		DeactivatedReason: r.DeactivatedReason.String,
		DeactivatedAt:     nullTime(r.DeactivatedAt), LastSuccessAt: nullTime(r.LastSuccessAt),
		CreatedAt: db.Time(r.CreatedAt), UpdatedAt: db.Time(r.UpdatedAt),
	}
	if err := json.Unmarshal([]byte(r.EventsJSON), &w.Events); err != nil {
		return Webhook{}, fmt.Errorf("webhook %d events: %w", r.ID, err)
	}
	paused, err := q.GetWebhookPause(ctx, r.ID)
	if err == nil {
		w.PausedAt = db.Time(paused)
	} else if !db.IsNotFound(err) {
		return Webhook{}, err
	}
	secrets, err := q.ListWebhookSecretInfo(ctx, r.ID)
	if err != nil {
		return Webhook{}, err
	}
	n, err := q.WebhookMaxConcurrency(ctx, r.ID)
	if err != nil {
		return Webhook{}, err
	}
	w.MaxConcurrency = int(n)
	now := m.now()
	for _, s := range secrets {
		info := SecretInfo{CreatedAt: db.Time(s.CreatedAt), ExpiresAt: nullTime(s.ExpiresAt)}
		if info.ExpiresAt.IsZero() || info.ExpiresAt.After(now) {
			w.Secrets = append(w.Secrets, info)
		}
	}
	return w, nil
}

func validateConcurrency(n int) error {
	if n < MinConcurrency || n > MaxConcurrency {
		return &FieldError{"max_concurrency", ErrInvalidConcurrency}
	}
	return nil
}

// validateInput checks what the owner typed, naming the field at fault.
func validateInput(rawURL string, events []string, description string, allowPrivate bool) error {
	if err := ValidateURL(rawURL); err != nil {
		return &FieldError{"url", err}
	}
	if !allowPrivate {
		if err := CheckLiteralHost(rawURL); err != nil {
			return &FieldError{"url", err}
		}
	}
	if err := ValidatePatterns(events); err != nil {
		return &FieldError{"events", err}
	}
	switch {
	case utf8.RuneCountInString(description) > maxDescription:
		return &FieldError{"description", fmt.Errorf("%w: longer than %d characters", ErrInvalidDescription, maxDescription)}
	case !utf8.ValidString(description) || strings.ContainsFunc(description, isControl):
		return &FieldError{"description", fmt.Errorf("%w: contains control characters", ErrInvalidDescription)}
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// CheckLiteralHost refuses, at registration (of a webhook, of a calendar), the private targets
// that are visible without resolving anything: literal addresses CheckAddr refuses and
// "localhost". Names are not resolved here (that would prove nothing: the dial-time guard checks every attempt).
func CheckLiteralHost(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return err
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return fmt.Errorf("%w: %s is this machine (loopback); private targets need an explicit opt-in", ErrPrivateTarget, host)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		var ae *AddressError
		if errors.As(CheckAddr(ip), &ae) {
			return fmt.Errorf("%w: %s is a %s address; private targets need an explicit opt-in", ErrPrivateTarget, ip, ae.Reason)
		}
	}
	return nil
}

func notFound(what string, id any) error {
	return fmt.Errorf("%w: no %s with id %v", ErrNotFound, what, id)
}

// nullTime reads an optional stored instant; NULL is the zero time.
func nullTime(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return db.Time(v.Int64)
}
