package app

import (
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
)

// routeLatency observes every request's latency by route pattern, method and status class.
// Each series' histogram is bound once and kept: finding it by its label values on every
// request would join the route's patterns into a new string and hash three labels, a cost
// every request pays.
type routeLatency struct {
	vec   *prometheus.HistogramVec
	mu    sync.RWMutex
	bound map[seriesKey]prometheus.Observer
}

// seriesKey names a series by what its labels are made of: chi's matched patterns (the root's,
// then a mounted router's: "/v3/*", "/services/{id}"), the method label and the status class.
// Patterns come from the route tables, methods are bounded by metricMethod, so the keys are few.
type seriesKey struct {
	patterns [3]string
	n        int
	method   string
	class    int
}

// maxBoundSeries bounds the kept series; the rare ones past it are looked up every time.
const maxBoundSeries = 1024

func newRouteLatency(vec *prometheus.HistogramVec) *routeLatency {
	return &routeLatency{vec: vec, bound: map[seriesKey]prometheus.Observer{}}
}

func (l *routeLatency) observe(r *http.Request, status int, d time.Duration) {
	rctx := chi.RouteContext(r.Context())
	k := seriesKey{method: metricMethod(r.Method), class: status / 100}
	if rctx == nil || len(rctx.RoutePatterns) > len(k.patterns) {
		l.series(rctx, k.method, status).Observe(d.Seconds())
		return
	}
	k.n = copy(k.patterns[:], rctx.RoutePatterns)
	l.mu.RLock()
	o, ok := l.bound[k]
	l.mu.RUnlock()
	if !ok {
		o = l.series(rctx, k.method, status)
		l.mu.Lock()
		if len(l.bound) < maxBoundSeries {
			l.bound[k] = o
		}
		l.mu.Unlock()
	}
	o.Observe(d.Seconds())
}

// series is the histogram of a request's labels, looked up by value.
func (l *routeLatency) series(rctx *chi.Context, method string, status int) prometheus.Observer {
	route := rctx.RoutePattern()
	if route == "" {
		route = "unmatched"
	}
	return l.vec.WithLabelValues(route, method, statusClass(status))
}
