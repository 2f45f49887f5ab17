// Command chibase is the side-by-side harness's ceiling (bench/sidebyside.sh): a bare chi
// handler that answers GET /thing with a 20-field JSON object, the same object and handler as
// the in-process bench's baseline (app/bench/baseline_http.go), as a process of its own so
// that its CPU and memory can be read from outside like the other servers'.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/go-chi/chi/v5"
)

// sample20 is about the size and mix of a service.
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

var object = sample20{
	ID: 42, UUID: "6f1c2a9e-8b1d-4c1e-9a55-0f3f7d1b2c3d", Name: "Haircut and styling", Active: true,
	Price: "25.00", Duration: 45, BufferAfter: 10, Description: "Wash, cut and a blow-dry finish.",
	CategoryID: 3, CategoryName: "Hair", Capacity: 1, SessionCount: 1, OnlineBooking: true,
	LocationID: 1, Keywords: []string{"hair", "cut", "style"}, CreatedAt: "2026-11-21T09:30:00Z",
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	flag.Parse()
	r := chi.NewRouter()
	r.Get("/thing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(object)
	})
	srv := &http.Server{Addr: *addr, Handler: r, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, "chibase:", err)
		os.Exit(1)
	}
}
