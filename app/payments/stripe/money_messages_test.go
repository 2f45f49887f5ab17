package stripe_test

import (
	"context"
	"net/mail"
	"strings"
	"testing"

	"frontdesk/app/messages"
	"frontdesk/app/payments"
	"frontdesk/app/payments/stripe/stripetest"
)

// prepare renders message id as the dispatcher would send it by email now.
func (w *world) prepare(id int64) messages.Prepared {
	w.t.Helper()
	svc := messages.New(w.d, messages.Options{Now: w.clock.Now, Links: links{}})
	tr := messages.Transport{Host: "smtp.example.com", Port: 587, From: mail.Address{Name: "Studio", Address: "studio@example.com"}}
	p, err := svc.Prepare(context.Background(), id, tr, w.clock.Now())
	if err != nil {
		w.t.Fatalf("prepare message %d: %v", id, err)
	}
	return p
}

// messageIDs are the ids of the messages of kind, oldest first.
func (w *world) messageIDs(kind messages.Kind) []int64 {
	w.t.Helper()
	rows, err := w.d.Read.Query(`SELECT id FROM messages WHERE kind = ? ORDER BY id`, string(kind))
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	return ids
}

// A gift card is emailed, once it is paid, to whom the buyer chose — the person it is for, with
// the buyer's name and message, its code and the link to its printable page — in the
// business's language; a card the buyer keeps to give by hand is not emailed.
func TestGiftCardEmailedWhenIssued(t *testing.T) {
	for _, lang := range []string{"en", "es"} {
		t.Run(lang, func(t *testing.T) {
			w := newWorld(t, "CLP")
			w.exec(`UPDATE company SET language = ?`, lang)
			ctx := context.Background()
			card, err := payments.SellGiftCardAtDesk(ctx, w.d, w.clock.Now(), payments.GiftCardInput{
				Amount: "50000", BuyerName: "Pedro Soto", BuyerEmail: "pedro@example.com",
				RecipientName: "Ana Rojas", RecipientEmail: "ana@example.com", Message: "¡Feliz cumpleaños!",
				SendTo: payments.SendToRecipient,
			}, payments.MethodCash)
			if err != nil {
				t.Fatal(err)
			}
			ids := w.messageIDs(messages.GiftCard)
			if len(ids) != 1 {
				t.Fatalf("%d gift card emails, want 1", len(ids))
			}
			p := w.prepare(ids[0])
			if p.Skip != "" {
				t.Fatalf("skipped: %s", p.Skip)
			}
			env := p.Envelope
			body := env.Content.Text
			if env.To.Address != "ana@example.com" || env.To.Name != "Ana Rojas" {
				t.Errorf("to %v, want Ana Rojas <ana@example.com>", env.To)
			}
			for _, want := range []string{payments.FormatGiftCode(card.Code), publicURL + "/gift/" + card.Code, "Pedro Soto", "¡Feliz cumpleaños!", map[string]string{"en": "$50,000", "es": "$50.000"}[lang]} {
				if !strings.Contains(body, want) {
					t.Errorf("body lacks %q:\n%s", want, body)
				}
			}
			greeting := map[string]string{"en": "Hello Ana", "es": "Hola Ana"}[lang]
			if !strings.Contains(body, greeting) || !strings.Contains(env.Content.Subject, "Pedro Soto") {
				t.Errorf("subject %q, body %q: want the %s wording", env.Content.Subject, body, lang)
			}

			if _, err := payments.SellGiftCardAtDesk(ctx, w.d, w.clock.Now(), payments.GiftCardInput{
				Amount: "10000", BuyerName: "Pedro Soto", SendTo: payments.SendToNone,
			}, payments.MethodCash); err != nil {
				t.Fatal(err)
			}
			if got := len(w.messageIDs(messages.GiftCard)); got != 1 {
				t.Errorf("%d gift card emails after a card kept by the buyer, want still 1", got)
			}
		})
	}
}

// Every step of a membership sends the client its message, once, however often and in
// whatever order Stripe reports it: started, renewed (a later period), the renewal's payment
// failed, paused, resumed, cancelled — each naming the plan, with the link to the membership's
// page where the client manages or cancels it.
func TestMembershipMessagesEachStepOnce(t *testing.T) {
	w := newWorld(t, "CLP")
	m, session := w.member(false)
	sub, cus := "sub_msgs", "cus_msgs"
	first := start
	paid1 := stripetest.Event("evt_m1", "invoice.paid", stripetest.Invoice("in_1", sub, cus, m.ID, first, 30000, "clp", true))
	for range 3 {
		w.deliver(paid1, webhookSecret)
	}
	session["status"], session["payment_status"], session["subscription"], session["customer"] = "complete", "paid", sub, cus
	w.mustDeliver(stripetest.Event("evt_m_started", "checkout.session.completed", session), payments.OutcomeDuplicate)
	second := first.AddDate(0, 1, 0)
	paid2 := stripetest.Event("evt_m2", "invoice.paid", stripetest.Invoice("in_2", sub, cus, m.ID, second, 30000, "clp", true))
	for range 3 {
		w.deliver(paid2, webhookSecret)
	}
	third := second.AddDate(0, 1, 0)
	failed3 := stripetest.Event("evt_m3_failed", "invoice.payment_failed", stripetest.Invoice("in_3", sub, cus, m.ID, third, 30000, "clp", false))
	for range 3 {
		w.deliver(failed3, webhookSecret)
	}
	// The client fixes their card: the third month is paid (its renewal message; no separate
	// "resumed").
	w.mustDeliver(stripetest.Event("evt_m3_paid", "invoice.paid", stripetest.Invoice("in_3", sub, cus, m.ID, third, 30000, "clp", true)), payments.OutcomeMembershipRenewed)
	ctx := context.Background()
	if err := w.online.ChangeMembership(ctx, m.ID, payments.ActPause); err != nil {
		t.Fatal(err)
	}
	if err := w.online.ChangeMembership(ctx, m.ID, payments.ActResume); err != nil {
		t.Fatal(err)
	}
	deleted := stripetest.Event("evt_m_deleted", "customer.subscription.deleted", stripetest.Subscription(sub, cus, m.ID, "canceled", false))
	w.mustDeliver(deleted, payments.OutcomeMembershipCancelled)
	w.mustDeliver(deleted, payments.OutcomeDuplicate)

	for kind, want := range map[messages.Kind]int{
		messages.MembershipStarted: 1, messages.MembershipRenewed: 2, messages.MembershipFailed: 1,
		messages.MembershipPaused: 1, messages.MembershipResumed: 1, messages.MembershipCancelled: 1,
	} {
		ids := w.messageIDs(kind)
		if len(ids) != want {
			t.Errorf("%d %s messages, want %d", len(ids), kind, want)
			continue
		}
		p := w.prepare(ids[0])
		env := p.Envelope
		if p.Skip != "" || env.To.Address != "maria@example.com" || !strings.Contains(env.Content.Subject, "Monthly cuts") {
			t.Errorf("%s: skip %q, to %v, subject %q", kind, p.Skip, env.To, env.Content.Subject)
		}
		if kind != messages.MembershipCancelled && !strings.Contains(env.Content.Text, publicURL+"/membership/"+m.UUID) {
			t.Errorf("%s: body lacks the membership's link:\n%s", kind, env.Content.Text)
		}
	}
}

// A card bought on the booking site is emailed when Stripe reports it paid — once, though the
// report comes three times — and not before.
func TestGiftCardBoughtOnlineEmailedOnce(t *testing.T) {
	w := newWorld(t, "CLP")
	w.exec(`UPDATE gift_card_settings SET sell_online = 1`)
	sale, err := payments.SellGiftCard(context.Background(), w.d, w.clock.Now(), payments.GiftCardInput{
		Amount: "25000", BuyerName: "Pedro Soto", BuyerEmail: "pedro@example.com", SendTo: payments.SendToBuyer,
	}, payments.GiftSourceSite, publicURL)
	if err != nil {
		t.Fatal(err)
	}
	_, session := w.checkout(sale.Request)
	if got := len(w.messageIDs(messages.GiftCard)); got != 0 {
		t.Fatalf("%d gift card emails before payment, want 0", got)
	}
	event := stripetest.Event("evt_gift_paid", "checkout.session.completed", paid(session))
	for range 3 {
		w.deliver(event, webhookSecret)
	}
	w.mustDeliver(stripetest.Event("evt_gift_paid_again", "checkout.session.completed", paid(session)), payments.OutcomeDuplicate)
	ids := w.messageIDs(messages.GiftCard)
	if len(ids) != 1 {
		t.Fatalf("%d gift card emails, want 1", len(ids))
	}
	if p := w.prepare(ids[0]); p.Envelope.To.Address != "pedro@example.com" || !strings.Contains(p.Envelope.Content.Text, publicURL+"/gift/"+sale.Card.Code) {
		t.Errorf("to %v:\n%s", p.Envelope.To, p.Envelope.Content.Text)
	}
}
