package api

import (
	"context"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"frontdesk/db"
)

// Conditional GET (docs/api.md, "Conditional requests"). A tag is made of change counters that
// triggers raise in the writing transaction (the catalog version; db/migrations/
// 00330_etag_versions.sql for the rest) and of the request's path and query, so it is known
// before anything of the answer is read: a poll whose If-None-Match still matches costs the
// counters' read and a 304, never the body. Counters are read before the body is built, so a
// tag is never newer than the body it is sent with; a write in between only costs the client
// one more full answer.
//
// Tags are weak (W/"…"): they name a version of the data, not a byte sequence, and /v3 serves
// no ranges.

// etag returns the weak tag for the request r and the counters it depends on.
func etag(r *http.Request, counters ...int64) string {
	h := fnv.New64a()
	h.Write([]byte(r.URL.Path))
	h.Write([]byte{'?'})
	h.Write([]byte(r.URL.RawQuery))
	b := make([]byte, 0, 64)
	b = append(b, `W/"`...)
	for _, c := range counters {
		b = strconv.AppendInt(b, c, 36)
		b = append(b, '-')
	}
	b = strconv.AppendUint(b, h.Sum64(), 36)
	return string(append(b, '"'))
}

var (
	privateNoCache    = []string{"private, no-cache"}
	varyAuthorization = []string{"Authorization"}
)

// notModified answers 304 with tag's headers and reports true when the request's If-None-Match
// matches tag; otherwise it sets the headers for the 200 that follows and reports false.
func notModified(w http.ResponseWriter, r *http.Request, tag string, exists bool) bool {
	h := w.Header()
	h["Etag"] = []string{tag}           // canonical key: Set would make it anew on every answer
	h["Cache-Control"] = privateNoCache // shared, never modified (middleware.SecurityHeaders)
	if len(h["Vary"]) == 0 {
		h["Vary"] = varyAuthorization // shared likewise
	} else {
		h.Add("Vary", "Authorization")
	}
	if !inmMatches(r.Header.Get("If-None-Match"), tag, exists) {
		return false
	}
	w.WriteHeader(http.StatusNotModified)
	return true
}

// inmMatches reports whether an If-None-Match value matches tag by weak comparison (RFC 9110
// §13.1.2): any listed tag with the same opaque part, weak or not, or "*" when the resource is
// known to exist.
func inmMatches(header, tag string, exists bool) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(tag, "W/")
	for part := range strings.SplitSeq(header, ",") {
		part = strings.TrimSpace(part)
		if (part == "*" && exists) || strings.TrimPrefix(part, "W/") == want {
			return true
		}
	}
	return false
}

// counter reads one change counter of etag_versions (0 when never raised).
func (a *API) counter(r *http.Request, kind string, ref int64) (int64, error) {
	p := db.EtagVersionParams{Kind: kind, RefID: ref}
	return db.Unchanged(a.db, p, func() (int64, error) { return a.db.R.EtagVersion(context.WithoutCancel(r.Context()), p) })
}

// bookingEtagKey and clientEtagKey name one record's counters among db.Unchanged's readings.
type (
	bookingEtagKey struct{ id int64 }
	clientEtagKey  struct{ id int64 }
)

// conditional gives the GET routes named in taggedRoutes an ETag and answers 304 when the
// request's If-None-Match still matches, before the handler reads anything; otherwise it sends
// the answer kept for the same tag and URL, or lets the handler build it and keeps it
// (respcache.go). It runs after the key's scope check (requireScope): neither a 304 nor a kept
// answer goes to a key that may not read the route. A route it does not name, or a request for
// which no tag can be made (a booking that does not exist, a filter the handler will refuse),
// goes to the handler untouched.
func (a *API) conditional(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		// The pattern this router matched: the last one, after the mount's ("/v3/*").
		var route taggedRoute
		if ps := chi.RouteContext(r.Context()).RoutePatterns; len(ps) > 0 {
			route = taggedRoutes[ps[len(ps)-1]]
		}
		if route.tag == nil {
			next.ServeHTTP(w, r)
			return
		}
		tag, ok, err := route.tag(a, r)
		switch {
		case err != nil:
			a.writeError(w, r, err)
			return
		case !ok:
			next.ServeHTTP(w, r)
			return
		case notModified(w, r, tag, route.exists):
			return
		}
		url := answerURLOf(r)
		if body, hit := a.answers.get(url, tag); hit {
			writeRawJSON(w, http.StatusOK, body)
			return
		}
		kw := &keepingWriter{ResponseWriter: w}
		next.ServeHTTP(kw, r)
		if body, ok := kw.kept(); ok {
			a.answers.put(url, tag, body)
		}
	})
}

// tagFunc makes the tag of a request, or reports false when it has none.
type tagFunc func(a *API, r *http.Request) (string, bool, error)

// taggedRoute is how a route's tag is made. exists says that a tag is made only for a resource
// that exists (lists always do), so If-None-Match "*" (any current answer) may be answered 304;
// a catalog item's tag is made without reading the item, so "*" goes to its handler.
type taggedRoute struct {
	tag    tagFunc
	exists bool
}

// taggedRoutes names, per route pattern, the counters its answers depend on: everything the
// handler reads and shows. Slots depend on the clock, carts are for writers and sales on several
// tables no counter covers: they carry no tag.
var taggedRoutes = map[string]taggedRoute{
	"/bookings":                       {bookingListTag, true},
	"/bookings/{id}":                  {bookingTag, true},
	"/clients":                        {clientListTag, true},
	"/clients/quick-search":           {clientListTag, true},
	"/clients/{id}":                   {clientTag, true},
	"/clients/{id}/custom_attributes": {clientTag, true},
	"/custom_attributes":              {counterTag("custom_attributes"), true},
	"/locations":                      {catalogTag, true},
	"/locations/{id}":                 {catalogTag, false},
	"/services":                       {catalogTag, true},
	"/services/{id}":                  {catalogTag, false},
	"/categories":                     {catalogTag, true},
	"/providers":                      {catalogTag, true},
	"/providers/{id}":                 {catalogTag, false},
	"/products":                       {productTag, true},
	"/products/{id}":                  {productTag, false},
}

// catalogTag: answers built from the catalog tables (db/catalog.go's version covers them all).
func catalogTag(a *API, r *http.Request) (string, bool, error) {
	v, err := a.catalogVersionOf(r)
	return etag(r, v), err == nil, err
}

func (a *API) catalogVersionOf(r *http.Request) (int64, error) {
	if v, ok := catalogVersion(r.Context()); ok {
		return v, nil
	}
	return a.db.CatalogVersion(r.Context())
}

func counterTag(kind string) tagFunc {
	return func(a *API, r *http.Request) (string, bool, error) {
		n, err := a.counter(r, kind, 0)
		return etag(r, n), err == nil, err
	}
}

// productTag: products show the company's id besides their own row.
func productTag(a *API, r *http.Request) (string, bool, error) {
	v, err := a.catalogVersionOf(r)
	if err != nil {
		return "", false, err
	}
	n, err := a.counter(r, "products", 0)
	return etag(r, v, n), err == nil, err
}

// bookingListTag: a page of bookings shows bookings matching the filter (with their sale), the
// catalog's names and zones, and counts. Every filter names at least one of provider, location,
// client or service, and the counter of any one of those covers every booking that can match.
func bookingListTag(a *API, r *http.Request) (string, bool, error) {
	f, err := parseBookingFilter(r)
	if err != nil {
		return "", false, nil // the handler answers the 400
	}
	p := db.BookingsVersionParams{Kind: "provider", RefID: f.ProviderID}
	switch {
	case f.ProviderID != 0:
	case f.LocationID != 0:
		p = db.BookingsVersionParams{Kind: "location", RefID: f.LocationID}
	case f.ClientID != 0:
		p = db.BookingsVersionParams{Kind: "client", RefID: f.ClientID}
	default:
		p = db.BookingsVersionParams{Kind: "service", RefID: f.ServiceID}
	}
	v, err := a.catalogVersionOf(r)
	if err != nil {
		return "", false, err
	}
	n, err := db.Unchanged(a.db, p, func() (int64, error) { return a.db.R.BookingsVersion(r.Context(), p) })
	return etag(r, v, n), err == nil, err
}

// bookingTag: one booking, its sale and the catalog's names; none when it does not exist.
func bookingTag(a *API, r *http.Request) (string, bool, error) {
	id, err := pathID(r, "booking")
	if err != nil {
		return "", false, nil
	}
	v, err := a.catalogVersionOf(r)
	if err != nil {
		return "", false, err
	}
	// Kept while nothing commits, as counter's readings are: one record's poll costs no
	// statement. A booking that does not exist is not kept, and reads again.
	n, err := db.Unchanged(a.db, bookingEtagKey{id}, func() (int64, error) {
		return a.db.R.BookingEtag(context.WithoutCancel(r.Context()), id)
	})
	if db.IsNotFound(err) {
		return "", false, nil
	}
	return etag(r, v, n), err == nil, err
}

// clientListTag: clients, their attribute values and the templates' names.
func clientListTag(a *API, r *http.Request) (string, bool, error) {
	n, err := a.counter(r, "clients", 0)
	return etag(r, n), err == nil, err
}

// clientTag: one client, its attribute values and the templates; none when it does not exist.
func clientTag(a *API, r *http.Request) (string, bool, error) {
	id, err := pathID(r, "client")
	if err != nil {
		return "", false, nil
	}
	c, err := db.Unchanged(a.db, clientEtagKey{id}, func() (db.ClientEtagRow, error) {
		return a.db.R.ClientEtag(context.WithoutCancel(r.Context()), id)
	})
	if db.IsNotFound(err) {
		return "", false, nil
	}
	return etag(r, c.N, c.Templates), err == nil, err
}
