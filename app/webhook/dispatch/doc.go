// Package dispatch delivers the webhook outbox app/webhook writes: a Run(ctx) worker woken
// after each commit, built on the durable queue that customer messages share (app/queue:
// claims with crash-safe leases, first attempts before retries, fair turns under a per-endpoint
// cap, batched records). docs/webhooks.md is the contract.
//
// File by file: dispatch.go is the Dispatcher and its Config (app/server.go builds one per
// database and hands it the database's webhook.Handoff); claim.go is the deliveries table as the
// queue claims from it (one target per active webhook); send.go makes one signed POST;
// record.go writes every attempt and its consequences (retry, success, failure, deactivation);
// backoff.go decides what follows an attempt (pure); ssrf.go is the HTTP client with its
// dial-time guard (no redirects, no proxy), which the admin's logo fetch uses too; refused.go
// logs a refused target once; metrics.go the Prometheus metrics.
package dispatch
