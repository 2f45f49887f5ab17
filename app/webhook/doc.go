// Package webhook is the webhook outbox and the owner's side of it; docs/webhooks.md is the
// receiver's and operator's guide and the contract it keeps. It writes rows and reads them, and
// never sends anything: the dispatcher that does is app/webhook/dispatch, which imports this
// package, never the other way round, so the packages that emit events (booking, clients,
// catalog, payments) need nothing of HTTP delivery (docs/ARCHITECTURE.md, "Layers").
//
// What is here, file by file:
//
//   - outbox.go: Enqueue, called inside the transaction of every change that emits an event,
//     writes the event (its exact body) and one delivery per matching webhook; the Handoff
//     through which a new delivery reaches the dispatcher running in this process in memory.
//   - match.go: event types and subscription patterns.
//   - manage.go, recover.go, health.go, log.go, pause.go: the Manager, the owner's side —
//     registration, reactivation and replay, secret rotation, resend, recover, test events,
//     the delivery log and each endpoint's health — for the CLI and the admin UI. Resends and
//     test events are rows like any other: the dispatcher sends them.
//   - prune.go: the Pruner, which deletes the log past its retention.
//   - sign.go (Standard Webhooks signing and secrets), schedule.go (the retry schedule),
//     target.go (which URLs and addresses a webhook may have): pure rules both sides share.
package webhook
