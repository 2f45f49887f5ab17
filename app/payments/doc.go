// Package payments is SPEC §7: carts, payment requests and sales. It validates carts and
// computes their totals, raises payment requests (reserving the bookings a cart asks for, in the
// request's own transaction), cancels them, expires them when their time is up (Expirer, a
// background worker), and settles them into a sale with its transaction. Every state change
// commits together with the booking changes and webhook events it causes.
//
// # Life of a payment request
//
//	pending ──Cancel / new request / cart update──▶ cancelled
//	pending ──expires_at passes (Expirer)─────────▶ expired    → payment_request.expired
//	pending ──Settle──────────────────────────────▶ paid       → payment_request.paid
//
// Bookings the request reserved (status 2) are released (cancelled, booking.updated) when it is
// cancelled or expires, and confirmed (status 1, booking.updated) with the sale's id when it is
// paid. A pending request whose expires_at has passed is treated as expired by every operation,
// whether or not the worker has reached it yet, so the outcome never depends on its timing.
//
// # Payment-provider adapters
//
// frontdesk collects payments at the front desk: the owner settles a request in the admin UI
// (cash, card terminal, bank transfer). An adapter for an online provider (Stripe, Mercado
// Pago, …) would be a small package beside this one that
//
//   - renders the provider's checkout for a request, given what the checkout page shows
//     (LoadCheckout: the amount, items and expiry, found by the request's uuid);
//   - verifies the provider's notification (its own signature scheme) and then calls
//     Settle(ctx, d, id, MethodOnline, now), which is idempotent in effect: a request that is
//     no longer pending is refused with payment_request_invalid_status and nothing is written
//     twice, so a provider's retried notification is harmless.
//
// Settle is the single hook: it is what the admin UI calls too.
package payments
