package tlsacme

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"frontdesk/app/nettest"
)

// A fresh installation whose CA cannot be reached has no certificate yet: its metrics must
// still be scraped (expiry 0, failures counted), which is when an owner needs them most.
func TestMetricsWithoutCertificate(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := New(Options{
		Host: "book.example.com", Storage: t.TempDir(),
		CA:       "https://" + nettest.RefusedAddr(t) + "/directory",
		Registry: reg,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	if leaf := m.Certificate(); leaf != nil {
		t.Fatalf("Certificate() = %v before any was obtained, want nil", leaf.Subject)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		values := gather(t, reg)
		if got := values["frontdesk_tls_certificate_expiry_timestamp_seconds"]; got != 0 {
			t.Fatalf("expiry = %v without a certificate, want 0", got)
		}
		if values["frontdesk_tls_certificate_failures_total"] >= 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no failure counted while the CA refuses connections; metrics: %v", values)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// gather scrapes reg as /metrics does and returns each metric's value by name.
func gather(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]float64{}
	for _, f := range families {
		for _, metric := range f.GetMetric() {
			switch {
			case metric.GetGauge() != nil:
				values[f.GetName()] = metric.GetGauge().GetValue()
			case metric.GetCounter() != nil:
				values[f.GetName()] = metric.GetCounter().GetValue()
			}
		}
	}
	return values
}
