package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"

	"frontdesk/app/idempotency"
)

// Idempotency keys (SPEC §4), over app/idempotency: a request sent with an Idempotency-Key
// claims the key before its handler runs, the handler's answer is stored under it, and a retry
// with the same key and the same request gets that answer again.
const (
	idempotencyHeader  = "Idempotency-Key"
	replayedHeader     = "Idempotent-Replayed"
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
		if len(keys) > 1 || !idempotency.ValidKey(keys[0]) {
			a.writeError(w, r, badRequest("invalid_idempotency_key"))
			return
		}
		body, err := readBody(r)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		req := idempotency.Request{
			APIKeyID: keyFrom(r.Context()).ID, Key: keys[0], Method: r.Method, Path: r.URL.Path,
			RequestHash: fingerprint(r, body),
		}
		claimed, err := idempotency.Claim(r.Context(), a.db, a.now(), req)
		if err == nil && claimed.Outcome == idempotency.InProgress && a.unfinished.Finish(r.Context(), a.db, req.APIKeyID, req.Key) {
			// The first request ended but its key's last write failed (a full disk): now
			// done, look again.
			claimed, err = idempotency.Claim(r.Context(), a.db, a.now(), req)
		}
		switch {
		case err != nil:
			a.writeError(w, r, err)
		case claimed.Outcome == idempotency.Reused:
			a.writeError(w, r, newError(http.StatusUnprocessableEntity, "unprocessable_entity", "idempotency_key_reused"))
		case claimed.Outcome == idempotency.InProgress:
			a.writeError(w, r, newError(http.StatusConflict, "conflict", "idempotency_key_in_progress"))
		case claimed.Outcome == idempotency.Replay:
			replay(w, claimed)
		default:
			a.runIdempotent(w, r, h, req)
		}
	}
}

// runIdempotent runs the handler under a claimed key and records its answer. The bookkeeping
// outlives the request's context: a client that hangs up must not leave the key claimed.
func (a *API) runIdempotent(w http.ResponseWriter, r *http.Request, h http.HandlerFunc, req idempotency.Request) {
	ctx := context.WithoutCancel(r.Context())
	rec := &recorder{ResponseWriter: w}
	finished := false
	defer func() {
		if !finished { // the handler panicked: free the key, let the panic go on
			if err := idempotency.Release(ctx, a.db, req.APIKeyID, req.Key); err != nil {
				a.log.ErrorContext(ctx, "release idempotency key", "err", err)
			}
		}
	}()
	h(rec, r)
	finished = true
	status := rec.statusCode()
	var err error
	if status >= 500 || rec.overflow {
		err = idempotency.Release(ctx, a.db, req.APIKeyID, req.Key)
	} else {
		err = idempotency.Complete(ctx, a.db, req.APIKeyID, req.Key, status, rec.body.Bytes())
	}
	if err == nil {
		return
	}
	if a.db.NoteWriteError(err) {
		// A full disk: the answer is on its way, but the key could not record it. Remember how
		// it should end, so a retry once space is back finishes it (app/idempotency).
		if status >= 500 || rec.overflow {
			status = 0
		}
		a.unfinished.Add(req.APIKeyID, req.Key, status, rec.body.Bytes())
		return
	}
	// The answer is already on its way; the key stays claimed until it expires, which errs on
	// the side of never running the request twice.
	a.log.ErrorContext(ctx, "record idempotent response", "err", err)
}

func replay(w http.ResponseWriter, c idempotency.Claimed) {
	if len(c.Body) > 0 {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.Header().Set(replayedHeader, "true")
	w.WriteHeader(c.Status)
	w.Write(c.Body)
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
