package importer

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"frontdesk/db"
)

//go:embed demo.json
var demo []byte

// Demo returns the demo business, an import file like any other (see docs/import.md).
func Demo() []byte { return demo }

// Load imports one file into d, all or nothing. now is the import date: relative dates in the
// file ("+1w mon 10:00") count from it, and it stamps created_at. When the file is refused the
// error is an *Errors naming each problem by its JSON path, and nothing has been written.
// Import writes no webhook events: it loads a business, it does not report on one.
func Load(ctx context.Context, d *db.DB, raw []byte, now time.Time) (Summary, error) {
	f, ps := decode(raw)
	if f == nil {
		return Summary{}, ps.err()
	}
	p, err := validate(f, now, ps)
	if err != nil {
		return Summary{}, err
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		if err := checkDatabase(ctx, q, p); err != nil {
			return err
		}
		return write(ctx, d, q, p, now)
	})
	if err != nil {
		return Summary{}, err
	}
	return p.summary(), nil
}

// DryRun checks raw as Load does, against the database as it is, and writes nothing: the
// writes are made and rolled back, so what the database itself would refuse is found too.
func DryRun(ctx context.Context, d *db.DB, raw []byte, now time.Time) (Summary, error) {
	f, ps := decode(raw)
	if f == nil {
		return Summary{}, ps.err()
	}
	p, err := validate(f, now, ps)
	if err != nil {
		return Summary{}, err
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		if err := checkDatabase(ctx, q, p); err != nil {
			return err
		}
		if err := write(ctx, d, q, p, now); err != nil {
			return err
		}
		return errDryRun
	})
	if !errors.Is(err, errDryRun) {
		return Summary{}, err
	}
	return p.summary(), nil
}

// String is the one-line report of a successful import; sections with nothing are left out.
func (s Summary) String() string {
	var parts []string
	for _, n := range []struct {
		count int
		name  string
	}{
		{s.Locations, "location"}, {s.Categories, "category"}, {s.Services, "service"},
		{s.Providers, "provider"}, {s.CustomAttributes, "custom attribute"}, {s.Clients, "client"},
		{s.Timetable, "timetable entry"}, {s.Sessions, "class session"}, {s.Bookings, "booking"}, {s.Products, "product"},
		{s.Sales, "sale"}, {s.Packs, "pack"},
	} {
		if n.count > 0 {
			parts = append(parts, plural(n.count, n.name))
		}
	}
	what := strings.Join(parts, ", ")
	if what == "" {
		what = "nothing"
	}
	if s.Company != "" {
		return fmt.Sprintf("imported %q: %s", s.Company, what)
	}
	return "imported " + what
}

func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
