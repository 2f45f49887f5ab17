// Package idempotency keeps the first answers of requests made with an idempotency key, so a
// retried request returns the first answer and does nothing twice. It is the one mechanism
// behind the /v3 Idempotency-Key header (app/api) and the MCP book tool's idempotency_key
// (app/mcp).
//
// A request claims its key (per API key) in the database before it runs; its answer is stored
// under the key; a retry with the same key and the same request gets that answer again. The
// claim is one INSERT on the single writer connection, so two concurrent requests with one key
// cannot both win, in this process or any other on the same file. See docs/api.md,
// "Idempotency keys".
package idempotency

import (
	"context"
	"sync"
	"time"

	"frontdesk/db"
)

const (
	// TTL is how long a key and its answer are kept.
	TTL = 24 * time.Hour
	// MaxKey is the longest key, in bytes (printable ASCII).
	MaxKey = 255
	// statusInProgress is idempotency_keys.status while the first request is running.
	statusInProgress = 0
)

// Request identifies a request made with a key: whose key (the API key's id), the key, and
// what the request was (Method and Path name the operation; Hash its exact content).
type Request struct {
	APIKeyID    int64
	Key         string
	Method      string
	Path        string
	RequestHash string
}

// Outcome is what a claim found.
type Outcome int

const (
	// Won: the key was free and is now claimed; run the request, then Complete or Release.
	Won Outcome = iota
	// Replay: the same request already finished; answer with Status and Body.
	Replay
	// Reused: the key was used for a different request.
	Reused
	// InProgress: the same key's first request is still running.
	InProgress
)

// Claimed is the result of Claim.
type Claimed struct {
	Outcome Outcome
	Status  int    // Replay: the stored status
	Body    []byte // Replay: the stored answer
}

// ValidKey accepts 1–255 printable ASCII characters.
func ValidKey(k string) bool {
	if len(k) == 0 || len(k) > MaxKey {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// Claim drops expired keys (of everyone: cleaning up is cheap on the expiry index), then either
// claims req's key or reports what holds it.
func Claim(ctx context.Context, d *db.DB, now time.Time, req Request) (Claimed, error) {
	claim := db.ReserveIdempotencyKeyParams{
		APIKeyID: req.APIKeyID, Key: req.Key, Method: req.Method, Path: req.Path, RequestHash: req.RequestHash,
		CreatedAt: db.Millis(now), ExpiresAt: db.Millis(now.Add(TTL)),
	}
	var stored db.IdempotencyKey
	won := false
	err := d.InTx(ctx, func(q *db.Queries) error {
		if err := q.DeleteExpiredIdempotencyKeys(ctx, claim.CreatedAt); err != nil {
			return err
		}
		n, err := q.ReserveIdempotencyKey(ctx, claim)
		if err != nil {
			return err
		}
		if won = n == 1; won {
			return nil
		}
		stored, err = q.GetIdempotencyKey(ctx, db.GetIdempotencyKeyParams{APIKeyID: claim.APIKeyID, Key: claim.Key})
		return err
	})
	switch {
	case err != nil:
		return Claimed{}, err
	case won:
		return Claimed{Outcome: Won}, nil
	case stored.RequestHash != claim.RequestHash || stored.Method != claim.Method || stored.Path != claim.Path:
		return Claimed{Outcome: Reused}, nil
	case stored.Status == statusInProgress:
		return Claimed{Outcome: InProgress}, nil
	}
	return Claimed{Outcome: Replay, Status: int(stored.Status), Body: stored.ResponseBody}, nil
}

// Complete stores the answer of a claimed key's request. The bookkeeping outlives the request's
// context (a client that hangs up must not leave the key claimed), so ctx should be detached.
func Complete(ctx context.Context, d *db.DB, apiKeyID int64, key string, status int, body []byte) error {
	return d.W.CompleteIdempotencyKey(ctx, db.CompleteIdempotencyKeyParams{
		Status: int64(status), ResponseBody: append([]byte{}, body...), APIKeyID: apiKeyID, Key: key,
	})
}

// Release frees a claimed key without an answer (the request failed in a way a retry should
// run again), so the next request with it runs.
func Release(ctx context.Context, d *db.DB, apiKeyID int64, key string) error {
	return d.W.ReleaseIdempotencyKey(ctx, db.ReleaseIdempotencyKeyParams{APIKeyID: apiKeyID, Key: key})
}

// Unfinished remembers keys whose request has ended but whose final write — storing the answer
// (Complete) or freeing the key after a failure (Release) — failed because the disk was full,
// and how each should end. Finish writes that end when the key is seen again, so a retry once
// space is back is answered (replayed, or run again) instead of meeting "in progress" until the
// key expires. In memory only: a restart forgets them, and they then stay claimed until they
// expire, as a key does after a crash. The zero value is ready to use.
type Unfinished struct {
	mu   sync.Mutex
	keys map[unfinishedKey]ending
}

type unfinishedKey struct {
	apiKeyID int64
	key      string
}

// ending is how a key should end: Status 0 releases it, anything else stores the answer.
type ending struct {
	status int
	body   []byte
}

// maxUnfinished bounds the memory a long full-disk spell can take.
const maxUnfinished = 10_000

// Add remembers that key should end with status and body (status 0: be released).
func (u *Unfinished) Add(apiKeyID int64, key string, status int, body []byte) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.keys == nil {
		u.keys = map[unfinishedKey]ending{}
	}
	if len(u.keys) < maxUnfinished {
		u.keys[unfinishedKey{apiKeyID, key}] = ending{status, append([]byte{}, body...)}
	}
}

// Finish writes the remembered end of a key, if there is one, and reports whether it did.
func (u *Unfinished) Finish(ctx context.Context, d *db.DB, apiKeyID int64, key string) bool {
	k := unfinishedKey{apiKeyID, key}
	u.mu.Lock()
	e, ok := u.keys[k]
	u.mu.Unlock()
	if !ok {
		return false
	}
	ctx = context.WithoutCancel(ctx)
	var err error
	if e.status == 0 {
		err = Release(ctx, d, apiKeyID, key)
	} else {
		err = Complete(ctx, d, apiKeyID, key, e.status, e.body)
	}
	d.NoteWriteError(err)
	if err != nil {
		return false
	}
	u.mu.Lock()
	delete(u.keys, k)
	u.mu.Unlock()
	return true
}
