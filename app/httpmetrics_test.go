package app

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
)

// Each request is counted in the series of its route pattern (the root's and a mounted
// router's joined, as chi.Context.RoutePattern makes it), method and status class, whether its
// series was bound by an earlier request or not; once bound, observing costs no allocation.
func TestRouteLatencySeries(t *testing.T) {
	reg := prometheus.NewRegistry()
	vec := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "latency"}, []string{"route", "method", "status"})
	reg.MustRegister(vec)
	l := newRouteLatency(vec)
	var observed *http.Request
	want := map[string]int{} // the labels as looked up by value, and how many times
	root := chi.NewRouter()
	root.Use(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			l.observe(r, rec.Code, time.Millisecond)
			observed = r
			route := chi.RouteContext(r.Context()).RoutePattern()
			if route == "" {
				route = "unmatched"
			}
			want["method="+metricMethod(r.Method)+",route="+route+",status="+statusClass(rec.Code)]++
		})
	})
	root.Get("/healthz", func(http.ResponseWriter, *http.Request) {})
	v3 := chi.NewRouter()
	v3.Get("/services/{id}", func(w http.ResponseWriter, r *http.Request) {
		if chi.URLParam(r, "id") == "9" {
			w.WriteHeader(http.StatusNotFound)
		}
	})
	root.Mount("/v3", v3)
	for _, req := range []struct{ method, path string }{
		{"GET", "/v3/services/1"}, {"GET", "/v3/services/2"}, {"GET", "/v3/services/9"}, {"HEAD", "/v3/services/1"},
		{"GET", "/healthz"}, {"GET", "/healthz"}, {"BREW", "/healthz"}, {"GET", "/nowhere"},
	} {
		root.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(req.method, req.path, nil))
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range families[0].GetMetric() {
		var labels []string
		for _, p := range m.GetLabel() {
			labels = append(labels, p.GetName()+"="+p.GetValue())
		}
		got[strings.Join(labels, ",")] = int(m.GetHistogram().GetSampleCount())
	}
	if !maps.Equal(got, want) || len(want) != 6 {
		t.Errorf("got series %v, want %v (six series)", got, want)
	}
	if n := testing.AllocsPerRun(100, func() { l.observe(observed, http.StatusNotFound, time.Millisecond) }); n != 0 && !raceEnabled {
		t.Errorf("observing in a bound series: got %v allocations, want 0", n)
	}
}
