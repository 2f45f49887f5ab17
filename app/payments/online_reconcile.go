package payments

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"frontdesk/db"
)

// ReconcileResult counts what a reconciliation found.
type ReconcileResult struct {
	Checked int `json:"checked"` // live checkouts asked about
	Settled int `json:"settled"` // paid, and settled now (their notification never came)
	Expired int `json:"expired"` // lapsed at the provider
	Flagged int `json:"flagged"` // paid but not settled: see the flags
	Errors  int `json:"errors"`  // the provider could not be asked
}

// reconcileBatch bounds one reconciliation; more live checkouts than that wait for the next.
const reconcileBatch = 500

// eventRetention is how long provider notifications are remembered (to recognise retries,
// which providers stop after a few days, and to show the owner what happened).
const eventRetention = 90 * 24 * time.Hour

// Reconcile asks the providers about every live checkout — the ones of pending requests, and
// ones left open by requests that closed meanwhile — and applies the answers as a notification
// would, so a notification that never arrived leaves nothing unpaid. It also closes checkouts
// of closed requests at the provider (SweepStranded) and forgets old notifications.
func (o *Online) Reconcile(ctx context.Context) (ReconcileResult, error) {
	var res ReconcileResult
	if err := o.SweepStranded(ctx); err != nil {
		o.log.WarnContext(ctx, "close checkouts of closed requests", "err", err)
	}
	live, err := o.db.R.LiveOnlineCheckouts(ctx, reconcileBatch)
	if err != nil {
		return res, err
	}
	for _, co := range live {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		res.Checked++
		outcome, err := o.syncCheckout(ctx, co)
		if err != nil {
			res.Errors++
			o.log.WarnContext(ctx, "reconcile checkout", "provider", co.Provider, "checkout", co.ID, "err", err)
			continue
		}
		switch outcome {
		case OutcomeSettled:
			res.Settled++
			o.log.InfoContext(ctx, "reconciliation settled a payment request", "payment_request", co.PaymentRequestID, "checkout", co.ID)
		case OutcomeRequestExpired, OutcomeCheckoutClosed:
			res.Expired++
		case OutcomeFlagged:
			res.Flagged++
		}
	}
	now := o.now()
	note, _ := json.Marshal(res)
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		if _, err := q.PruneOnlinePaymentEvents(ctx, db.Millis(now.Add(-eventRetention))); err != nil {
			return err
		}
		return q.SetReconciled(ctx, db.SetReconciledParams{ReconciledAt: nullInt(db.Millis(now)), ReconcileNote: string(note)})
	})
	return res, err
}

// LastReconcile reads the result of the last reconciliation (zero time: never).
func LastReconcile(s ProviderSettings) (time.Time, ReconcileResult) {
	var res ReconcileResult
	json.Unmarshal([]byte(s.ReconcileNote), &res)
	return s.ReconciledAt, res
}

// SweepStranded closes, at the provider, the checkouts still open for requests that are no
// longer pending (cancelled, expired, paid at the desk), so a customer cannot pay for what is
// gone. A checkout that turns out paid is flagged to the owner; one that never opened is given
// up.
func (o *Online) SweepStranded(ctx context.Context) error {
	rows, err := o.db.R.StrandedOnlineCheckouts(ctx, reconcileBatch)
	if err != nil {
		return err
	}
	var errs []error
	for _, co := range rows {
		if err := o.closeCheckout(ctx, co); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// CloseForExpiry closes request id's open checkout at the provider before the request expires:
// after it the customer can no longer pay, and if they paid first the answer settles the
// request (its bookings are still held). The Expirer calls it for each due request.
func (o *Online) CloseForExpiry(ctx context.Context, id int64) error {
	if err := o.closeCardSetupForExpiry(ctx, id); err != nil {
		return err
	}
	live, err := o.db.R.LiveOnlineCheckout(ctx, id)
	if err != nil || len(live) == 0 || live[0].Status == checkoutProcessing {
		// A payment still settling (a slow method) does not hold the bookings beyond the
		// request's expiry; if it succeeds later, the owner is flagged (docs/payments.md).
		return err
	}
	return o.closeCheckout(ctx, live[0])
}

// Reconciler is the background worker of online payments: it closes checkouts of requests that
// closed (soon after any write, and at least every SweepEvery), and reconciles every Every
// (daily by default, counted from the last reconciliation, so restarts do not skip or repeat
// one).
type Reconciler struct {
	online *Online
	log    *slog.Logger
	wake   chan struct{}
	// Every is the reconciliation interval (default 24 h); SweepEvery bounds the wait between
	// sweeps (default 1 min); SweepGap is the least time between two passes (default 1 s).
	// Every commit wakes the worker, and under load commits come by the thousand a second
	// (webhook deliveries, bookings): without the gap each would run a pass, two reads for
	// nothing. A checkout whose request closed is closed at most SweepGap later.
	Every, SweepEvery, SweepGap time.Duration
	// passed, if set, is told of each pass (tests).
	passed func()
}

// NewReconciler returns the worker of o.
func NewReconciler(o *Online, log *slog.Logger) *Reconciler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Reconciler{online: o, log: log, wake: make(chan struct{}, 1), Every: 24 * time.Hour, SweepEvery: time.Minute, SweepGap: time.Second}
}

// Wake asks for a sweep soon; it never blocks (db.AfterCommit calls it after each write).
func (r *Reconciler) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run sweeps and reconciles until ctx ends. Failures are logged and tried again later: a
// provider that is down must not stop the appliance.
func (r *Reconciler) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		case <-r.wake:
		}
		if r.passed != nil {
			r.passed()
		}
		if err := r.online.SweepStranded(ctx); err != nil && ctx.Err() == nil {
			r.log.WarnContext(ctx, "close checkouts of closed requests", "err", err)
		}
		if r.due(ctx) {
			if res, err := r.online.Reconcile(ctx); err != nil && ctx.Err() == nil {
				r.log.ErrorContext(ctx, "reconcile online payments", "err", err)
			} else if err == nil {
				r.log.InfoContext(ctx, "reconciled online payments", "checked", res.Checked, "settled", res.Settled,
					"expired", res.Expired, "flagged", res.Flagged, "errors", res.Errors)
			}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(r.SweepEvery)
		// Wakes that come meanwhile stay pending and are served once the gap is over.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.SweepGap):
		}
	}
}

// due reports whether a reconciliation is due: Every has passed since the last one, and there is
// a provider to ask (a setting other than none, or checkouts still live from before).
func (r *Reconciler) due(ctx context.Context) bool {
	s, err := r.online.db.R.GetPaymentProviderSettings(ctx)
	if db.IsNotFound(err) {
		return false
	} else if err != nil {
		return false
	}
	if s.ReconciledAt.Valid && r.online.now().Before(db.Time(s.ReconciledAt.Int64).Add(r.Every)) {
		return false
	}
	if s.Provider != ProviderNone {
		return true
	}
	live, err := r.online.db.R.LiveOnlineCheckouts(ctx, 1)
	return err == nil && len(live) > 0
}
