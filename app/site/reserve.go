package site

import (
	"context"
	"strings"
	"time"

	"frontdesk/app/clients"
	"frontdesk/app/reserve"
)

// reservation is a checked booking form.
type reservation struct {
	loc      *location
	svc      service
	provider int64 // 0: anyone available
	start    time.Time
	client   clients.Input
	nonce    string
	channel  string // how the visitor wants to hear about it (messages.ChannelEmail, ChannelSMS)
}

// reserve makes the booking a checked form asks for: the customer booking (app/reserve) — the
// client matched or created, the booking or, for a service paid online, its payment request, the
// form's nonce and a manage link, in one transaction.
func (s *Site) reserve(ctx context.Context, res reservation, now time.Time) (reserve.Result, error) {
	return reserve.Book(ctx, s.db, now, reserve.Request{
		LocationID: res.loc.id, ServiceID: res.svc.id, ProviderID: res.provider, Start: res.start,
		Client: res.client, Channel: res.channel, Nonce: res.nonce, PaymentMode: res.svc.mode, CheckoutBase: s.checkoutBase(),
	})
}

// checkoutBase is the public URL checkout links start with.
func (s *Site) checkoutBase() string {
	return strings.TrimSuffix(s.links.URL("/", nil), "/")
}
