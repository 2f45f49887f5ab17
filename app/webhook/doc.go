// Package webhook is frontdesk's outgoing webhook engine; docs/webhooks.md is the
// receiver's and operator's guide and the contract it keeps.
//
// Where an event goes, file by file:
//
//   - outbox.go: Enqueue, called inside the transaction of every change that emits an event,
//     writes the event (its exact body) and one delivery per matching webhook.
//   - dispatch.go: the Dispatcher, a Run(ctx) worker woken after each commit, built on the
//     durable queue that customer messages share (app/queue: claims with crash-safe leases,
//     first attempts before retries, fair turns under a per-endpoint cap, batched records).
//     claim.go is the deliveries table as the queue claims from it (one target per active
//     webhook), send.go makes one signed POST, record.go writes every attempt and its
//     consequences (retry, success, failure, deactivation).
//   - manage.go, recover.go, health.go, log.go: the Manager, the owner's side — registration,
//     reactivation and replay, secret rotation, resend, recover, test events, the delivery log
//     and each endpoint's health — for the CLI and the admin UI.
//   - prune.go: the Pruner, which deletes the log past its retention.
//
// The pure building blocks underneath: Standard Webhooks signing (sign.go), event types and
// subscription patterns (match.go), the retry schedule (backoff.go), the SSRF-guarded HTTP
// client (ssrf.go). metrics.go supports the dispatcher.
package webhook
