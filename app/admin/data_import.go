package admin

import (
	"encoding/base64"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"frontdesk/app/importer"
	"frontdesk/ui"
)

// Settings → Data → Import from another system (docs/data.md, "Switching in"): the owner
// uploads the client list or the appointments that Square Appointments, Fresha or SimplyBook
// exported, sees what a dry run would create and skip, and imports it — the same code as
// `frontdesk import --from`, all or nothing. The dry run's page carries the file to the import
// in a hidden field, so nothing is kept on the server between the two; the import checks the
// file again whole.

// maxUpload bounds the file the admin takes: a client list of tens of thousands of rows. A
// larger file goes through `frontdesk import --from`, which reads up to importer.MaxFileSize.
const maxUpload = 2 << 20

// importBodyLimit bounds the body of the two import requests: the file, base64-encoded on the
// way to the import, and the form around it.
const importBodyLimit = maxUpload*4/3 + 64<<10

// importPaths are the requests whose body may be as large as importBodyLimit (limitBody);
// the upload, a multipart form, is read by its handler rather than readForm.
const (
	importPath    = "/settings/data/import"
	importRunPath = "/settings/data/import/run"
)

func (a *Admin) showDataImport(w http.ResponseWriter, r *http.Request) {
	a.renderDataImport(w, r, http.StatusOK, ui.DataImportView{Form: ui.NewForm(nil)})
}

func (a *Admin) renderDataImport(w http.ResponseWriter, r *http.Request, status int, v ui.DataImportView) {
	a.render(w, r, status, ui.DataImportPage(a.page(r, translate(r, "data.import.title")), v))
}

// checkDataImport reads the uploaded file and shows what importing it would do (a dry run).
func (a *Admin) checkDataImport(w http.ResponseWriter, r *http.Request) {
	f := ui.NewForm(nil)
	v := ui.DataImportView{Form: f}
	raw, err := readUpload(r, f)
	if err != nil {
		var tooLarge *http.MaxBytesError
		status := http.StatusBadRequest
		switch {
		case errors.As(err, &tooLarge), errors.Is(err, errUploadTooLarge):
			status = http.StatusRequestEntityTooLarge
			f.SetError("file", translate(r, "data.import.too_large", "size", strconv.Itoa(maxUpload>>20)))
		case errors.Is(err, errNoUpload):
			f.SetError("file", translate(r, "data.import.no_file"))
		default:
			f.Message = translate(r, "data.import.unreadable")
		}
		a.renderDataImport(w, r, status, v)
		return
	}
	vendor := f.Get("vendor")
	if !slices.Contains(importer.Vendors, vendor) {
		f.SetError("vendor", translate(r, "data.import.vendor.required"))
		a.renderDataImport(w, r, http.StatusUnprocessableEntity, v)
		return
	}
	opt := importer.SwitchOptions{DryRun: true, History: f.Checked("history", "1"), Notify: f.Checked("notify", "1")}
	report, err := importer.LoadVendorCSV(r.Context(), a.db, vendor, raw, a.now(), opt)
	if ie := (*importer.Errors)(nil); errors.As(err, &ie) {
		v.Problems, v.More = problemLines(ie), ie.More
		a.renderDataImport(w, r, http.StatusUnprocessableEntity, v)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v.Checked, v.File, v.Vendor, v.History, v.Notify = true, base64.StdEncoding.EncodeToString(raw), vendor, opt.History, opt.Notify
	v.Appointments, v.Created, v.Clients, v.Skipped = report.Appointments, report.Created, report.Clients, report.Skipped
	v.Ignored = strings.Join(report.Ignored, ", ")
	for _, row := range report.Rows {
		v.Rows = append(v.Rows, a.importRow(r, report.Appointments, row))
	}
	a.renderDataImport(w, r, http.StatusOK, v)
}

// runDataImport imports the file the dry run showed, all or nothing, and goes back to
// Settings → Data with what it did.
func (a *Admin) runDataImport(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	raw, err := base64.StdEncoding.DecodeString(f.Raw("file"))
	vendor := f.Get("vendor")
	if err != nil || len(raw) == 0 || len(raw) > maxUpload || !slices.Contains(importer.Vendors, vendor) {
		f := ui.NewForm(nil)
		f.Message = translate(r, "data.import.unreadable")
		a.renderDataImport(w, r, http.StatusBadRequest, ui.DataImportView{Form: f})
		return
	}
	opt := importer.SwitchOptions{History: f.Checked("history", "1"), Notify: f.Checked("notify", "1")}
	report, err := importer.LoadVendorCSV(r.Context(), a.db, vendor, raw, a.now(), opt)
	if ie := (*importer.Errors)(nil); errors.As(err, &ie) {
		v := ui.DataImportView{Form: ui.NewForm(nil), Problems: problemLines(ie), More: ie.More}
		a.renderDataImport(w, r, http.StatusUnprocessableEntity, v)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	done := translate(r, "data.import.done.clients", "count", report.Created)
	if report.Appointments {
		done = translate(r, "data.import.done.bookings", "count", report.Created)
		if report.Clients > 0 {
			done += " " + translate(r, "data.import.done.new_clients", "count", report.Clients)
		}
	}
	a.flash(r.Context(), ui.FlashSuccess, done+" "+translate(r, "data.import.done.skipped", "count", report.Skipped))
	seeOther(w, r, "/settings/data")
}

// problemLines are the problems that refuse a file, one line each, as the command prints them.
func problemLines(ie *importer.Errors) []string {
	lines := make([]string, 0, len(ie.Problems))
	for _, p := range ie.Problems {
		lines = append(lines, p.String())
	}
	return lines
}

var (
	errNoUpload       = errors.New("no file")
	errUploadTooLarge = errors.New("file too large")
)

// readUpload reads the multipart upload whole — the form's fields into f, the file into
// memory — before anything acts on it, as readForm does for other forms.
func readUpload(r *http.Request, f *ui.Form) ([]byte, error) {
	if err := r.ParseMultipartForm(importBodyLimit); err != nil {
		return nil, err
	}
	defer r.MultipartForm.RemoveAll()
	for name, values := range r.MultipartForm.Value {
		if len(values) != 1 {
			return nil, errors.New("form field sent more than once")
		}
		f.Set(name, values[0])
	}
	files := r.MultipartForm.File["file"]
	if len(files) == 0 || files[0].Size == 0 {
		return nil, errNoUpload
	}
	if len(files) > 1 {
		return nil, errors.New("more than one file")
	}
	if files[0].Size > maxUpload {
		return nil, errUploadTooLarge
	}
	return readPart(files[0])
}

func readPart(h *multipart.FileHeader) ([]byte, error) {
	file, err := h.Open()
	if err != nil {
		return nil, err
	}
	defer file.Close()
	raw, err := io.ReadAll(io.LimitReader(file, maxUpload+1))
	if err == nil && len(raw) > maxUpload {
		err = errUploadTooLarge
	}
	return raw, err
}

// importRow is one row of the dry run as the page shows it, its reason in the owner's language.
func (a *Admin) importRow(r *http.Request, appointments bool, row importer.RowOutcome) ui.ImportRow {
	who := row.Name
	for _, c := range []string{row.Email, row.Phone} {
		if c != "" {
			who = strings.TrimSpace(who + " · " + c)
		}
	}
	out := ui.ImportRow{Line: row.Line, Create: row.Create, Who: strings.TrimPrefix(who, "· ")}
	if appointments {
		out.Booking = translate(r, "data.import.row.booking", "start", row.Start, "service", row.Service, "provider", row.Provider)
		switch {
		case row.Create && row.History:
			out.Note = translate(r, "data.import.row.history")
		case row.Create && row.NewClient:
			out.Note = translate(r, "data.import.row.new_client")
		}
	}
	if !row.Create {
		out.Note = skipReason(r, row.Skip)
	}
	return out
}

// skipReason is why a row is skipped, in the owner's language; a reason the importer has no
// code for (a rule of app/booking) is shown as it came.
func skipReason(r *http.Request, s importer.Skip) string {
	switch s.Code {
	case importer.SkipEmpty:
		return translate(r, "data.import.skip.empty")
	case importer.SkipNoName:
		return translate(r, "data.import.skip.no_name")
	case importer.SkipSameEmail:
		return translate(r, "data.import.skip.same_email", "line", s.Line)
	case importer.SkipSamePhone:
		return translate(r, "data.import.skip.same_phone", "line", s.Line)
	case importer.SkipClientEmail:
		return translate(r, "data.import.skip.client_email", "id", s.ID)
	case importer.SkipClientPhone:
		return translate(r, "data.import.skip.client_phone", "id", s.ID)
	case importer.SkipNoService:
		return translate(r, "data.import.skip.no_service", "name", s.Name)
	case importer.SkipNoProvider:
		return translate(r, "data.import.skip.no_provider", "name", s.Name)
	case importer.SkipNoLocation:
		return translate(r, "data.import.skip.no_location", "name", s.Name)
	case importer.SkipPast:
		return translate(r, "data.import.skip.past")
	case importer.SkipCancelled:
		return translate(r, "data.import.skip.cancelled")
	case importer.SkipNoClient:
		return translate(r, "data.import.skip.no_client")
	case importer.SkipOverlap:
		return translate(r, "data.import.skip.overlap", "name", s.Name)
	case importer.SkipClassFull:
		return translate(r, "data.import.skip.class_full")
	case importer.SkipResource:
		return translate(r, "data.import.skip.resource", "name", s.Name)
	}
	return s.Text
}
