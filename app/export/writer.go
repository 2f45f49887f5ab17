// Package export writes the owner's lists as CSV files (docs/data.md): RFC 4180 in UTF-8,
// streamed row by row from one read transaction, with every cell that a spreadsheet would run
// as a formula neutralised. The admin's "Download CSV" links and `frontdesk export csv` both
// write through it, so a file is the same whichever door it came from.
package export

import (
	"bufio"
	"io"
	"strings"
	"time"

	"frontdesk/app/money"
)

// Options shape a file.
type Options struct {
	// Excel adds a byte-order mark (so Excel reads UTF-8) and uses the locale's separator:
	// ";" for Spanish, where the decimal comma makes "," ambiguous, "," otherwise. Amounts then
	// use the locale's decimal mark too, so the spreadsheet reads them as numbers.
	Excel bool
	// Lang is the owner's language ("en", "es"); it matters only with Excel.
	Lang string
}

// Writer writes the records of one CSV file.
type Writer struct {
	out   *bufio.Writer
	sep   byte
	comma bool // amounts with a decimal comma
}

// bom is the UTF-8 byte-order mark.
const bom = "\uFEFF"

// NewWriter starts a file on out; with Excel it writes the byte-order mark at once.
func NewWriter(out io.Writer, o Options) (*Writer, error) {
	w := &Writer{out: bufio.NewWriter(out), sep: ','}
	if o.Excel {
		if _, err := io.WriteString(out, bom); err != nil {
			return nil, err
		}
		if strings.HasPrefix(o.Lang, "es") {
			w.sep, w.comma = ';', true
		}
	}
	return w, nil
}

// Write writes one record, neutralising each cell, as RFC 4180 has it: records end with CRLF,
// a cell holding the separator, a quote or a line break is quoted, with its quotes doubled.
// Line breaks inside a cell are kept as they are (encoding/csv's writer would turn "\n" into
// "\r\n" with CRLF records, and readers would then disagree on the cell). A few kilobytes are
// buffered and handed on, so a long file never sits in memory.
func (w *Writer) Write(record []string) error {
	for i, cell := range record {
		if i > 0 {
			w.out.WriteByte(w.sep)
		}
		cell = Neutralise(cell)
		if !strings.ContainsAny(cell, string(w.sep)+"\"\r\n") {
			w.out.WriteString(cell)
			continue
		}
		w.out.WriteByte('"')
		w.out.WriteString(strings.ReplaceAll(cell, `"`, `""`))
		w.out.WriteByte('"')
	}
	_, err := w.out.WriteString("\r\n")
	return err // bufio keeps its first error: every later write returns it
}

// Flush writes what is buffered and reports any error of the file so far.
func (w *Writer) Flush() error { return w.out.Flush() }

// Amount formats hundredths as money.Cents does ("15000.0", "12.5"), with a decimal comma in a
// Spanish Excel file: a plain number either way, no currency sign or grouping.
func (w *Writer) Amount(c int64) string {
	s := money.Cents(c).String()
	if w.comma {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// timeLayout is a local time every spreadsheet reads as a date and time.
const timeLayout = "2006-01-02 15:04:05"

// Time formats an instant in milliseconds in zone; "" for none.
func Time(ms *int64, zone *time.Location) string {
	if ms == nil {
		return ""
	}
	return time.UnixMilli(*ms).In(zone).Format(timeLayout)
}

// Neutralise makes a cell safe to open in a spreadsheet: one that starts with "=", "+", "-",
// "@", a tab or a carriage return would be read as a formula (or start one after the
// spreadsheet trims it), so it is prefixed with "'", as OWASP recommends ("CSV Injection").
func Neutralise(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + cell
	}
	return cell
}
