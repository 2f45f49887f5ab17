package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"time"

	"frontdesk/db"
)

// Idempotency keys (SPEC §4). A request sent with an Idempotency-Key claims the key (per API
// key) in the database before its handler runs; the handler's answer is stored under the key;
// a retry with the same key and the same request gets that answer again, and nothing runs
// twice. The claim is one INSERT on the single writer connection, so two concurrent requests
// with one key cannot both win, in this process or any other on the same file.
const (
	idempotencyHeader  = "Idempotency-Key"
	replayedHeader     = "Idempotent-Replayed"
	idempotencyTTL     = 24 * time.Hour
	maxIdempotencyKey  = 255
	statusInProgress   = 0 // idempotency_keys.status while the first request is running
	maxStoredResponses = 1 << 20
)

// idempotent wraps a POST (or cancel) handler. Without the header nothing changes. Responses
// below 500 are stored and replayed (a 4xx is as much the answer to that request as a 2xx);
// a 5xx releases the key so the retry runs again.
func (a *API) idempotent(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		keys := r.Header.Values(idempotencyHeader)
		if len(keys) == 0 {
			h(w, r)
			return
		}
		if len(keys) > 1 || !validIdempotencyKey(keys[0]) {
			a.writeError(w, r, badRequest("invalid_idempotency_key"))
			return
		}
		body, err := readBody(r)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		claim := db.ReserveIdempotencyKeyParams{
			APIKeyID: keyFrom(r.Context()).ID, Key: keys[0], Method: r.Method, Path: r.URL.Path,
			RequestHash: fingerprint(r, body),
		}
		stored, won, err := a.claimIdempotencyKey(r.Context(), claim)
		switch {
		case err != nil:
			a.writeError(w, r, err)
		case !won && stored.RequestHash != claim.RequestHash:
			a.writeError(w, r, newError(http.StatusUnprocessableEntity, "unprocessable_entity", "idempotency_key_reused"))
		case !won && stored.Status == statusInProgress:
			a.writeError(w, r, newError(http.StatusConflict, "conflict", "idempotency_key_in_progress"))
		case !won:
			replay(w, stored)
		default:
			a.runIdempotent(w, r, h, claim)
		}
	}
}

// claimIdempotencyKey drops expired keys (of everyone: cleaning up is cheap on the expiry
// index), then either claims the key or returns the row that holds it.
func (a *API) claimIdempotencyKey(ctx context.Context, claim db.ReserveIdempotencyKeyParams) (db.IdempotencyKey, bool, error) {
	now := a.now()
	claim.CreatedAt, claim.ExpiresAt = db.Millis(now), db.Millis(now.Add(idempotencyTTL))
	var stored db.IdempotencyKey
	won := false
	err := a.db.InTx(ctx, func(q *db.Queries) error {
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
	return stored, won, err
}

// runIdempotent runs the handler under a claimed key and records its answer. The bookkeeping
// outlives the request's context: a client that hangs up must not leave the key claimed.
func (a *API) runIdempotent(w http.ResponseWriter, r *http.Request, h http.HandlerFunc, claim db.ReserveIdempotencyKeyParams) {
	ctx := context.WithoutCancel(r.Context())
	key := db.ReleaseIdempotencyKeyParams{APIKeyID: claim.APIKeyID, Key: claim.Key}
	rec := &recorder{ResponseWriter: w}
	finished := false
	defer func() {
		if !finished { // the handler panicked: free the key, let the panic go on
			if err := a.db.W.ReleaseIdempotencyKey(ctx, key); err != nil {
				a.log.ErrorContext(ctx, "release idempotency key", "err", err)
			}
		}
	}()
	h(rec, r)
	finished = true
	status := rec.statusCode()
	var err error
	if status >= 500 || rec.overflow {
		err = a.db.W.ReleaseIdempotencyKey(ctx, key)
	} else {
		err = a.db.W.CompleteIdempotencyKey(ctx, db.CompleteIdempotencyKeyParams{
			Status: int64(status), ResponseBody: append([]byte{}, rec.body.Bytes()...), APIKeyID: key.APIKeyID, Key: key.Key,
		})
	}
	if err != nil {
		// The answer is already on its way; the key stays claimed until it expires, which errs on
		// the side of never running the request twice.
		a.log.ErrorContext(ctx, "record idempotent response", "err", err)
	}
}

func replay(w http.ResponseWriter, k db.IdempotencyKey) {
	if len(k.ResponseBody) > 0 {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.Header().Set(replayedHeader, "true")
	w.WriteHeader(int(k.Status))
	w.Write(k.ResponseBody)
}

// validIdempotencyKey accepts 1–255 printable ASCII characters.
func validIdempotencyKey(k string) bool {
	if len(k) == 0 || len(k) > maxIdempotencyKey {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// fingerprint identifies "the same request": method, path with query, and the exact body.
func fingerprint(r *http.Request, body []byte) string {
	h := sha256.New()
	h.Write([]byte(r.Method))
	h.Write([]byte{0})
	h.Write([]byte(r.URL.RequestURI()))
	h.Write([]byte{0})
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// recorder passes a response through while keeping a copy of its status and body.
type recorder struct {
	http.ResponseWriter
	status   int
	body     bytes.Buffer
	overflow bool
}

func (rec *recorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
	}
	rec.ResponseWriter.WriteHeader(status)
}

func (rec *recorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if rec.body.Len()+len(b) > maxStoredResponses {
		rec.overflow = true // too big to keep: the key is released rather than replaying a torn body
	} else {
		rec.body.Write(b)
	}
	return rec.ResponseWriter.Write(b)
}

func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

func (rec *recorder) statusCode() int {
	if rec.status == 0 {
		return http.StatusOK
	}
	return rec.status
}
