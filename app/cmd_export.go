package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"frontdesk/app/booking"
	"frontdesk/app/export"
	"frontdesk/app/locale"
	"frontdesk/db"
)

const exportUsage = `Usage: frontdesk export --data DIR FILE.zip
       frontdesk export csv KIND --data DIR [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--excel] [--lang en|es] [--webhook ID]

  KIND is one of: bookings, clients, sales, payments, messages, deliveries
  writes the CSV to standard output (docs/data.md); --webhook narrows deliveries to one endpoint
  without csv: writes everything (the business in the import format, every list's CSV, the logo)
  to FILE.zip ("-": standard output)`

// runExport writes a list as CSV to standard output, as the admin's "Download CSV" does.
func runExport(ctx context.Context, env Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(env.Stdout, exportUsage)
		if len(args) == 0 {
			return usagef("missing format (csv)")
		}
		return nil
	}
	if args[0] != "csv" {
		return runExportAll(ctx, env, args)
	}
	if len(args) < 2 || strings.HasPrefix(args[1], "-") {
		return usagef("missing KIND (one of %s)", strings.Join(export.Kinds, ", "))
	}
	kind := args[1]
	if !slices.Contains(export.Kinds, kind) {
		return usagef("unknown KIND %q (want one of %s)", kind, strings.Join(export.Kinds, ", "))
	}
	fs := newFlagSet("export csv "+kind, "--data DIR [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--excel] [--lang en|es]", env)
	data := dataFlag(fs, env)
	from := fs.String("from", "", "first date, inclusive (bookings: the day they start; others: the day they were created), in the business's zone")
	to := fs.String("to", "", "last date, inclusive")
	excel := fs.Bool("excel", false, "Excel-friendly: a byte-order mark and the language's separator (; for Spanish)")
	lang := fs.String("lang", "", "the language of --excel's separator and decimal mark (default: the business's)")
	webhookID := fs.Int64("webhook", 0, "deliveries: only this webhook endpoint's (default: every endpoint's)")
	if err := fs.parse(args[2:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *webhookID != 0 && kind != "deliveries" {
		return usagef("--webhook is for deliveries only")
	}
	if *webhookID < 0 {
		return usagef("--webhook %d: want an endpoint's id", *webhookID)
	}
	f := export.Filter{WebhookID: *webhookID}
	for name, pair := range map[string]struct {
		text string
		dst  **booking.Date
	}{"from": {*from, &f.From}, "to": {*to, &f.To}} {
		if pair.text == "" {
			continue
		}
		d, err := booking.ParseDate(pair.text)
		if err != nil {
			return usagef("--%s %q: want a date YYYY-MM-DD", name, pair.text)
		}
		*pair.dst = &d
	}
	f.Bookings.From, f.Bookings.To, f.ClientStatus = f.From, f.To, "all"
	d, err := openData(ctx, env, *data)
	if err != nil {
		return err
	}
	defer d.Close()
	if *webhookID != 0 {
		if _, err := d.R.GetWebhook(ctx, *webhookID); err != nil {
			if db.IsNotFound(err) {
				return usagef("--webhook %d: no such webhook", *webhookID)
			}
			return err
		}
	}
	if *lang == "" {
		biz, err := locale.Load(ctx, d.R)
		if err != nil {
			return err
		}
		*lang = biz.Language
	}
	w, err := export.NewWriter(env.Stdout, export.Options{Excel: *excel, Lang: *lang})
	if err != nil {
		return err
	}
	return export.Write(ctx, d, kind, f, w)
}

// runExportAll writes the whole business as one zip (docs/data.md, "Everything"), as the
// admin's Settings → Data → Download everything does. The file appears complete or not at all:
// it is written beside its final name and renamed once the zip is closed.
func runExportAll(ctx context.Context, env Env, args []string) error {
	fs := newFlagSet("export", "--data DIR FILE.zip", env)
	data := dataFlag(fs, env)
	if err := fs.parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 0:
		return usagef("missing FILE.zip (or - for standard output), or csv KIND")
	case fs.NArg() > 1:
		return usagef("unexpected argument %q", fs.Arg(1))
	}
	target := fs.Arg(0)
	d, err := openData(ctx, env, *data)
	if err != nil {
		return err
	}
	defer d.Close()
	if target == "-" {
		return export.WriteArchive(ctx, d, env.Stdout, env.Now())
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after a successful rename there is nothing left to remove
	if err := export.WriteArchive(ctx, d, f, env.Now()); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), target); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %s\n", target)
	return nil
}
