package export

import (
	"archive/zip"
	"context"
	"database/sql"
	"fmt"
	"io"
	"time"

	"frontdesk/db"
)

// Everything in one zip (docs/data.md, "Everything"): business.json in the import format
// (docs/import.md), which `frontdesk import` reads back into an empty instance; the CSV of
// every list; and the booking site's logo. All of it is read in one read transaction, so the
// parts agree, and written as it is read: the zip goes out entry by entry, each entry row by
// row, so a large business costs no more memory than a small one.

// ArchiveName is the download's file name on date day (YYYY-MM-DD).
func ArchiveName(day string) string { return "frontdesk-" + day + ".zip" }

// logoNames are the logo's file names by its stored type.
var logoNames = map[string]string{"image/png": "logo.png", "image/jpeg": "logo.jpg", "image/gif": "logo.gif", "image/webp": "logo.webp"}

// WriteArchive writes the zip to out, its entries dated now.
func WriteArchive(ctx context.Context, d *db.DB, out io.Writer, now time.Time) error {
	zone, err := BusinessZone(ctx, d)
	if err != nil {
		return err
	}
	tx, err := d.Read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer tx.Rollback() // nothing to commit: the export only reads
	z := zip.NewWriter(out)
	entry := func(name string) (io.Writer, error) {
		return z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: now.In(zone)})
	}
	f, err := entry("business.json")
	if err != nil {
		return err
	}
	if err := WriteBusiness(ctx, tx, f); err != nil {
		return err
	}
	for _, kind := range Kinds {
		f, err := entry("csv/" + kind + ".csv")
		if err != nil {
			return err
		}
		cw, err := NewWriter(f, Options{})
		if err != nil {
			return err
		}
		if err := writeList(ctx, d, tx, kind, lists[kind], Filter{ClientStatus: "all"}, zone, cw); err != nil {
			return err
		}
	}
	var logo []byte
	var logoType string
	err = tx.QueryRowContext(ctx, `SELECT logo, logo_type FROM site_settings WHERE logo IS NOT NULL ORDER BY id LIMIT 1`).Scan(&logo, &logoType)
	switch {
	case err == sql.ErrNoRows:
	case err != nil:
		return fmt.Errorf("read the logo: %w", err)
	case logoNames[logoType] != "":
		f, err := entry(logoNames[logoType])
		if err != nil {
			return err
		}
		if _, err := f.Write(logo); err != nil {
			return err
		}
	}
	return z.Close()
}
