package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"frontdesk/app/importer"
	"frontdesk/db"
)

// runImport is `frontdesk import [--data DIR] FILE.json`: it loads a business from a file, all
// or nothing (docs/import.md). FILE "-" reads standard input.
func runImport(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("import", "[--data DIR] FILE.json\n\n"+
		"Loads a business (or an addition to one) from FILE, all or nothing; \"-\" reads standard input.\n"+
		"The format is described in docs/import.md.", env)
	data := dataFlag(fs, env)
	if err := fs.parse(args); err != nil {
		return err
	}
	name, err := fs.oneArg("import FILE (or - for standard input)")
	if err != nil {
		return err
	}
	raw, err := readImportFile(name, env.Stdin)
	if err != nil {
		return err
	}
	d, _, err := createData(ctx, env, *data)
	if err != nil {
		return err
	}
	defer d.Close()
	summary, err := importer.Load(ctx, d, raw, env.Now())
	if ie := (*importer.Errors)(nil); errors.As(err, &ie) {
		return fmt.Errorf("%s was not imported, nothing was written:\n%w", name, ie)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stderr, summary)
	return nil
}

// readImportFile reads the whole file, refusing one larger than the importer accepts before it
// is all in memory.
func readImportFile(name string, stdin io.Reader) ([]byte, error) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	raw, err := io.ReadAll(io.LimitReader(r, importer.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(raw) > importer.MaxFileSize {
		return nil, fmt.Errorf("%s is larger than %d MiB", name, importer.MaxFileSize>>20)
	}
	return raw, nil
}

// loadDemoIfEmpty loads the embedded demo business (`serve --demo`) into a database that has no
// business yet, and reports whether it did. A database that has one is left alone, so --demo
// is safe on every start.
func loadDemoIfEmpty(ctx context.Context, d *db.DB, now time.Time) (bool, error) {
	n, err := d.R.CountCompanies(ctx)
	if err != nil {
		return false, err
	}
	if n > 0 {
		return false, nil
	}
	if _, err := importer.Load(ctx, d, importer.Demo(), now); err != nil {
		return false, err
	}
	// The demo business takes bookings on its booking site (/book) from the start.
	if err := d.W.SiteEnable(ctx, db.Millis(now)); err != nil {
		return false, err
	}
	return true, nil
}
