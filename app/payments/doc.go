// Package payments implements docs/payments.md: carts, payment requests and sales. It validates carts and
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
// # Online payments
//
// The owner settles a request at the front desk (Settle: cash, card terminal, bank transfer),
// or the customer pays it by card through a provider (Online, online*.go): a hosted checkout
// per request, the provider's signed notifications applied once however often and in whatever
// order they come, a daily reconciliation (Reconciler) for notifications that never come,
// refunds, and flags for money that could not settle anything. Both paths end in settle, the
// one settlement. A provider is the small Provider interface (provider.go); app/payments/stripe
// is one, and docs/payments.md says what another must do.
package payments
