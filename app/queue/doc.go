// Package queue is the durable outbox both of frontdesk's senders share: webhook deliveries
// (app/webhook) and customer messages (app/messages). One copy of a delicate mechanism, so
// every fix lands once (docs/ARCHITECTURE.md, "One durable queue, two senders").
//
// What it owns, file by file:
//
//   - dispatch.go: the Dispatcher, a Run(ctx) worker woken after each commit. It claims due
//     rows into per-target in-memory queues, hands them to a fixed pool of workers in fair
//     turns under a per-target cap (turns.go), and records every attempt.
//   - claim.go: claim rounds — first attempts before retries, each target up to its room — and
//     handing unsent claims back. A claimed row has next_attempt_at = NULL (a lease held by
//     this process); whatever a crash leaves claimed is due again at the next start, so
//     sending is at-least-once.
//   - handoff.go: the hand-off — a new row written by this process, inserted already claimed, is
//     handed to the running dispatcher in memory once its write has committed (no claim
//     UPDATE), within its lane's room; handoffpoint.go is where a writer finds the running
//     dispatcher (one point per outbox and database, made by the process's wiring).
//   - record.go: the writer goroutine, which records finished attempts in batched
//     transactions that never wake the dispatcher itself (quietTx: db.InTxQuiet, batched by
//     the group committer with every other write).
//   - schedule.go: the retry Schedule and its jitter, pure functions.
//   - prune.go: the Pruner, which deletes logs past their retention, in bounded batches.
//
// What a sender supplies: a Store (its table's SQL, through sqlc: which targets are open, how to
// claim, release and record) and a Sender (one attempt). Rows are written by the sender's own
// Enqueue inside the caller's transaction (asking Reserve whether to insert one claimed); this
// package never writes them first.
package queue
