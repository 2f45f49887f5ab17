package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/fail"
	"frontdesk/app/messages"
	"frontdesk/app/money"
	"frontdesk/app/resource"
	"frontdesk/db"
)

// Memberships (docs/payments.md "Memberships"): a monthly plan a client subscribes to through
// the payment provider (a SubscriptionProvider: Stripe Checkout in subscription mode). Every
// paid period credits the plan's sessions to the client's pack ledger (client_packs, one pack
// per service of the plan), expiring at the period's end or never (the plan's rollover); a
// failed renewal pauses the membership and credits nothing; the owner pauses, resumes or
// cancels from the admin, the client from the provider's own page (PortalURL).
//
// Every report is applied inside HandleEvent's transaction, with the event's id recorded, and
// a period is credited once: membership_periods is unique by membership and period start, and a
// pack names the period that credited it (a unique index) — so a renewal delivered three times,
// or before the checkout's own report, credits its sessions exactly once.

// Membership statuses, mirrored by the CHECK on memberships.status.
const (
	MembershipPending   = "pending"
	MembershipActive    = "active"
	MembershipPaused    = "paused"
	MembershipCancelled = "cancelled"
)

// Who paused a membership (memberships.paused_by).
const (
	PausedByOwner         = "owner"
	PausedByClient        = "client"
	PausedByPaymentFailed = "payment_failed"
)

// Outcomes of subscription reports (online_payment_events.outcome).
const (
	OutcomeMembershipStarted   = "membership_started"
	OutcomeMembershipRenewed   = "membership_renewed"
	OutcomeMembershipPaused    = "membership_paused"
	OutcomeMembershipResumed   = "membership_resumed"
	OutcomeMembershipCancelled = "membership_cancelled"
)

// Lookups that find nothing.
var (
	ErrPlanNotFound       = &fail.Error{Code: fail.CodeNotFound, Reason: "membership_plan", Message: "membership plan not found"}
	ErrMembershipNotFound = &fail.Error{Code: fail.CodeNotFound, Reason: "membership", Message: "membership not found"}
	// ErrNoSubscriptions: the payment provider in use cannot sell subscriptions.
	ErrNoSubscriptions = &fail.Error{Code: fail.CodeConflict, Reason: "subscriptions_unavailable", Message: "the payment provider does not sell subscriptions"}
)

// PlanInput is a membership plan as the owner's form sends it.
type PlanInput struct {
	Name            string
	Price           string // per month, decimal
	DiscountPercent int64  // 0–100, on the member's purchases
	Rollover        bool
	Active          bool
	Sessions        map[int64]int64 // service id → sessions per period
	// DiscountServices are the services DiscountPercent applies to.
	DiscountServices []int64
}

func (in *PlanInput) check(ctx context.Context, q *db.Queries) (int64, error) {
	in.Name = strings.TrimSpace(in.Name)
	price, err := money.Parse(strings.TrimSpace(in.Price))
	switch {
	case in.Name == "" || utf8.RuneCountInString(in.Name) > 200:
		return 0, invalid("name", "is required (at most 200 characters)")
	case err != nil || price <= 0:
		return 0, invalid("price", "must be an amount above zero")
	case in.DiscountPercent < 0 || in.DiscountPercent > 100:
		return 0, invalid("discount_percent", "must be between 0 and 100")
	}
	for id, n := range in.Sessions {
		if n < 0 || n > 1000 {
			return 0, invalid("sessions", "must be between 0 and 1000")
		}
		if n == 0 {
			delete(in.Sessions, id)
			continue
		}
		if _, err := q.ScheduleService(ctx, id); db.IsNotFound(err) {
			return 0, invalid("sessions", "service %d does not exist", id)
		} else if err != nil {
			return 0, err
		}
	}
	for _, id := range in.DiscountServices {
		if _, err := q.ScheduleService(ctx, id); db.IsNotFound(err) {
			return 0, invalid("discount_services", "service %d does not exist", id)
		} else if err != nil {
			return 0, err
		}
	}
	if in.DiscountPercent > 0 && len(in.DiscountServices) == 0 {
		return 0, invalid("discount_services", "a discount applies to at least one service")
	}
	if len(in.Sessions) == 0 && in.DiscountPercent == 0 {
		return 0, invalid("sessions", "a plan includes sessions, a discount, or both")
	}
	return int64(price), nil
}

// SavePlan creates (id 0) or changes membership plan id, on the activity trail. A change applies
// from the next period: what was credited stays.
func SavePlan(ctx context.Context, d *db.DB, now time.Time, id int64, in PlanInput) (db.MembershipPlan, error) {
	var out db.MembershipPlan
	err := d.InTx(ctx, func(q *db.Queries) error {
		price, err := in.check(ctx, q)
		if err != nil {
			return err
		}
		ms := db.Millis(now)
		action := "membership_plan.updated"
		if id == 0 {
			out, err = q.InsertMembershipPlan(ctx, db.InsertMembershipPlanParams{Name: in.Name, PriceCents: price,
				DiscountBp: in.DiscountPercent * 100, Rollover: in.Rollover, CreatedAt: ms, UpdatedAt: ms})
			if err != nil {
				return err
			}
			id, action = out.ID, "membership_plan.created"
		} else {
			if _, err := q.GetMembershipPlan(ctx, id); db.IsNotFound(err) {
				return ErrPlanNotFound
			} else if err != nil {
				return err
			}
			if err := q.UpdateMembershipPlan(ctx, db.UpdateMembershipPlanParams{Name: in.Name, PriceCents: price,
				DiscountBp: in.DiscountPercent * 100, Rollover: in.Rollover, Active: in.Active, UpdatedAt: ms, ID: id}); err != nil {
				return err
			}
			if err := q.DeleteMembershipPlanServices(ctx, id); err != nil {
				return err
			}
			if err := q.DeleteMembershipPlanDiscounts(ctx, id); err != nil {
				return err
			}
		}
		for _, svc := range slices.Compact(slices.Sorted(slices.Values(in.DiscountServices))) {
			if err := q.InsertMembershipPlanDiscount(ctx, db.InsertMembershipPlanDiscountParams{PlanID: id, ServiceID: svc}); err != nil {
				return err
			}
		}
		for svc, n := range in.Sessions {
			if err := q.InsertMembershipPlanService(ctx, db.InsertMembershipPlanServiceParams{PlanID: id, ServiceID: svc, Sessions: n}); err != nil {
				return err
			}
		}
		if out, err = q.GetMembershipPlan(ctx, id); err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: action, Entity: "membership_plan", EntityID: id,
			Changes: activity.Changes{}.Set("name", nil, out.Name).Set("price_cents", nil, out.PriceCents).
				Set("discount_bp", nil, out.DiscountBp).Set("rollover", nil, out.Rollover).Set("active", nil, out.Active)})
	})
	return out, err
}

// subscriptions is the provider in use, as a SubscriptionProvider.
func (o *Online) subscriptions(ctx context.Context) (string, SubscriptionProvider, error) {
	name, err := o.ActiveProvider(ctx, o.db.R)
	if err != nil {
		return "", nil, err
	}
	if name == ProviderNone {
		return "", nil, ErrOnlineOff
	}
	prov, err := o.provider(ctx, o.db.R, name)
	if err != nil {
		return "", nil, err
	}
	sp, ok := prov.(SubscriptionProvider)
	if !ok {
		return "", nil, ErrNoSubscriptions
	}
	return name, sp, nil
}

// StartMembership signs client clientID up for plan planID: a pending membership, and the
// provider's hosted checkout in subscription mode where the client pays the first month. It
// returns the membership and the checkout's URL. The membership becomes active when the
// provider reports the checkout completed or the first invoice paid.
//
// Errors: ErrPlanNotFound (or an inactive plan), ErrOnlineOff, ErrNotConfigured,
// ErrNoSubscriptions, *ProviderError, not_found for the client.
func (o *Online) StartMembership(ctx context.Context, planID, clientID int64, lang string) (db.Membership, string, error) {
	name, prov, err := o.subscriptions(ctx)
	if err != nil {
		return db.Membership{}, "", err
	}
	plan, err := o.db.R.GetMembershipPlan(ctx, planID)
	if db.IsNotFound(err) || err == nil && !plan.Active {
		return db.Membership{}, "", ErrPlanNotFound
	} else if err != nil {
		return db.Membership{}, "", err
	}
	client, err := o.db.R.MembershipClient(ctx, clientID)
	if db.IsNotFound(err) {
		return db.Membership{}, "", &fail.Error{Code: fail.CodeNotFound, Reason: "client", Message: "client not found"}
	} else if err != nil {
		return db.Membership{}, "", err
	}
	currency, err := o.db.R.MembershipCurrency(ctx)
	if err != nil {
		return db.Membership{}, "", err
	}
	now := o.now()
	var m db.Membership
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		ms := db.Millis(now)
		m, err = q.InsertMembership(ctx, db.InsertMembershipParams{UUID: newUUID(), PlanID: plan.ID, ClientID: clientID,
			Provider: name, CreatedAt: ms, UpdatedAt: ms})
		if err != nil {
			return err
		}
		return activity.Record(ctx, q, now, activity.Entry{Action: "membership.created", Entity: "client", EntityID: clientID,
			Changes: activity.Changes{}.Set("membership_id", nil, m.ID).Set("plan", nil, plan.Name)})
	})
	if err != nil {
		return db.Membership{}, "", err
	}
	st, err := prov.CreateSubscriptionCheckout(ctx, SubscriptionParams{
		MembershipID: m.ID, MembershipUUID: m.UUID, PlanName: plan.Name, AmountCents: plan.PriceCents,
		Currency: strings.ToUpper(currency), Email: client.Email.String,
		SuccessURL:     o.links.URL("/membership/"+m.UUID, url.Values{"checkout": {"done"}}),
		CancelURL:      o.links.URL("/membership/"+m.UUID, url.Values{"checkout": {"cancelled"}}),
		IdempotencyKey: "frontdesk-membership-" + m.UUID, Language: lang,
	})
	if err != nil {
		return m, "", err
	}
	err = o.db.InTx(ctx, func(q *db.Queries) error {
		return q.SetMembershipCheckout(ctx, db.SetMembershipCheckoutParams{CheckoutSessionID: nullString(st.ID), UpdatedAt: db.Millis(o.now()), ID: m.ID})
	})
	return m, st.URL, err
}

// applySubscription applies a provider's report about a membership's subscription inside
// HandleEvent's transaction q.
func (o *Online) applySubscription(ctx context.Context, q *db.Queries, now time.Time, name string, ev SubscriptionEvent) (string, error) {
	m, err := findMembership(ctx, q, ev)
	if errors.Is(err, ErrMembershipNotFound) {
		return OutcomeIgnored, nil // another integration's subscription on the same account
	} else if err != nil {
		return "", err
	}
	if m.Provider != name {
		return OutcomeIgnored, nil
	}
	ms := db.Millis(now)
	if ev.SubscriptionRef != "" || ev.CustomerRef != "" {
		if err := q.LinkMembershipSubscription(ctx, db.LinkMembershipSubscriptionParams{
			SubscriptionRef: nullString(ev.SubscriptionRef), CustomerRef: nullString(ev.CustomerRef), UpdatedAt: ms, ID: m.ID,
		}); err != nil {
			return "", err
		}
	}
	if m.Status == MembershipCancelled {
		return OutcomeDuplicate, nil // final: a late report changes nothing
	}
	switch ev.Kind {
	case SubscriptionStarted:
		if m.Status != MembershipPending {
			return OutcomeDuplicate, nil
		}
		return OutcomeMembershipStarted, setMembership(ctx, q, now, m, MembershipActive, "", "membership.started")
	case SubscriptionPaid:
		return o.creditPeriod(ctx, q, now, m, ev)
	case SubscriptionFailed:
		// A failure of a period older than one already paid is stale (reordered delivery).
		if m.CurrentPeriodEnd.Valid && !ev.PeriodEnd.IsZero() && db.Millis(ev.PeriodEnd) <= m.CurrentPeriodEnd.Int64 {
			return OutcomeDuplicate, nil
		}
		if m.Status == MembershipPaused && m.PausedBy.String == PausedByPaymentFailed {
			return OutcomeDuplicate, nil
		}
		return OutcomeMembershipPaused, setMembership(ctx, q, now, m, MembershipPaused, PausedByPaymentFailed, "membership.payment_failed")
	case SubscriptionCancelled:
		return OutcomeMembershipCancelled, setMembership(ctx, q, now, m, MembershipCancelled, "", "membership.cancelled")
	case SubscriptionUpdated:
		switch {
		case ev.Ended:
			return OutcomeMembershipCancelled, setMembership(ctx, q, now, m, MembershipCancelled, "", "membership.cancelled")
		case ev.Paused && m.Status == MembershipActive:
			return OutcomeMembershipPaused, setMembership(ctx, q, now, m, MembershipPaused, PausedByClient, "membership.paused")
		case !ev.Paused && m.Status == MembershipPaused && m.PausedBy.String != PausedByPaymentFailed:
			return OutcomeMembershipResumed, setMembership(ctx, q, now, m, MembershipActive, "", "membership.resumed")
		}
		return OutcomeDuplicate, nil
	}
	return OutcomeIgnored, nil
}

// findMembership is the membership a report is about: by the metadata frontdesk set, else by
// the subscription.
func findMembership(ctx context.Context, q *db.Queries, ev SubscriptionEvent) (db.Membership, error) {
	var m db.Membership
	var err error
	switch {
	case ev.MembershipID != 0:
		m, err = q.GetMembership(ctx, ev.MembershipID)
		if err == nil && m.SubscriptionRef.Valid && ev.SubscriptionRef != "" && m.SubscriptionRef.String != ev.SubscriptionRef {
			return m, ErrMembershipNotFound // metadata copied onto someone else's subscription
		}
	case ev.SubscriptionRef != "":
		m, err = q.MembershipBySubscription(ctx, nullString(ev.SubscriptionRef))
	default:
		return m, ErrMembershipNotFound
	}
	if db.IsNotFound(err) {
		return m, ErrMembershipNotFound
	}
	return m, err
}

// creditPeriod records the paid period of report ev and credits the plan's sessions for it —
// once: a period already recorded is a duplicate.
func (o *Online) creditPeriod(ctx context.Context, q *db.Queries, now time.Time, m db.Membership, ev SubscriptionEvent) (string, error) {
	if ev.PeriodStart.IsZero() || !ev.PeriodEnd.After(ev.PeriodStart) {
		return OutcomeIgnored, nil
	}
	ms := db.Millis(now)
	periodID, err := q.InsertMembershipPeriod(ctx, db.InsertMembershipPeriodParams{
		MembershipID: m.ID, PeriodStart: db.Millis(ev.PeriodStart), PeriodEnd: db.Millis(ev.PeriodEnd),
		InvoiceRef: ev.InvoiceRef, AmountCents: ev.AmountCents, Currency: ev.Currency, CreatedAt: ms,
	})
	if db.IsNotFound(err) {
		return OutcomeDuplicate, nil // ON CONFLICT DO NOTHING: the period is credited already
	} else if err != nil {
		return "", err
	}
	plan, err := q.GetMembershipPlan(ctx, m.PlanID)
	if err != nil {
		return "", err
	}
	services, err := q.MembershipPlanServices(ctx, m.PlanID)
	if err != nil {
		return "", err
	}
	var expires sql.NullInt64
	if !plan.Rollover {
		expires = nullInt(db.Millis(ev.PeriodEnd))
	}
	for _, s := range services {
		packID, err := q.InsertMembershipPack(ctx, db.InsertMembershipPackParams{
			ClientID: m.ClientID, ServiceID: s.ServiceID, SessionsTotal: s.Sessions, ExpiresAt: expires,
			MembershipPeriodID: nullInt(periodID), CreatedAt: ms, UpdatedAt: ms,
		})
		if err != nil {
			return "", fmt.Errorf("credit membership %d period %d: %w", m.ID, periodID, err)
		}
		if err := activity.Record(ctx, q, now, activity.Entry{Action: "client.pack_credited", Entity: "client", EntityID: m.ClientID,
			Changes: activity.Changes{}.Set("pack_id", nil, packID).Set("service", nil, s.ServiceName).Set("sessions_total", nil, s.Sessions).
				Set("membership_id", nil, m.ID).Set("expires_at", nil, stampOrNil(expires))}); err != nil {
			return "", err
		}
	}
	if err := q.SetMembershipPeriodEnd(ctx, db.SetMembershipPeriodEndParams{PeriodEnd: nullInt(db.Millis(ev.PeriodEnd)), UpdatedAt: ms, ID: m.ID}); err != nil {
		return "", err
	}
	if err := o.periodSale(ctx, q, now, m, plan, periodID, ev); err != nil {
		return "", fmt.Errorf("sale of membership %d period %d: %w", m.ID, periodID, err)
	}
	// A period besides the membership's first is the client's renewal message (the first one
	// is told by the membership's start).
	if others, err := q.MembershipOtherPeriods(ctx, db.MembershipOtherPeriodsParams{MembershipID: m.ID, PeriodStart: db.Millis(ev.PeriodStart)}); err != nil {
		return "", err
	} else if others > 0 {
		if err := messages.MembershipChanged(ctx, q, now, m.ID, messages.MembershipRenewed, ev.PeriodEnd); err != nil {
			return "", err
		}
	}
	// A paid period ends a pause for a failed payment (the client fixed their card) and starts
	// a pending membership; a pause the owner or the client chose stays.
	if m.Status == MembershipPending || m.Status == MembershipPaused && m.PausedBy.String == PausedByPaymentFailed {
		if err := setMembership(ctx, q, now, m, MembershipActive, "", "membership.renewed"); err != nil {
			return "", err
		}
		return OutcomeMembershipRenewed, nil
	}
	return OutcomeMembershipRenewed, activity.Record(ctx, q, now, activity.Entry{Action: "membership.renewed", Entity: "client", EntityID: m.ClientID,
		Changes: activity.Changes{}.Set("membership_id", nil, m.ID).Set("period_end", nil, ev.PeriodEnd.UTC().Format(time.RFC3339))})
}

// memberDiscount gives row, a line of a cart of client clientID, the discount of the client's
// active membership whose plan discounts the line's service — exactly once: only a service line
// without a discount of its own gets it (discounts never stack), as the line's one unit
// discount, naming the plan (member_plan_id) so pages show it as its own line.
func memberDiscount(ctx context.Context, q *db.Queries, clientID sql.NullInt64, row *db.InsertCartItemParams) error {
	if !clientID.Valid || row.ItemType != itemService || row.UnitDiscountCents.Valid {
		return nil
	}
	d, err := q.MemberDiscount(ctx, db.MemberDiscountParams{ServiceID: row.ItemID, ClientID: clientID.Int64})
	if db.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	row.UnitDiscountCents = sql.NullInt64{Int64: d.DiscountBp, Valid: true}
	row.UnitDiscountType = sql.NullString{String: DiscountPercentage, Valid: true}
	row.MemberPlanID = nullInt(d.PlanID)
	return nil
}

// deskMemberDiscount gives the lines of pending request pr's cart, settled at the desk inside
// transaction q, the member's discount a cart gets when it is made (deskDiscounts) — the client
// may have become a member after the cart was made, or the booking came through a way that
// does not price it. The request's amount loses what the lines lost; pr is returned as it now
// is.
func deskMemberDiscount(ctx context.Context, q *db.Queries, now time.Time, pr db.PaymentRequest) (db.PaymentRequest, error) {
	c, err := q.GetCart(ctx, pr.CartID)
	if err != nil {
		return pr, err
	}
	items, err := q.CartItems(ctx, c.ID)
	if err != nil {
		return pr, err
	}
	gained, err := deskDiscounts(ctx, q, c.ClientID, items)
	if err != nil {
		return pr, err
	}
	var less int64
	for _, it := range gained {
		n, err := q.SetCartItemMemberDiscount(ctx, db.SetCartItemMemberDiscountParams{
			UnitDiscountCents: it.UnitDiscountCents, UnitDiscountType: it.UnitDiscountType, MemberPlanID: it.MemberPlanID, ID: it.ID,
		})
		if err != nil {
			return pr, fmt.Errorf("member discount of cart item %d: %w", it.ID, err)
		}
		if n == 1 {
			less += amounts(it.UnitPriceCents, it.Quantity, it.UnitDiscountCents, it.UnitDiscountType).DiscountCents
		}
	}
	if less == 0 {
		return pr, nil
	}
	amount := max(pr.AmountCents-less, 0)
	if _, err := q.SetPaymentRequestAmount(ctx, db.SetPaymentRequestAmountParams{AmountCents: amount, UpdatedAt: db.Millis(now), ID: pr.ID}); err != nil {
		return pr, fmt.Errorf("amount of payment request %d: %w", pr.ID, err)
	}
	return q.GetPaymentRequest(ctx, pr.ID)
}

// deskDiscounts are the lines of items, a cart of client clientID, that gain the member's
// discount at the desk, with it: each line memberDiscount gives one (so exactly as carts do —
// once, never on a line with a discount of its own).
func deskDiscounts(ctx context.Context, q *db.Queries, clientID sql.NullInt64, items []db.CartItem) ([]db.CartItem, error) {
	var gained []db.CartItem
	for _, it := range items {
		row := db.InsertCartItemParams{ItemID: it.ItemID, ItemType: it.ItemType, UnitDiscountCents: it.UnitDiscountCents}
		if err := memberDiscount(ctx, q, clientID, &row); err != nil {
			return nil, err
		}
		if row.MemberPlanID.Valid {
			it.UnitDiscountCents, it.UnitDiscountType, it.MemberPlanID = row.UnitDiscountCents, row.UnitDiscountType, row.MemberPlanID
			gained = append(gained, it)
		}
	}
	return gained, nil
}

// itemMembership is the cart item type of a membership's paid period.
const itemMembership = "membership"

// periodSale records the money of a paid period as a sale, inside the transaction that
// recorded the period (so once per period): a cart with one line, the plan for what the
// provider charged, and a payment request for it settled as every payment is — a sale paid
// online (method 4), payment_request.paid, and the client's receipt. A period charged nothing
// (a free trial, a full discount at the provider) has no sale.
func (o *Online) periodSale(ctx context.Context, q *db.Queries, now time.Time, m db.Membership, plan db.MembershipPlan, periodID int64, ev SubscriptionEvent) error {
	if ev.AmountCents <= 0 {
		return nil
	}
	ms := db.Millis(now)
	cartID, err := q.InsertCart(ctx, db.InsertCartParams{
		UUID: newUUID(), ClientID: nullInt(m.ClientID), CreatedAt: ms, UpdatedAt: ms, ExpiresAt: db.Millis(now.Add(CartTTL)),
	})
	if err != nil {
		return err
	}
	if err := q.InsertCartItem(ctx, db.InsertCartItemParams{
		CartID: cartID, ItemID: plan.ID, ItemType: itemMembership,
		ItemName: sql.NullString{String: plan.Name, Valid: true}, ItemUUID: sql.NullString{String: m.UUID, Valid: true},
		Quantity: 1, UnitPriceCents: ev.AmountCents, InstancesJSON: "[]",
	}); err != nil {
		return err
	}
	uuid := newUUID()
	prID, err := q.InsertPaymentRequest(ctx, db.InsertPaymentRequestParams{
		UUID: uuid, CartID: cartID, AmountCents: ev.AmountCents, CheckoutURL: o.links.URL("/pay/"+uuid, nil),
		CreatedAt: ms, UpdatedAt: ms,
	})
	if err != nil {
		return err
	}
	pr, err := q.GetPaymentRequest(ctx, prID)
	if err != nil {
		return err
	}
	saleID, err := settle(ctx, q, now, pr, Payment{Method: MethodOnline, AmountCents: ev.AmountCents})
	if err != nil {
		return err
	}
	return q.SetMembershipPeriodSale(ctx, db.SetMembershipPeriodSaleParams{SaleID: nullInt(saleID), ID: periodID})
}

func stampOrNil(v sql.NullInt64) any {
	if !v.Valid {
		return nil
	}
	return db.Time(v.Int64).UTC().Format(time.RFC3339)
}

// setMembership writes membership m's status, on the client's activity trail as action.
func setMembership(ctx context.Context, q *db.Queries, now time.Time, m db.Membership, status, pausedBy, action string) error {
	err := q.SetMembershipStatus(ctx, db.SetMembershipStatusParams{Status: status,
		PausedBy: sql.NullString{String: pausedBy, Valid: pausedBy != ""}, UpdatedAt: db.Millis(now), ID: m.ID})
	if db.IsConstraint(err, "membership_cancelled") {
		return refused(CodeInvalidStatus, "", "the membership is cancelled")
	} else if err != nil {
		return err
	}
	if err := activity.Record(ctx, q, now, activity.Entry{Action: action, Entity: "client", EntityID: m.ClientID,
		Changes: activity.Changes{}.Set("membership_id", nil, m.ID).Set("status", m.Status, status)}); err != nil {
		return err
	}
	if kind := stepMessage(m.Status, status, pausedBy, action); kind != "" {
		return messages.MembershipChanged(ctx, q, now, m.ID, kind, time.Time{})
	}
	return nil
}

// stepMessage is the client's message for a membership going from status from to status to
// (paused by pausedBy) through action, or "" for none: a paid period that ends a pause for a
// failed payment is told by its renewal message (creditPeriod).
func stepMessage(from, to, pausedBy, action string) messages.Kind {
	switch {
	case from == to:
		return ""
	case to == MembershipActive && from == MembershipPending:
		return messages.MembershipStarted
	case to == MembershipActive && action == "membership.renewed":
		return ""
	case to == MembershipActive:
		return messages.MembershipResumed
	case to == MembershipPaused && pausedBy == PausedByPaymentFailed:
		return messages.MembershipFailed
	case to == MembershipPaused:
		return messages.MembershipPaused
	case to == MembershipCancelled:
		return messages.MembershipCancelled
	}
	return ""
}

// Membership actions the owner takes.
const (
	ActPause  = "pause"
	ActResume = "resume"
	ActCancel = "cancel"
)

// ChangeMembership pauses, resumes or cancels membership id at the provider first, then here.
// Errors: ErrMembershipNotFound, *RefusedError (payment_request_invalid_status for a change
// its status does not allow), *ProviderError.
func (o *Online) ChangeMembership(ctx context.Context, id int64, act string) error {
	m, err := o.db.R.GetMembership(ctx, id)
	if db.IsNotFound(err) {
		return ErrMembershipNotFound
	} else if err != nil {
		return err
	}
	var status, pausedBy, action string
	switch {
	case act == ActPause && m.Status == MembershipActive:
		status, pausedBy, action = MembershipPaused, PausedByOwner, "membership.paused"
	case act == ActResume && m.Status == MembershipPaused:
		status, action = MembershipActive, "membership.resumed"
	case act == ActCancel && m.Status != MembershipCancelled:
		status, action = MembershipCancelled, "membership.cancelled"
	default:
		return refused(CodeInvalidStatus, "", "a %s membership cannot be %sd", m.Status, strings.TrimSuffix(act, "e"))
	}
	if m.SubscriptionRef.Valid {
		_, prov, err := o.subscriptions(ctx)
		if err != nil {
			return err
		}
		if act == ActCancel {
			err = prov.CancelSubscription(ctx, m.SubscriptionRef.String)
		} else {
			err = prov.PauseSubscription(ctx, m.SubscriptionRef.String, act == ActPause)
		}
		if err != nil {
			return err
		}
	}
	return o.db.InTx(ctx, func(q *db.Queries) error {
		cur, err := q.GetMembership(ctx, id)
		if err != nil {
			return err
		}
		if cur.Status == MembershipCancelled {
			return nil // the provider's report came first
		}
		return setMembership(ctx, q, o.now(), cur, status, pausedBy, action)
	})
}

// MembershipPortal is a link to the provider's page where membership uuid's client pauses,
// cancels or changes their card, returning to the membership's page.
// Errors: ErrMembershipNotFound (also before the first payment: no customer yet),
// *ProviderError.
func (o *Online) MembershipPortal(ctx context.Context, uuid string) (string, error) {
	m, err := o.db.R.MembershipByUUID(ctx, uuid)
	if db.IsNotFound(err) || err == nil && !m.CustomerRef.Valid {
		return "", ErrMembershipNotFound
	} else if err != nil {
		return "", err
	}
	_, prov, err := o.subscriptions(ctx)
	if err != nil {
		return "", err
	}
	return prov.PortalURL(ctx, m.CustomerRef.String, o.links.URL("/membership/"+m.UUID, nil))
}

// MembershipView is a membership with its plan and the plan's sessions.
type MembershipView struct {
	Membership db.Membership
	Plan       db.MembershipPlan
	Services   []db.MembershipPlanServicesRow
}

// LoadMembership reads membership uuid for its page. Errors: ErrMembershipNotFound.
func LoadMembership(ctx context.Context, q *db.Queries, uuid string) (MembershipView, error) {
	m, err := q.MembershipByUUID(ctx, strings.ToLower(uuid))
	if db.IsNotFound(err) {
		return MembershipView{}, ErrMembershipNotFound
	} else if err != nil {
		return MembershipView{}, err
	}
	plan, err := q.GetMembershipPlan(ctx, m.PlanID)
	if err != nil {
		return MembershipView{}, err
	}
	svcs, err := q.MembershipPlanServices(ctx, m.PlanID)
	return MembershipView{Membership: m, Plan: plan, Services: svcs}, err
}

// ListMemberships reads one page of memberships, newest first — all, or client clientID's
// (0: all) — and how many there are in all. A client that does not exist is not_found.
func ListMemberships(ctx context.Context, q *db.Queries, clientID, limit, offset int64) ([]resource.Membership, int64, error) {
	if clientID != 0 {
		if _, err := q.MembershipClient(ctx, clientID); db.IsNotFound(err) {
			return nil, 0, &fail.Error{Code: fail.CodeNotFound, Reason: "client", Message: "client not found"}
		} else if err != nil {
			return nil, 0, err
		}
	}
	total, err := q.CountAPIMemberships(ctx, clientID)
	if err != nil {
		return nil, 0, err
	}
	rows, err := q.APIMemberships(ctx, db.APIMembershipsParams{ClientID: clientID, Limit: limit, Offset: offset})
	if err != nil {
		return nil, 0, err
	}
	out := make([]resource.Membership, 0, len(rows))
	for _, r := range rows {
		out = append(out, resource.NewMembership(r))
	}
	return out, total, nil
}
