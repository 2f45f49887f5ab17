package importer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/clients"
	"frontdesk/db"
)

// Switching in (docs/data.md, "Switching in"): the client lists that Square Appointments,
// Fresha and SimplyBook export as CSV, read by column name into the import format's clients and
// checked and written by the same validator and writer as a JSON import (so by app/clients'
// rules), all or nothing. Rows are located by their line in the CSV file.

// Vendors are the systems whose client exports are read, by the name the command takes.
var Vendors = []string{"square", "fresha", "simplybook"}

// Field names of the client a CSV column fills.
const (
	colFirst    = "first_name"
	colLast     = "last_name"
	colFull     = "name" // a whole name, split at its first space
	colEmail    = "email"
	colPhone    = "phone"
	colPhone2   = "second_phone"
	colAddress  = "address"
	colAddress2 = "address2"
	colCity     = "city"
	colRegion   = "region"
	colBirthday = "birthday"
	colGender   = "gender"
	colRecord   = "record_number"
)

// vendorColumns maps each vendor's column headers (compared in lower case, spaces squeezed) to
// the client field they fill; docs/data.md lists them. Other columns are ignored, and named in
// the report.
var vendorColumns = map[string]map[string]string{
	"square": {
		"first name": colFirst, "given name": colFirst, "last name": colLast, "family name": colLast, "surname": colLast,
		"email address": colEmail, "email": colEmail, "phone number": colPhone, "phone": colPhone,
		"street address 1": colAddress, "address line 1": colAddress, "street address 2": colAddress2, "address line 2": colAddress2,
		"city": colCity, "locality": colCity, "state": colRegion, "administrative district level 1": colRegion,
		"birthday": colBirthday, "reference id": colRecord,
	},
	"fresha": {
		"first name": colFirst, "last name": colLast, "full name": colFull, "client": colFull,
		"email": colEmail, "email address": colEmail, "mobile number": colPhone, "mobile": colPhone, "phone": colPhone,
		"telephone": colPhone2, "address": colAddress, "apartment/suite": colAddress2, "city": colCity, "state": colRegion,
		"date of birth": colBirthday, "birthday": colBirthday, "gender": colGender, "client id": colRecord,
	},
	"simplybook": {
		"name": colFull, "client name": colFull, "full name": colFull, "first name": colFirst, "last name": colLast,
		"email": colEmail, "e-mail": colEmail, "phone": colPhone, "phone number": colPhone,
		"address": colAddress, "address 1": colAddress, "address1": colAddress, "address 2": colAddress2, "address2": colAddress2,
		"city": colCity, "state": colRegion, "region": colRegion,
	},
}

// RowOutcome is what happens to one row of a vendor file: it creates a client, or is skipped
// for Reason.
type RowOutcome struct {
	Line   int
	Create bool
	Reason string // why the row is skipped
	Name   string
	Email  string
	Phone  string
	// An appointment's: its start (in its location's zone, "2006-01-02 15:04"), service and
	// provider as the file names them; NewClient when its client is created too, History when
	// it is a past appointment brought as a past booking.
	Start, Service, Provider string
	NewClient, History       bool
	// Skip is why the row is skipped, for a page that says it in the reader's language.
	Skip Skip
	appt int // the row's appointment, its index + 1 (appointments.go)
}

// SkipCode is the kind of reason a row is skipped for.
type SkipCode int

// The reasons a row is skipped, with the Skip fields each one uses.
const (
	SkipOther       SkipCode = iota // Text: a rule of app/booking, as it says it
	SkipEmpty                       // an empty row
	SkipNoName                      // a client row without a name
	SkipSameEmail                   // Line: an earlier row has the email
	SkipSamePhone                   // Line: an earlier row without an email has the phone
	SkipClientEmail                 // ID: a stored client has the email
	SkipClientPhone                 // ID: a stored client has the phone (and the row no email)
	SkipNoService                   // Name: no active service by that name
	SkipNoProvider                  // Name: no active provider by that name
	SkipNoLocation                  // Name: no location by that name
	SkipPast                        // a past appointment, and no history asked for
	SkipCancelled                   // a cancelled appointment
	SkipNoClient                    // an appointment without a client name or a known client
	SkipOverlap                     // Name: the provider, who has another booking then
	SkipClassFull                   // the class session has no seat left
	SkipResource                    // Name: a resource the service needs (a room), taken then
)

// Skip is why a row is skipped.
type Skip struct {
	Code SkipCode
	Line int
	ID   int64
	Name string
	Text string
}

// SwitchReport is what an import of a vendor file did, or, on a dry run, would do.
type SwitchReport struct {
	Rows    []RowOutcome
	Ignored []string // the file's columns the mapping does not read
	Created int      // clients created, or for an appointments file bookings
	Skipped int
	DryRun  bool
	// Appointments says the file was an appointments export; Clients is how many clients its
	// bookings created.
	Appointments bool
	Clients      int
}

// errDryRun rolls back a dry run's transaction once everything was checked.
var errDryRun = errors.New("dry run")

// squeeze is a header as vendorColumns spells it.
var squeeze = regexp.MustCompile(`\s+`)

// SwitchOptions are the choices of an import from another system.
type SwitchOptions struct {
	// DryRun checks everything, writes nothing and reports what would be done.
	DryRun bool
	// History imports an appointments file's past appointments too, as attended (or no-show)
	// bookings; without it they are skipped.
	History bool
	// Notify sends the client of each booking an appointments file creates its confirmation,
	// as any new booking gets. Without it an imported booking is announced to nobody (its
	// client heard from the system it comes from) and gets only its reminders
	// (messages.BookingCreated).
	Notify bool
}

// LoadClientsCSV reads a vendor's client export and creates its clients, all or nothing; with
// dryRun it checks everything, writes nothing and reports what it would do. It is LoadVendorCSV
// without history.
func LoadClientsCSV(ctx context.Context, d *db.DB, vendor string, raw []byte, now time.Time, dryRun bool) (SwitchReport, error) {
	return LoadVendorCSV(ctx, d, vendor, raw, now, SwitchOptions{DryRun: dryRun})
}

// LoadVendorCSV reads a vendor's export — its client list, or its appointments (told apart by
// the header: an appointments file has a date and a service column) — and imports it, all or
// nothing. A row that cannot be imported (an address that is not an email, a phone number
// without a country where none can be assumed, a time that cannot be read, a spreadsheet
// formula) refuses the whole file with its line; rows for people already stored (the same
// email, or with no email the same phone) or repeated in the file, and rows without a name, are
// skipped, each with the reason. Appointments are booked through app/booking (see
// appointments.go).
func LoadVendorCSV(ctx context.Context, d *db.DB, vendor string, raw []byte, now time.Time, o SwitchOptions) (SwitchReport, error) {
	dryRun := o.DryRun
	report := SwitchReport{DryRun: dryRun}
	columns, ok := vendorColumns[vendor]
	if !ok {
		return report, fmt.Errorf("unknown system %q (want one of %s)", vendor, strings.Join(Vendors, ", "))
	}
	r, header, err := openVendorCSV(raw)
	if err != nil {
		return report, err
	}
	if isAppointments(vendor, header) {
		return loadAppointments(ctx, d, vendor, raw, r, header, now, o)
	}
	var ps problems
	field := make([]string, len(header))
	have := map[string]bool{}
	for i, h := range header {
		name := headerName(h)
		if f, ok := columns[name]; ok && !have[f] {
			field[i], have[f] = f, true
		} else if strings.TrimSpace(h) != "" {
			report.Ignored = append(report.Ignored, h)
		}
	}
	if !have[colFirst] && !have[colFull] {
		ps.add("", "line 1: no name column: a %s client export has %s; an appointments export has %s", vendor, nameColumns(columns), appointmentColumns(vendor))
		return report, ps.err()
	}
	country, err := businessCountry(ctx, d)
	if err != nil {
		return report, err
	}
	emails, phones := map[string]int{}, map[string]int{}
	sum := sha256.Sum256(raw)
	f := &File{}
	var lines []int // the line of each of f.Clients
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return report, readError(err)
		}
		line, _ := r.FieldPos(0)
		v := map[string]string{}
		for i, cell := range rec {
			if i < len(field) && field[i] != "" {
				v[field[i]] = unescapeCell(cell)
				if isFormula(v[field[i]]) {
					ps.add(fmt.Sprintf("line %d (%s)", line, header[i]), "the cell %s is a spreadsheet formula; type the value itself", v[field[i]])
				}
			}
		}
		out := RowOutcome{Line: line}
		first, last := v[colFirst], v[colLast]
		if first == "" && v[colFull] != "" {
			first, last, _ = strings.Cut(v[colFull], " ")
			last = strings.TrimSpace(last)
		}
		if first == "" && last != "" {
			first, last = last, ""
		}
		out.Name = strings.TrimSpace(first + " " + last)
		out.Email = strings.ToLower(v[colEmail])
		out.Phone = v[colPhone]
		if p, err := clients.NormalizePhoneIn(out.Phone, country); err == nil && out.Phone != "" {
			out.Phone = p
		}
		switch {
		case strings.Join(rec, "") == "":
			out.Reason, out.Skip = "empty row", Skip{Code: SkipEmpty}
		case first == "":
			out.Reason, out.Skip = "no name", Skip{Code: SkipNoName}
		case out.Email != "" && emails[out.Email] > 0:
			out.Reason, out.Skip = fmt.Sprintf("same email as line %d", emails[out.Email]), Skip{Code: SkipSameEmail, Line: emails[out.Email]}
		case out.Email == "" && out.Phone != "" && phones[out.Phone] > 0:
			out.Reason, out.Skip = fmt.Sprintf("no email, and the same phone as line %d", phones[out.Phone]), Skip{Code: SkipSamePhone, Line: phones[out.Phone]}
		}
		if out.Reason == "" {
			id, how, err := storedClient(ctx, d, out.Email, out.Phone)
			if err != nil {
				return report, err
			}
			if id != 0 {
				out.Reason, out.Skip = fmt.Sprintf("already a client (id %d, the same %s)", id, how), Skip{Code: SkipClientEmail, ID: id}
				if how == "phone" {
					out.Skip.Code = SkipClientPhone
				}
			}
		}
		if out.Reason != "" {
			report.Rows = append(report.Rows, out)
			report.Skipped++
			continue
		}
		if out.Email != "" {
			emails[out.Email] = line
		}
		if out.Phone != "" {
			phones[out.Phone] = line
		}
		out.Create = true
		report.Rows = append(report.Rows, out)
		c := Client{Key: fmt.Sprintf("%s-%x-line-%d", vendor, sum[:4], line), FirstName: first, LastName: opt(last),
			Email: opt(out.Email), Phone: opt(out.Phone), SecondPhone: opt(v[colPhone2]), City: opt(v[colCity]), Region: v[colRegion],
			RecordNumber: opt(v[colRecord])}
		if p, err := clients.NormalizePhoneIn(v[colPhone2], country); err == nil && v[colPhone2] != "" {
			c.SecondPhone = &p
		}
		if a := strings.TrimSpace(v[colAddress] + " " + v[colAddress2]); a != "" {
			c.Address = &a
		}
		birthday(v[colBirthday], &c)
		switch strings.ToLower(v[colGender]) {
		case "female", "f", "woman":
			c.Gender = 1
		case "male", "m", "man":
			c.Gender = 2
		}
		f.Clients = append(f.Clients, c)
		lines = append(lines, line)
	}
	if err := ps.err(); err != nil {
		return report, err
	}
	report.Created = len(f.Clients)
	err = loadFile(ctx, d, f, now, dryRun)
	var ie *Errors
	if errors.As(err, &ie) {
		for i, p := range ie.Problems {
			ie.Problems[i] = byLine(p, lines)
		}
		return report, ie
	}
	return report, err
}

// loadFile validates f and writes it in one transaction, rolled back on a dry run.
func loadFile(ctx context.Context, d *db.DB, f *File, now time.Time, dryRun bool) error {
	p, err := validate(f, now, &problems{})
	if err != nil {
		return err
	}
	err = d.InTx(ctx, func(q *db.Queries) error {
		if err := checkDatabase(ctx, q, p); err != nil {
			return err
		}
		if err := write(ctx, d, q, p, now); err != nil {
			return err
		}
		if dryRun {
			return errDryRun
		}
		return nil
	})
	if errors.Is(err, errDryRun) {
		return nil
	}
	return err
}

// clientPath is a problem's path within f.Clients: "clients[3].email".
var clientPath = regexp.MustCompile(`^clients\[(\d+)\]\.?(.*)$`)

// byLine turns a problem's JSON path into the CSV line of its row, with the field it is about.
func byLine(p Problem, lines []int) Problem {
	m := clientPath.FindStringSubmatch(p.Path)
	if m == nil {
		return p
	}
	i, _ := strconv.Atoi(m[1])
	if i >= len(lines) {
		return p
	}
	path := fmt.Sprintf("line %d", lines[i])
	if m[2] != "" && m[2] != "key" {
		path += " (" + m[2] + ")"
	}
	return Problem{Path: path, Msg: p.Msg}
}

// openVendorCSV checks a vendor file's bytes (size, UTF-8, a header) and returns a reader past
// its header row. A byte-order mark is dropped; the separator is guessed (separator).
func openVendorCSV(raw []byte) (*csv.Reader, []string, error) {
	var ps problems
	if len(raw) > MaxFileSize {
		ps.add("", "the file is larger than %d MiB", MaxFileSize>>20)
		return nil, nil, ps.err()
	}
	if !utf8.Valid(raw) {
		ps.add("", "the file is not valid UTF-8 (save it from the spreadsheet as \"CSV UTF-8\")")
		return nil, nil, ps.err()
	}
	raw = bytes.TrimPrefix(raw, []byte("\uFEFF"))
	r := csv.NewReader(bytes.NewReader(raw))
	r.Comma = separator(raw)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err == io.EOF {
		ps.add("", "the file is empty (want a header row and a row per client or appointment)")
		return nil, nil, ps.err()
	}
	if err != nil {
		ps.add("", "line 1: %v", unwrapParse(err))
		return nil, nil, ps.err()
	}
	return r, header, nil
}

// readError is a problem for a record the CSV reader could not read, at its line.
func readError(err error) error {
	var ps problems
	line := 0
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		line = pe.StartLine
	}
	ps.add("", "line %d: %v", line, unwrapParse(err))
	return ps.err()
}

// headerName is a header as the column maps spell it: trimmed, in lower case, underscores as
// spaces (a database's column names: "first_name"), its spaces squeezed, without a byte-order
// mark.
func headerName(h string) string {
	h = strings.ReplaceAll(strings.TrimPrefix(strings.TrimSpace(h), "\uFEFF"), "_", " ")
	return strings.ToLower(squeeze.ReplaceAllString(strings.TrimSpace(h), " "))
}

// unescapeCell is a cell's text, trimmed, without the apostrophe a CSV export (ours among
// them: docs/data.md, "The file") writes before a leading =, +, - or @ so a spreadsheet shows
// it as text.
func unescapeCell(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@", rune(s[1])) {
		return s[1:]
	}
	return s
}

// formula is a cell a spreadsheet would run: an = first, or +, - or @ before a function call.
var formula = regexp.MustCompile(`^(=|[+\-@]\s*[A-Za-z_][A-Za-z0-9_.]*\s*\()`)

// isFormula reports whether a cell is a spreadsheet formula rather than a value: such a cell
// in another system's export was typed as one, or planted, and its value is not in the file.
func isFormula(s string) bool { return formula.MatchString(s) }

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// birthday reads a birthday as the vendors write it: "YYYY-MM-DD", or "MM-DD" without a year
// (Square); anything else is left out rather than guessed (05/04 is May or April).
func birthday(s string, c *Client) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		d, m, y := int64(t.Day()), int64(t.Month()), int64(t.Year())
		c.BirthDay, c.BirthMonth, c.BirthYear = &d, &m, &y
		return
	}
	if t, err := time.Parse("01-02", s); err == nil {
		d, m := int64(t.Day()), int64(t.Month())
		c.BirthDay, c.BirthMonth = &d, &m
	}
}

// separator guesses the file's separator from its first line: the one of , ; and tab that it
// holds most (spreadsheets in languages with a decimal comma write ";").
func separator(raw []byte) rune {
	first, _, _ := bytes.Cut(raw, []byte("\n"))
	best, n := ',', bytes.Count(first, []byte(","))
	for _, c := range []rune{';', '\t'} {
		if k := bytes.Count(first, []byte(string(c))); k > n {
			best, n = c, k
		}
	}
	return best
}

func unwrapParse(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func nameColumns(columns map[string]string) string {
	var names []string
	for h, f := range columns {
		if f == colFirst || f == colFull {
			names = append(names, strconv.Quote(h))
		}
	}
	slices.Sort(names)
	return strings.Join(names, " or ")
}

// businessCountry is the country of the business's first location: a phone number written
// without its country code is read as dialled there.
func businessCountry(ctx context.Context, d *db.DB) (string, error) {
	var code string
	err := d.Read.QueryRowContext(ctx, `SELECT c.code FROM locations l JOIN countries c ON c.id = l.country_id
	WHERE l.active = 1 ORDER BY l.id LIMIT 1`).Scan(&code)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return code, err
}

// storedClient is the client already stored with this email, or with no email this phone.
func storedClient(ctx context.Context, d *db.DB, email, phone string) (int64, string, error) {
	var id int64
	var err error
	how := "email"
	switch {
	case email != "":
		err = d.Read.QueryRowContext(ctx, `SELECT id FROM clients WHERE lower(email) = ? ORDER BY id LIMIT 1`, email).Scan(&id)
	case phone != "":
		how = "phone"
		err = d.Read.QueryRowContext(ctx, `SELECT id FROM clients WHERE phone = ? ORDER BY id LIMIT 1`, phone).Scan(&id)
	default:
		return 0, "", nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	return id, how, err
}
