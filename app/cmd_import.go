package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"frontdesk/app/importer"
	"frontdesk/db"
)

// runImport is `frontdesk import [--data DIR] FILE.json`: it loads a business from a file, all
// or nothing (docs/import.md). FILE "-" reads standard input.
func runImport(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("import", "[--data DIR] [--dry-run] FILE.json\n       frontdesk import [--data DIR] [--dry-run] [--history] [--notify] --from square|fresha|simplybook FILE.csv\n\n"+
		"Loads a business (or an addition to one) from FILE, all or nothing; \"-\" reads standard input.\n"+
		"The format is described in docs/import.md. --from reads the client list or the appointments another\n"+
		"system exported (docs/data.md, \"Switching in\"); --dry-run checks everything and writes nothing.\n"+
		"Imported bookings send no confirmations (their clients had them from the other system) and no\n"+
		"notices to providers, only reminders; --notify sends each client a confirmation too.", env)
	data := dataFlag(fs, env)
	from := fs.String("from", "", "the system a CSV client list comes from: "+strings.Join(importer.Vendors, ", "))
	dryRun := fs.Bool("dry-run", false, "check the file and say what would be created and skipped; write nothing")
	history := fs.Bool("history", false, "with --from, an appointments file's past appointments too, as past bookings")
	notify := fs.Bool("notify", false, "with --from, send the client of each imported booking its confirmation, as for a new booking")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *from != "" && !slices.Contains(importer.Vendors, *from) {
		return usagef("--from %q: want one of %s", *from, strings.Join(importer.Vendors, ", "))
	}
	if *notify && *from == "" {
		// A JSON import loads a business and messages nobody (docs/import.md).
		return usagef("--notify: only with --from (a JSON import sends no messages)")
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
	if *from != "" {
		return importVendorFile(ctx, env, d, *from, name, raw, importer.SwitchOptions{DryRun: *dryRun, History: *history, Notify: *notify})
	}
	load := importer.Load
	if *dryRun {
		load = importer.DryRun
	}
	summary, err := load(ctx, d, raw, env.Now())
	if ie := (*importer.Errors)(nil); errors.As(err, &ie) {
		return fmt.Errorf("%s was not imported, nothing was written:\n%w", name, ie)
	}
	if err != nil {
		return err
	}
	if *dryRun {
		fmt.Fprintf(env.Stderr, "dry run, nothing was written: would have %s\n", summary)
		return nil
	}
	fmt.Fprintln(env.Stderr, summary)
	return nil
}

// importVendorFile imports the client list or the appointments another system exported,
// printing what each row does (or would do, on a dry run) on standard output and the totals on
// standard error.
func importVendorFile(ctx context.Context, env Env, d *db.DB, vendor, name string, raw []byte, opt importer.SwitchOptions) error {
	report, err := importer.LoadVendorCSV(ctx, d, vendor, raw, env.Now(), opt)
	if ie := (*importer.Errors)(nil); errors.As(err, &ie) {
		return fmt.Errorf("%s was not imported, nothing was written:\n%w", name, ie)
	}
	if err != nil {
		return err
	}
	for _, r := range report.Rows {
		who := r.Name
		for _, c := range []string{r.Email, r.Phone} {
			if c != "" {
				who += " <" + c + ">"
			}
		}
		what := who
		if report.Appointments {
			what = fmt.Sprintf("booking %s %s with %s for %s", r.Start, r.Service, r.Provider, who)
			if r.NewClient {
				what += " (new client)"
			}
		}
		if r.Create {
			fmt.Fprintf(env.Stdout, "line %d: create %s\n", r.Line, what)
		} else {
			fmt.Fprintf(env.Stdout, "line %d: skip %s: %s\n", r.Line, strings.TrimSpace(who), r.Reason)
		}
	}
	if len(report.Ignored) > 0 {
		fmt.Fprintf(env.Stdout, "columns not read: %s\n", strings.Join(report.Ignored, ", "))
	}
	verb := "imported"
	if opt.DryRun {
		verb = "dry run, nothing was written: would have imported"
	}
	what := count(report.Created, "client")
	if report.Appointments {
		what = fmt.Sprintf("%s (and %s)", count(report.Created, "booking"), count(report.Clients, "new client"))
	}
	fmt.Fprintf(env.Stderr, "%s %s from %s, skipped %s\n", verb, what, vendor, count(report.Skipped, "row"))
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

// count is n and noun, in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
