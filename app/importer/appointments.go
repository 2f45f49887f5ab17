package importer

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/clients"
	"frontdesk/app/fail"
	"frontdesk/app/messages"
	"frontdesk/db"
)

// Appointments from another system (docs/data.md, "Appointments"): the bookings export of
// Square Appointments, Fresha or SimplyBook, read by column name. Each row still ahead becomes
// a booking made through app/booking — the same rules as a booking the owner makes in the
// admin, so a provider is never double-booked: a row that would overlap another booking is
// skipped with the reason, never forced. Service, provider and location are matched by name
// among the business's own; a row naming one that is not there is skipped (the import creates
// no services or providers, which need prices, durations and hours the file does not hold).
// The client is matched by email, then phone, or created. Everything, clients and bookings, is
// written in one transaction, or nothing.

// Field names of the appointment a CSV column fills (besides the client's: colFirst, colLast,
// colFull, colEmail, colPhone).
const (
	colDate     = "date"     // the day, or the day and time
	colTime     = "time"     // the start's time of day, when the date column has none
	colEnd      = "end"      // the end's time of day, or day and time
	colDuration = "duration" // minutes ("60", "60 min", "1h 30min")
	colService  = "service"
	colProvider = "provider"
	colLocation = "location"
	colStatus   = "status"
	colNotes    = "notes"
)

// appointmentColumnsOf maps each vendor's appointment export headers (as headerName spells
// them) to the field they fill; docs/data.md lists them with their sources.
var appointmentColumnsOf = map[string]map[string]string{
	"square": {
		"date": colDate, "start date": colDate, "start time": colTime, "time": colTime, "end time": colEnd,
		"duration": colDuration, "duration (minutes)": colDuration,
		"service": colService, "services": colService, "service name": colService,
		"staff": colProvider, "staff member": colProvider, "team member": colProvider,
		"location": colLocation, "status": colStatus, "notes": colNotes, "seller note": colNotes,
		"customer": colFull, "customer name": colFull, "client": colFull, "client name": colFull,
		"first name": colFirst, "given name": colFirst, "last name": colLast, "family name": colLast,
		"email": colEmail, "email address": colEmail, "customer email": colEmail,
		"phone": colPhone, "phone number": colPhone, "customer phone": colPhone,
	},
	"fresha": {
		"scheduled date": colDate, "date": colDate, "start date": colDate, "time": colTime, "start time": colTime,
		"scheduled time": colTime, "end time": colEnd, "duration": colDuration, "duration (min)": colDuration,
		"service": colService, "service name": colService, "team member": colProvider, "staff": colProvider,
		"location": colLocation, "status": colStatus, "notes": colNotes,
		"client": colFull, "client name": colFull, "full name": colFull, "first name": colFirst, "last name": colLast,
		"email": colEmail, "client email": colEmail, "mobile number": colPhone, "mobile": colPhone, "phone": colPhone,
		"client mobile": colPhone, "client phone": colPhone,
	},
	"simplybook": {
		"date": colDate, "start date": colDate, "start date time": colDate, "start time": colTime, "time": colTime,
		"end date time": colEnd, "end time": colEnd, "end date": colEnd, "duration": colDuration,
		"service": colService, "service provider": colProvider, "provider": colProvider, "performer": colProvider,
		"location": colLocation, "unit": colLocation, "status": colStatus, "comment": colNotes, "notes": colNotes,
		"client": colFull, "client name": colFull, "name": colFull,
		"client email": colEmail, "email": colEmail, "client phone": colPhone, "phone": colPhone,
	},
}

// isAppointments reports whether a vendor file's header is an appointments export's: it has a
// date and a service column.
func isAppointments(vendor string, header []string) bool {
	columns := appointmentColumnsOf[vendor]
	var date, service bool
	for _, h := range header {
		switch columns[headerName(h)] {
		case colDate:
			date = true
		case colService:
			service = true
		}
	}
	return date && service
}

// appointmentColumns names the columns that make a vendor file an appointments export.
func appointmentColumns(vendor string) string {
	var date, service []string
	for h, f := range appointmentColumnsOf[vendor] {
		switch f {
		case colDate:
			date = append(date, fmt.Sprintf("%q", h))
		case colService:
			service = append(service, fmt.Sprintf("%q", h))
		}
	}
	slices.Sort(date)
	slices.Sort(service)
	return "a date column (" + strings.Join(date, ", ") + ") and a service column (" + strings.Join(service, ", ") + ")"
}

// appointment is one row of an appointments file, read.
type appointment struct {
	line                   int
	start, end             time.Time // end zero: the service's duration
	service, provider, loc int64
	client                 int64 // a stored client; 0 when newClient names one of f.Clients
	newClient              int   // index in f.Clients + 1; 0 for a stored client
	status                 int64
	notes                  *string
	providerName           string
}

// loadAppointments imports an appointments file (isAppointments), all or nothing.
func loadAppointments(ctx context.Context, d *db.DB, vendor string, raw []byte, r *csv.Reader, header []string,
	now time.Time, o SwitchOptions) (SwitchReport, error) {
	report := SwitchReport{DryRun: o.DryRun, Appointments: true}
	columns := appointmentColumnsOf[vendor]
	field := make([]string, len(header))
	have := map[string]bool{}
	for i, h := range header {
		if f, ok := columns[headerName(h)]; ok && !have[f] {
			field[i], have[f] = f, true
		} else if strings.TrimSpace(h) != "" {
			report.Ignored = append(report.Ignored, h)
		}
	}
	cat, err := loadRecords(ctx, d)
	if err != nil {
		return report, err
	}
	country, err := businessCountry(ctx, d)
	if err != nil {
		return report, err
	}
	var ps problems
	sum := sha256.Sum256(raw)
	f := &File{}
	var lines []int                                              // the line of each of f.Clients
	newByEmail, newByPhone := map[string]int{}, map[string]int{} // index in f.Clients + 1
	var appts []appointment
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
		bad := false
		for i, cell := range rec {
			if i < len(field) && field[i] != "" {
				v[field[i]] = unescapeCell(cell)
				if isFormula(v[field[i]]) {
					ps.add(fmt.Sprintf("line %d (%s)", line, header[i]), "the cell %s is a spreadsheet formula; type the value itself", v[field[i]])
					bad = true
				}
			}
		}
		if bad {
			continue
		}
		out := RowOutcome{Line: line, Service: v[colService], Provider: v[colProvider]}
		first, last := v[colFirst], v[colLast]
		if first == "" && v[colFull] != "" {
			first, last, _ = strings.Cut(v[colFull], " ")
			last = strings.TrimSpace(last)
		}
		out.Name = strings.TrimSpace(first + " " + last)
		out.Email = strings.ToLower(v[colEmail])
		out.Phone = v[colPhone]
		if p, err := clients.NormalizePhoneIn(out.Phone, country); err == nil && out.Phone != "" {
			out.Phone = p
		}
		skip := func(why Skip, format string, args ...any) {
			out.Reason, out.Skip = fmt.Sprintf(format, args...), why
			report.Rows = append(report.Rows, out)
			report.Skipped++
		}
		if strings.Join(rec, "") == "" {
			skip(Skip{Code: SkipEmpty}, "empty row")
			continue
		}
		out.Start = strings.TrimSpace(v[colDate] + " " + v[colTime])
		a := appointment{line: line}
		var ok bool
		if a.service, ok = cat.services[strings.ToLower(v[colService])]; !ok {
			skip(Skip{Code: SkipNoService, Name: v[colService]}, "no service named %q here (add it under Catalog → Services, then import the file again)", v[colService])
			continue
		}
		if a.provider, ok = cat.providers[strings.ToLower(v[colProvider])]; !ok {
			skip(Skip{Code: SkipNoProvider, Name: v[colProvider]}, "no provider named %q here (add them under Catalog → Providers, then import the file again)", v[colProvider])
			continue
		}
		a.providerName = cat.providerNames[a.provider]
		a.loc = cat.providerLocation[a.provider]
		if name := v[colLocation]; name != "" {
			if a.loc, ok = cat.locations[strings.ToLower(name)]; !ok {
				skip(Skip{Code: SkipNoLocation, Name: name}, "no location named %q here", name)
				continue
			}
		}
		zone := cat.zones[a.loc]
		start, end, err := appointmentTimes(v, zone)
		if err != nil {
			ps.add(fmt.Sprintf("line %d", line), "%v", err)
			continue
		}
		a.start, a.end = start, end
		out.Start = start.In(zone).Format("2006-01-02 15:04")
		past := start.Before(now)
		status := strings.ToLower(strings.NewReplacer("-", " ", "_", " ").Replace(v[colStatus]))
		switch {
		case strings.Contains(status, "cancel") || strings.Contains(status, "declin") || strings.Contains(status, "reject"):
			skip(Skip{Code: SkipCancelled}, "cancelled in %s", vendor)
			continue
		case past && !o.History:
			skip(Skip{Code: SkipPast}, "in the past (choose to import the history to bring it as a past booking)")
			continue
		case past && (strings.Contains(status, "no show") || strings.Contains(status, "noshow") || strings.Contains(status, "missed")):
			a.status = booking.StatusNoShow
		case past:
			a.status = booking.StatusAttended
		default:
			a.status = booking.StatusConfirmed
		}
		if n := v[colNotes]; n != "" {
			a.notes = &n
		}
		// The client: one stored with this email (or, without one, phone), one this file
		// creates already, or a new one.
		id, _, err := storedClient(ctx, d, out.Email, out.Phone)
		if err != nil {
			return report, err
		}
		switch {
		case id != 0:
			a.client = id
		case out.Email != "" && newByEmail[out.Email] > 0:
			a.newClient = newByEmail[out.Email]
		case out.Email == "" && out.Phone != "" && newByPhone[out.Phone] > 0:
			a.newClient = newByPhone[out.Phone]
		case first == "":
			skip(Skip{Code: SkipNoClient}, "no client name, and no client here with that email or phone")
			continue
		default:
			f.Clients = append(f.Clients, Client{Key: fmt.Sprintf("%s-%x-line-%d", vendor, sum[:4], line), FirstName: first,
				LastName: opt(last), Email: opt(out.Email), Phone: opt(out.Phone)})
			lines = append(lines, line)
			a.newClient = len(f.Clients)
			out.NewClient = true
			if out.Email != "" {
				newByEmail[out.Email] = a.newClient
			}
			if out.Phone != "" {
				newByPhone[out.Phone] = a.newClient
			}
		}
		out.Create = true
		out.History = past
		appts = append(appts, a)
		out.appt = len(appts)
		report.Rows = append(report.Rows, out)
	}
	if err := ps.err(); err != nil {
		return report, err
	}
	// Two passes through the write: the first, always rolled back, finds which bookings the
	// rules accept; the second creates only the clients those bookings need, with them, or on a
	// dry run rolls back as well.
	first, err := bookAppointments(ctx, d, f, lines, appts, report, now, true, false)
	if err != nil {
		return report, err
	}
	used := make([]bool, len(f.Clients))
	for _, row := range first.Rows {
		if row.Create && appts[row.appt-1].newClient > 0 {
			used[appts[row.appt-1].newClient-1] = true
		}
	}
	kept := &File{}
	var keptLines []int
	renumber := make([]int, len(f.Clients)) // index in f.Clients → index in kept.Clients + 1
	for i, c := range f.Clients {
		if used[i] {
			kept.Clients = append(kept.Clients, c)
			keptLines = append(keptLines, lines[i])
			renumber[i] = len(kept.Clients)
		}
	}
	var keptAppts []appointment
	created := map[int]bool{} // the kept clients a row before creates
	for i := range first.Rows {
		row := &first.Rows[i]
		row.NewClient = false
		if !row.Create {
			row.appt = 0
			continue
		}
		a := appts[row.appt-1]
		if a.newClient > 0 {
			a.newClient = renumber[a.newClient-1]
			row.NewClient, created[a.newClient] = !created[a.newClient], true
		}
		keptAppts = append(keptAppts, a)
		row.appt = len(keptAppts)
	}
	return bookAppointments(ctx, d, kept, keptLines, keptAppts, first, now, o.DryRun, o.Notify)
}

// bookAppointments writes f's clients, then books appts through app/booking in the same
// transaction, one for each row of report still to create; a booking the rules refuse
// (another booking holds the provider) writes nothing and its row is skipped with the reason.
// With notify each booking's client is sent its confirmation (SwitchOptions.Notify). With
// rollback it writes nothing and reports what it would do.
func bookAppointments(ctx context.Context, d *db.DB, f *File, lines []int, appts []appointment, report SwitchReport,
	now time.Time, rollback, notify bool) (SwitchReport, error) {
	p, err := validate(f, now, &problems{})
	var ie *Errors
	if errors.As(err, &ie) {
		for i, pr := range ie.Problems {
			ie.Problems[i] = byLine(pr, lines)
		}
		return report, ie
	}
	if err != nil {
		return report, err
	}
	var done SwitchReport
	err = d.InTx(ctx, func(q *db.Queries) error {
		done = report
		done.Rows = append([]RowOutcome(nil), report.Rows...)
		if err := checkDatabase(ctx, q, p); err != nil {
			return err
		}
		if err := write(ctx, d, q, p, now); err != nil {
			return err
		}
		newIDs := make([]int64, len(f.Clients))
		for i, c := range f.Clients {
			k, err := storedKey(ctx, q, "client", c.Key)
			if err != nil {
				return fmt.Errorf("line %d: the new client: %w", lines[i], err)
			}
			newIDs[i] = k.RecordID
		}
		joined := db.WithTx(ctx, q)
		for i := range done.Rows {
			row := &done.Rows[i]
			if !row.Create {
				continue
			}
			a := appts[row.appt-1]
			client := a.client
			if a.newClient > 0 {
				client = newIDs[a.newClient-1]
			}
			made, err := booking.Create(joined, d, now, booking.NewBooking{
				LocationID: a.loc, ServiceID: a.service, ProviderID: a.provider, ClientID: client,
				StatusID: a.status, Start: a.start, End: a.end, Notes: a.notes, Source: booking.SourceImport,
			})
			if err == nil && notify {
				err = messages.ConfirmImported(ctx, q, now, made.Booking)
			}
			var inv *booking.InvalidError
			var taken *booking.ResourceTakenError
			var coded fail.Coded
			var refused *fail.Error
			switch {
			case errors.Is(err, booking.ErrSlotUnavailable):
				row.Create, row.Skip = false, Skip{Code: SkipOverlap, Name: a.providerName}
				row.Reason = fmt.Sprintf("%s already has a booking then (not double-booked)", a.providerName)
			case errors.Is(err, booking.ErrClassFull):
				row.Create, row.Reason, row.Skip = false, "the class session is full", Skip{Code: SkipClassFull}
			case errors.As(err, &taken):
				row.Create, row.Skip = false, Skip{Code: SkipResource, Name: taken.Name}
				row.Reason = fmt.Sprintf("%s is taken then", taken.Name)
			case errors.As(err, &inv):
				row.Create, row.Reason, row.Skip = false, inv.Message, Skip{Text: inv.Message}
			case errors.As(err, &coded), errors.As(err, &refused): // another of the engine's refusals
				row.Create, row.Reason, row.Skip = false, err.Error(), Skip{Text: err.Error()}
			case err != nil:
				return fmt.Errorf("line %d: %w", a.line, err)
			}
		}
		done.Created, done.Skipped, done.Clients = 0, 0, 0
		for _, row := range done.Rows {
			switch {
			case !row.Create:
				done.Skipped++
			case row.NewClient:
				done.Clients++
				fallthrough
			default:
				done.Created++
			}
		}
		if rollback {
			return errDryRun
		}
		return nil
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	if errors.As(err, &ie) {
		for i, pr := range ie.Problems {
			ie.Problems[i] = byLine(pr, lines)
		}
		return report, ie
	}
	if err != nil {
		return report, err
	}
	return done, nil
}

// businessRecords are the business's records an appointment names, by name in lower case.
type businessRecords struct {
	services, providers, locations map[string]int64
	providerLocation               map[int64]int64 // a provider's main location
	providerNames                  map[int64]string
	zones                          map[int64]*time.Location
}

func loadRecords(ctx context.Context, d *db.DB) (businessRecords, error) {
	c := businessRecords{services: map[string]int64{}, providers: map[string]int64{}, locations: map[string]int64{},
		providerLocation: map[int64]int64{}, providerNames: map[int64]string{}, zones: map[int64]*time.Location{}}
	byName := func(query string, into map[string]int64, also func(id, other int64, name, text string) error) error {
		rows, err := d.Read.QueryContext(ctx, query)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, other int64
			var name, text string
			if err := rows.Scan(&id, &name, &other, &text); err != nil {
				return err
			}
			key := strings.ToLower(strings.TrimSpace(name))
			if _, dup := into[key]; !dup { // the first by id when two share a name
				into[key] = id
			}
			if also != nil {
				if err := also(id, other, name, text); err != nil {
					return err
				}
			}
		}
		return rows.Err()
	}
	err := byName(`SELECT id, name, 0, '' FROM services WHERE active = 1 ORDER BY id`, c.services, nil)
	if err == nil {
		err = byName(`SELECT id, public_name, location_id, '' FROM providers WHERE active = 1 ORDER BY id`, c.providers,
			func(id, loc int64, name, _ string) error {
				c.providerLocation[id], c.providerNames[id] = loc, name
				return nil
			})
	}
	if err == nil {
		err = byName(`SELECT id, name, 0, timezone FROM locations ORDER BY id`, c.locations, func(id, _ int64, _, zone string) error {
			z, err := booking.LoadZone(zone)
			if err != nil {
				return fmt.Errorf("location %d: %w", id, err)
			}
			c.zones[id] = z
			return nil
		})
	}
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	return c, err
}

// Date and time forms an appointments file may use. Dates with the day and month as numbers in
// another order (05/04/2026) are refused rather than guessed.
var (
	dateForms     = []string{"2006-01-02", "2006/01/02", "Jan 2, 2006", "January 2, 2006", "2 Jan 2006", "2 January 2006", "Mon, Jan 2, 2006", "Mon 2 Jan 2006", "Monday, January 2, 2006"}
	timeForms     = []string{"15:04", "15:04:05", "3:04 PM", "3:04PM", "3:04 pm", "3:04pm", "3 PM", "3PM", "3pm", "3 pm"}
	dateTimeForms = func() []string {
		forms := []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02T15:04:05"}
		for _, d := range dateForms {
			for _, t := range timeForms {
				forms = append(forms, d+" "+t, d+", "+t, d+" at "+t)
			}
		}
		return forms
	}()
)

// appointmentTimes reads a row's start (a date and time column, or a date column holding both)
// and its end (an end column or a duration; neither: the service's duration), as wall-clock
// times in zone.
func appointmentTimes(v map[string]string, zone *time.Location) (start, end time.Time, err error) {
	date, clock := v[colDate], v[colTime]
	switch {
	case date == "":
		return start, end, errors.New("no date")
	case clock != "":
		start, err = parseIn(date+" "+clock, dateTimeForms, zone)
	default:
		start, err = parseIn(date, dateTimeForms, zone)
	}
	if err != nil {
		return start, end, fmt.Errorf("cannot read the start %q (want a date such as 2026-12-10 or Dec 10, 2026 and a time such as 15:30 or 3:30 PM)", strings.TrimSpace(date+" "+clock))
	}
	if s := v[colEnd]; s != "" {
		if end, err = parseIn(s, dateTimeForms, zone); err != nil {
			t, terr := parseIn(s, timeForms, time.UTC)
			if terr != nil {
				return start, end, fmt.Errorf("cannot read the end %q", s)
			}
			y, m, d := start.In(zone).Date()
			end = time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, zone)
		}
		if !end.After(start) {
			return start, end, fmt.Errorf("the end %q is not after the start", s)
		}
		return start, end, nil
	}
	if s := v[colDuration]; s != "" {
		min, ok := minutes(s)
		if !ok {
			return start, end, fmt.Errorf("cannot read the duration %q (want minutes, such as 45 or 1h 30min)", s)
		}
		end = start.Add(time.Duration(min) * time.Minute)
	}
	return start, end, nil
}

func parseIn(s string, forms []string, zone *time.Location) (time.Time, error) {
	s = squeeze.ReplaceAllString(strings.TrimSpace(s), " ")
	for _, f := range forms {
		if t, err := time.ParseInLocation(f, s, zone); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("unreadable")
}

// minutes reads a duration as "45", "45 min", "1h", "1h 30min", "1:30" or "90 minutes".
func minutes(s string) (int, bool) {
	s = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	var h, m int
	if n, err := fmt.Sscanf(s, "%d:%d", &h, &m); err == nil && n == 2 {
		return h*60 + m, h*60+m > 0
	}
	if d, err := time.ParseDuration(strings.NewReplacer("minutes", "m", "minute", "m", "mins", "m", "min", "m", "hours", "h", "hour", "h", "hrs", "h", "hr", "h").Replace(s)); err == nil {
		return int(d.Minutes()), d >= time.Minute && d%time.Minute == 0
	}
	if n, err := fmt.Sscanf(s, "%d", &m); err == nil && n == 1 && fmt.Sprint(m) == s {
		return m, m > 0
	}
	return 0, false
}
