// Package middleware holds the HTTP middleware every surface shares: request ids, access logs,
// panic recovery and security headers. Surface-specific middleware (API keys, sessions, CSRF)
// lives with its surface.
package middleware

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"time"
)

type ctxKey struct{}

// requestInfo is what the shared middleware keeps about one request, made once by
// WithRequestID: its id, the header value that echoes it, the client RealClient resolved and
// the access log's recorder. One allocation and one context value instead of one of each per
// middleware, on a path every request takes.
type requestInfo struct {
	id       string
	idHeader [1]string
	client   client
	resolved bool // client is set (RealClient)
	rec      recorder
}

func infoFrom(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(ctxKey{}).(*requestInfo)
	return info
}

// RequestID returns the id given to the request by WithRequestID.
func RequestID(ctx context.Context) string {
	if info := infoFrom(ctx); info != nil {
		return info.id
	}
	return ""
}

// WithRequestID gives every request an id (a sane incoming X-Request-Id is kept), echoes it in
// the response and puts it in the context for logs.
func WithRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !saneID(id) {
			id = newRequestID()
		}
		info := &requestInfo{id: id}
		info.idHeader[0] = id
		// The canonical key and a slice of the request's own: Header.Set would allocate one.
		// A later Set replaces the slice and an Add copies it (its capacity is its length).
		w.Header()["X-Request-Id"] = info.idHeader[:]
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, info)))
	})
}

// newRequestID returns 24 random hex digits. Ids only need to be unique, not secret, so they
// come from the runtime's per-thread ChaCha8 generator (math/rand/v2), which needs neither a
// system call nor a lock, rather than crypto/rand.
func newRequestID() string {
	var raw [12]byte
	binary.LittleEndian.PutUint64(raw[:8], rand.Uint64())
	binary.LittleEndian.PutUint32(raw[8:], rand.Uint32())
	var text [24]byte
	hex.Encode(text[:], raw[:])
	return string(text[:])
}

func saneID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// AccessLog writes one structured line per request: the client address as ClientIP sees it
// (so it must run inside RealClient), and the path and query string with secrets redacted. Observe, if
// set, also gets every request's route pattern, status and duration (for metrics).
func AccessLog(log *slog.Logger, observe func(r *http.Request, status int, d time.Duration)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			var rec *recorder
			if info := infoFrom(r.Context()); info != nil && info.rec.ResponseWriter == nil {
				rec = &info.rec // the request's own, unless another AccessLog took it
			} else {
				rec = new(recorder)
			}
			*rec = recorder{ResponseWriter: w}
			next.ServeHTTP(rec, r)
			if rec.status == 0 {
				rec.status = http.StatusOK
			}
			d := time.Since(start)
			if observe != nil {
				observe(r, rec.status, d)
			}
			ctx := r.Context()
			h := log.Handler()
			if !h.Enabled(ctx, slog.LevelInfo) {
				return
			}
			// The record is made here rather than by log.LogAttrs, which would read the clock
			// again and walk the stack for a caller no handler of ours prints: a line per
			// request is worth those 10 % of its cost.
			line := slog.NewRecord(start.Add(d), slog.LevelInfo, "http", 0)
			line.AddAttrs(
				slog.String("request_id", RequestID(ctx)),
				slog.String("method", r.Method), slog.String("path", RedactPath(r.URL.Path)),
				slog.Int("status", rec.status), slog.Int("bytes", rec.bytes),
				slog.Duration("duration", d), slog.String("remote", ClientIP(r)),
			)
			if r.URL.RawQuery != "" {
				line.AddAttrs(slog.String("query", RedactQuery(r.URL.RawQuery)))
			}
			h.Handle(ctx, line)
		})
	}
}

// Recover turns a panic in a handler into a logged 500 instead of a dropped connection.
func Recover(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					log.ErrorContext(r.Context(), "panic", slog.Any("panic", v), slog.String("stack", string(debug.Stack())),
						slog.String("request_id", RequestID(r.Context())))
					http.Error(w, "internal error", http.StatusInternalServerError)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

var (
	nosniff    = []string{"nosniff"}
	sameOrigin = []string{"same-origin"}
	deny       = []string{"DENY"}
)

// SecurityHeaders sets the headers every response carries.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// Shared, never-modified values under canonical keys: Header.Set would canonicalise
		// the key and allocate a slice per header per response. A later Set replaces a slice
		// and an Add copies it (its capacity is its length), so sharing is safe.
		h["X-Content-Type-Options"] = nosniff
		h["Referrer-Policy"] = sameOrigin
		h["X-Frame-Options"] = deny
		next.ServeHTTP(w, r)
	})
}

// PagePolicy is the Content-Security-Policy of the appliance's own pages (the admin, the
// customer pages; the booking site has its own): our own files only, no inline script or
// style, so markup that slipped through escaping still could not run; no framing.
const PagePolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"

// PageHeaders sets PagePolicy and forbids caching: an admin page may show a secret once, a
// checkout page what is owed right now, so nothing is kept by caches or history.
func PageHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", PagePolicy)
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
