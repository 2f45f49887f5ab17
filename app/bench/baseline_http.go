package bench

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
)

// sample20 is the baseline's answer: a 20-field object about the size and mix of a service.
type sample20 struct {
	ID            int64    `json:"id"`
	UUID          string   `json:"uuid"`
	Name          string   `json:"name"`
	Active        bool     `json:"active"`
	Price         string   `json:"price"`
	Discount      *string  `json:"discount"`
	Duration      int64    `json:"duration"`
	BufferBefore  int64    `json:"buffer_before"`
	BufferAfter   int64    `json:"buffer_after"`
	Description   string   `json:"description"`
	CategoryID    int64    `json:"category_id"`
	CategoryName  string   `json:"category_name"`
	Capacity      int64    `json:"capacity"`
	SessionCount  int64    `json:"session_count"`
	OnlineBooking bool     `json:"online_booking"`
	Outcall       bool     `json:"outcall"`
	IsVideo       bool     `json:"is_video"`
	LocationID    int64    `json:"location_id"`
	Keywords      []string `json:"keywords"`
	CreatedAt     string   `json:"created_at"`
}

var baselineObject = sample20{
	ID: 42, UUID: "6f1c2a9e-8b1d-4c1e-9a55-0f3f7d1b2c3d", Name: "Haircut and styling", Active: true,
	Price: "25.00", Duration: 45, BufferAfter: 10, Description: "Wash, cut and a blow-dry finish.",
	CategoryID: 3, CategoryName: "Hair", Capacity: 1, SessionCount: 1, OnlineBooking: true,
	LocationID: 1, Keywords: []string{"hair", "cut", "style"}, CreatedAt: "2026-11-21T09:30:00Z",
}

// jsonBaseline is the reads' ceiling: a bare chi handler that encodes a 20-field object, served
// by net/http on a loopback listener of its own. It answers GET /thing.
type jsonBaseline struct {
	URL string
	srv *http.Server
}

func startJSONBaseline() (*jsonBaseline, error) {
	r := chi.NewRouter()
	r.Get("/thing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(baselineObject)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := &jsonBaseline{URL: "http://" + ln.Addr().String(), srv: &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}}
	// Serve returns when stop shuts it down; a failure before that shows up as request errors.
	go b.srv.Serve(ln)
	return b, nil
}

func (b *jsonBaseline) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b.srv.Shutdown(ctx)
}

// op is one baseline request through c, a client of b.
func (b *jsonBaseline) op(c *client) Op {
	return func(ctx context.Context, _ int) (Outcome, error) {
		_, err := c.do(ctx, http.MethodGet, "/thing", nil, http.StatusOK)
		return Succeeded, err
	}
}

const jsonBaselineWhat = "bare chi handler, 20-field JSON"
