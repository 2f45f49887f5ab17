package payments

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"frontdesk/app/activity"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// ProviderNone is the provider setting that means "pay at the front desk": no online checkout.
const ProviderNone = "none"

// Errors of online payments.
var (
	// ErrOnlineOff: no provider takes online payments.
	ErrOnlineOff = errors.New("online payments are off")
	// ErrNotConfigured: the provider has no usable credentials (none stored, or sealed with
	// another data directory's key).
	ErrNotConfigured = errors.New("payment provider credentials are missing or unreadable")
	// ErrUnknownProvider: no provider of that name is compiled in.
	ErrUnknownProvider = errors.New("unknown payment provider")
	// ErrNotPayable: the request is not pending (or its time is up).
	ErrNotPayable = errors.New("the payment request cannot be paid")
	// ErrPaymentProcessing: the customer paid with a method that takes time to confirm.
	ErrPaymentProcessing = errors.New("a payment is being processed")
	// ErrNothingDue: nothing of the request is to be paid online.
	ErrNothingDue = errors.New("nothing to pay online")
)

// Sealer keeps secrets unreadable in the database (app/secrets).
type Sealer interface {
	Seal(purpose, plain string) (string, error)
	Open(purpose, sealed string) (string, error)
}

// Links builds absolute URLs from the configured public URL (app/links).
type Links interface {
	URL(path string, query url.Values) string
}

// OnlineOptions configure online payments.
type OnlineOptions struct {
	Sealer    Sealer
	Links     Links
	Providers []Registration
	Now       func() time.Time
	Log       *slog.Logger
}

// Online is paying payment requests through a provider: the owner's provider setting and its
// sealed credentials, hosted checkouts, the provider's notifications, refunds, and
// reconciliation. Settlement itself is settle, the same as at the desk.
type Online struct {
	db    *db.DB
	seal  Sealer
	links Links
	regs  map[string]Registration
	names []string
	now   func() time.Time
	log   *slog.Logger
	// locks serialise checkout creation per request (by id modulo their number), so two clicks
	// on "Pay" do not race each other to the provider.
	locks [32]sync.Mutex
}

// NewOnline returns online payments over d.
func NewOnline(d *db.DB, o OnlineOptions) *Online {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	on := &Online{db: d, seal: o.Sealer, links: o.Links, regs: map[string]Registration{}, now: o.Now, log: o.Log}
	for _, r := range o.Providers {
		on.regs[r.Name] = r
		on.names = append(on.names, r.Name)
	}
	return on
}

// Registrations are the providers compiled in, in the order given.
func (o *Online) Registrations() []Registration {
	out := make([]Registration, 0, len(o.names))
	for _, n := range o.names {
		out = append(out, o.regs[n])
	}
	return out
}

// Registration returns the provider called name.
func (o *Online) Registration(name string) (Registration, bool) {
	r, ok := o.regs[name]
	return r, ok
}

// NotifyURL is where provider name sends its notifications: /{name}/webhook under the public
// URL.
func (o *Online) NotifyURL(name string) string { return o.links.URL("/"+name+"/webhook", nil) }

// ActiveProvider is the provider setting: a registered name, or ProviderNone.
func (o *Online) ActiveProvider(ctx context.Context, q *db.Queries) (string, error) {
	s, err := q.GetPaymentProviderSettings(ctx)
	if db.IsNotFound(err) {
		return ProviderNone, nil
	} else if err != nil {
		return "", err
	}
	if _, ok := o.regs[s.Provider]; !ok {
		return ProviderNone, nil
	}
	return s.Provider, nil
}

// OffersMemberships reports whether clients can sign up for a membership on their own
// (/membership/join): a provider is active and at least one plan is. A nil o offers none.
func (o *Online) OffersMemberships(ctx context.Context, q *db.Queries) (bool, error) {
	if o == nil {
		return false, nil
	}
	name, err := o.ActiveProvider(ctx, q)
	if err != nil || name == ProviderNone {
		return false, err
	}
	plans, err := q.ListMembershipPlans(ctx, 1)
	return len(plans) > 0, err
}

// provider makes provider name from its stored credentials.
func (o *Online) provider(ctx context.Context, q *db.Queries, name string) (Provider, error) {
	reg, ok := o.regs[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownProvider, name)
	}
	creds, err := o.credentials(ctx, q, name)
	if err != nil {
		return nil, err
	}
	if creds.SecretKey == "" || creds.WebhookSecret == "" {
		return nil, ErrNotConfigured
	}
	return reg.New(creds)
}

// credentials reads and unseals name's credentials (empty when none are stored).
func (o *Online) credentials(ctx context.Context, q *db.Queries, name string) (Credentials, error) {
	row, err := q.GetProviderCredentials(ctx, name)
	if db.IsNotFound(err) {
		return Credentials{}, nil
	} else if err != nil {
		return Credentials{}, err
	}
	key, err1 := o.seal.Open(name+".secret_key", row.SecretKeySealed)
	hook, err2 := o.seal.Open(name+".webhook_secret", row.WebhookSecretSealed)
	if err1 != nil || err2 != nil {
		return Credentials{}, fmt.Errorf("%w: %w", ErrNotConfigured, errors.Join(err1, err2))
	}
	return Credentials{SecretKey: key, WebhookSecret: hook}, nil
}

// ProviderSettings is the provider setting as the owner sees it: never a secret, only hints.
type ProviderSettings struct {
	Provider      string // ProviderNone or a registered name
	Credentials   map[string]CredentialHints
	ReconciledAt  time.Time // zero: never
	ReconcileNote string
}

// CredentialHints say which of a provider's secrets are stored, by a recognisable hint.
type CredentialHints struct {
	SecretKey, WebhookSecret string // "" when not stored
	// Unreadable: stored, but sealed with another data directory's key.
	Unreadable bool
}

// Settings reads the provider setting.
func (o *Online) Settings(ctx context.Context) (ProviderSettings, error) {
	out := ProviderSettings{Credentials: map[string]CredentialHints{}}
	var err error
	if out.Provider, err = o.ActiveProvider(ctx, o.db.R); err != nil {
		return out, err
	}
	if s, err := o.db.R.GetPaymentProviderSettings(ctx); err == nil {
		if s.ReconciledAt.Valid {
			out.ReconciledAt = db.Time(s.ReconciledAt.Int64)
		}
		out.ReconcileNote = s.ReconcileNote
	} else if !db.IsNotFound(err) {
		return out, err
	}
	rows, err := o.db.R.ListProviderCredentials(ctx)
	if err != nil {
		return out, err
	}
	for _, row := range rows {
		_, err := o.credentials(ctx, o.db.R, row.Provider)
		out.Credentials[row.Provider] = CredentialHints{
			SecretKey: row.SecretKeyHint, WebhookSecret: row.WebhookSecretHint, Unreadable: err != nil,
		}
	}
	return out, nil
}

// SettingsInput is the provider form: the provider to use, and secrets typed for providers
// ("" keeps what is stored). Forget removes a provider's stored secrets.
type SettingsInput struct {
	Provider string
	Typed    map[string]Credentials
	Forget   map[string]bool
}

// SaveSettings validates in and stores it: the typed secrets sealed, the provider switched.
// Problems are returned by field ("provider", "<name>.secret_key", "<name>.webhook_secret")
// and nothing is written.
func (o *Online) SaveSettings(ctx context.Context, in SettingsInput) (map[string]i18n.Msg, error) {
	problems := map[string]i18n.Msg{}
	if _, ok := o.regs[in.Provider]; !ok && in.Provider != ProviderNone {
		problems["provider"] = i18n.M("pay_settings.provider.error")
	}
	for name, c := range in.Typed {
		reg, ok := o.regs[name]
		if !ok {
			return nil, fmt.Errorf("%w %q", ErrUnknownProvider, name)
		}
		for field, msg := range reg.CheckCredentials(c) {
			problems[name+"."+field] = msg
		}
	}
	if in.Forget[in.Provider] {
		problems["provider"] = i18n.M("pay_settings.forget_active")
	}
	if len(problems) > 0 {
		return problems, nil
	}
	now := db.Millis(o.now())
	err := o.db.InTx(ctx, func(q *db.Queries) error {
		// The trail names what changed; a typed secret's field holds a credential by its name,
		// so activity keeps only that it changed.
		ch := activity.Changes{}
		for _, name := range o.names {
			if in.Forget[name] {
				if err := q.DeleteProviderCredentials(ctx, name); err != nil {
					return err
				}
				ch[name+".credentials"] = [2]any{"stored", nil}
				continue
			}
			typed := in.Typed[name]
			if typed == (Credentials{}) {
				continue
			}
			if typed.SecretKey != "" {
				ch[name+".secret_key"] = [2]any{nil, typed.SecretKey}
			}
			if typed.WebhookSecret != "" {
				ch[name+".webhook_secret"] = [2]any{nil, typed.WebhookSecret}
			}
			if err := o.storeCredentials(ctx, q, name, typed, now); err != nil {
				return err
			}
		}
		if in.Provider != ProviderNone {
			if creds, err := o.credentials(ctx, q, in.Provider); err != nil || creds.SecretKey == "" || creds.WebhookSecret == "" {
				problems["provider"] = i18n.M("pay_settings.provider.needs_keys")
				return errRollback
			}
		}
		old, err := o.ActiveProvider(ctx, q)
		if err != nil {
			return err
		}
		if err := q.SetPaymentProvider(ctx, db.SetPaymentProviderParams{Provider: in.Provider, UpdatedAt: now}); err != nil {
			return err
		}
		if ch.Set("provider", old, in.Provider); len(ch) == 0 {
			return nil
		}
		return activity.Record(ctx, q, o.now(), activity.Entry{Action: "settings.updated", Entity: "settings.payments", Changes: ch})
	})
	if errors.Is(err, errRollback) {
		return problems, nil
	}
	return nil, err
}

// errRollback undoes a transaction whose refusal is reported otherwise.
var errRollback = errors.New("rolled back")

// storeCredentials seals the typed secrets of name over the stored ones.
func (o *Online) storeCredentials(ctx context.Context, q *db.Queries, name string, typed Credentials, now int64) error {
	reg := o.regs[name]
	row, err := q.GetProviderCredentials(ctx, name)
	if err != nil && !db.IsNotFound(err) {
		return err
	}
	if typed.SecretKey != "" {
		if row.SecretKeySealed, err = o.seal.Seal(name+".secret_key", typed.SecretKey); err != nil {
			return err
		}
		row.SecretKeyHint = reg.Hint(typed.SecretKey)
	}
	if typed.WebhookSecret != "" {
		if row.WebhookSecretSealed, err = o.seal.Seal(name+".webhook_secret", typed.WebhookSecret); err != nil {
			return err
		}
		row.WebhookSecretHint = reg.Hint(typed.WebhookSecret)
	}
	return q.UpsertProviderCredentials(ctx, db.UpsertProviderCredentialsParams{
		Provider: name, SecretKeySealed: row.SecretKeySealed, SecretKeyHint: row.SecretKeyHint,
		WebhookSecretSealed: row.WebhookSecretSealed, WebhookSecretHint: row.WebhookSecretHint, UpdatedAt: now,
	})
}

// TestConnection checks provider name's stored credentials with the provider.
func (o *Online) TestConnection(ctx context.Context, name string) (TestResult, error) {
	p, err := o.provider(ctx, o.db.R, name)
	if err != nil {
		return TestResult{}, err
	}
	return p.Test(ctx, o.NotifyURL(name))
}

// lockRequest serialises work on request id's checkout; call the result to unlock.
func (o *Online) lockRequest(id int64) func() {
	m := &o.locks[id%int64(len(o.locks))]
	m.Lock()
	return m.Unlock
}
