package messages

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/locale"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// FieldError is a refused setting, for forms that show errors next to the field.
type FieldError struct {
	Field string
	Msg   i18n.Msg
}

// FieldErrors are every refused setting of one save.
type FieldErrors []FieldError

func (e FieldErrors) Error() string {
	parts := make([]string, len(e))
	for i, f := range e {
		parts[i] = f.Field + ": " + f.Msg.Error()
	}
	return strings.Join(parts, "; ")
}

// KindSetting is one message type's switches.
type KindSetting struct {
	Kind      Kind
	Enabled   bool
	OwnerCopy bool
}

// Settings is Settings → Messages as stored. The password is never returned, only whether
// one is stored.
type Settings struct {
	Host         string
	Port         int
	Security     string
	Username     string
	HasPassword  bool
	FromName     string
	FromAddress  string
	ReplyTo      string
	OwnerAddress string
	Offsets      []time.Duration
	Kinds        []KindSetting
	// Ready reports whether messages can leave with the effective settings (flags included).
	Ready bool
}

// Settings reads the stored settings.
func (s *Service) Settings(ctx context.Context) (Settings, error) {
	q := s.db.R
	row, err := q.GetMessageSettings(ctx)
	if err != nil {
		return Settings{}, err
	}
	out := Settings{
		Host: row.SmtpHost, Port: int(row.SmtpPort), Security: row.SmtpSecurity, Username: row.SmtpUsername,
		HasPassword: row.SmtpPasswordSealed != "", FromName: row.FromName, FromAddress: row.FromAddress,
		ReplyTo: row.ReplyTo, OwnerAddress: row.OwnerAddress,
	}
	if out.Offsets, err = ParseOffsets(row.ReminderOffsets); err != nil {
		return out, err
	}
	kinds, err := q.ListMessageKinds(ctx)
	if err != nil {
		return out, err
	}
	for _, k := range kinds {
		out.Kinds = append(out.Kinds, KindSetting{Kind: Kind(k.Kind), Enabled: k.Enabled, OwnerCopy: k.OwnerCopy})
	}
	t, err := s.Transport(ctx, q, nil)
	out.Ready = err == nil && t.Ready()
	return out, nil
}

// TransportInput is the mail server part of the settings. A nil Password keeps the stored one;
// an empty one removes it.
type TransportInput struct {
	Host        string
	Port        int
	Security    string
	Username    string
	Password    *string
	FromName    string
	FromAddress string
	ReplyTo     string
}

func (in TransportInput) check() FieldErrors {
	var errs FieldErrors
	bad := func(field string, m i18n.Msg) { errs = append(errs, FieldError{field, m}) }
	if len(in.Host) > 253 || strings.ContainsFunc(in.Host, func(r rune) bool { return r <= ' ' || r == '/' || r == '@' }) {
		bad("host", i18n.M("messages.settings.error.host"))
	}
	if in.Port < 1 || in.Port > 65535 {
		bad("port", i18n.M("messages.settings.error.port"))
	}
	switch in.Security {
	case SecurityStartTLS, SecurityOpportunistic, SecurityTLS, SecurityOff:
	default:
		bad("security", i18n.M("messages.settings.error.security"))
	}
	if utf8.RuneCountInString(in.Username) > 256 || strings.ContainsFunc(in.Username, isControl) {
		bad("username", i18n.M("messages.settings.error.username"))
	}
	if in.Password != nil && (len(*in.Password) > 1024 || strings.ContainsAny(*in.Password, "\r\n")) {
		bad("password", i18n.M("messages.settings.error.password"))
	}
	if utf8.RuneCountInString(in.FromName) > 100 || strings.ContainsFunc(in.FromName, isControl) {
		bad("from_name", i18n.M("messages.settings.error.name"))
	}
	if in.FromAddress == "" && in.Host != "" {
		bad("from_address", i18n.M("messages.settings.error.from_required"))
	} else if in.FromAddress != "" {
		if a, err := ParseAddress(in.FromAddress); err != nil || a.Name != "" {
			bad("from_address", i18n.M("messages.settings.error.address"))
		}
	}
	if in.ReplyTo != "" {
		if _, err := ParseAddress(in.ReplyTo); err != nil {
			bad("reply_to", i18n.M("messages.settings.error.address"))
		}
	}
	return errs
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// SaveTransport stores the mail server settings; the password is sealed (app/secrets) so that
// a copy of the database alone does not reveal it.
func (s *Service) SaveTransport(ctx context.Context, in TransportInput) error {
	in.Host, in.FromAddress, in.ReplyTo = strings.TrimSpace(in.Host), strings.TrimSpace(in.FromAddress), strings.TrimSpace(in.ReplyTo)
	in.FromName, in.Username = strings.TrimSpace(in.FromName), strings.TrimSpace(in.Username)
	if errs := in.check(); len(errs) > 0 {
		return errs
	}
	var sealed *string
	if in.Password != nil {
		if *in.Password != "" && s.box == nil {
			return FieldErrors{{"password", i18n.M("messages.settings.error.no_key")}}
		}
		v := ""
		if *in.Password != "" {
			var err error
			if v, err = s.box.Seal(passwordPurpose, *in.Password); err != nil {
				return err
			}
		}
		sealed = &v
	}
	err := s.db.InTx(ctx, func(q *db.Queries) error {
		row, err := q.GetMessageSettings(ctx)
		if err != nil {
			return err
		}
		pw := row.SmtpPasswordSealed
		if sealed != nil {
			pw = *sealed
		}
		next := db.UpdateMessageTransportParams{
			SmtpHost: in.Host, SmtpPort: int64(in.Port), SmtpSecurity: in.Security, SmtpUsername: in.Username,
			SmtpPasswordSealed: pw, FromName: in.FromName, FromAddress: in.FromAddress, ReplyTo: in.ReplyTo,
			UpdatedAt: db.Millis(s.now()),
		}
		if err := q.UpdateMessageTransport(ctx, next); err != nil {
			return err
		}
		// The sealed password shows only as changed (activity hides it by name and by type).
		return recordSettings(ctx, q, s.now(), activity.Diff(row, next, "updated_at"))
	})
	if err == nil && s.transportSaved != nil {
		s.transportSaved() // waiting messages may go now
	}
	return err
}

// OptionsInput is the rest of the settings: owner copies, reminders and each type's switches.
type OptionsInput struct {
	OwnerAddress string
	Offsets      []time.Duration
	Kinds        []KindSetting
}

// SaveOptions stores which messages go, to whom, and when reminders go. Reminders already
// planned keep their time; new and rescheduled bookings get the new list.
func (s *Service) SaveOptions(ctx context.Context, in OptionsInput) error {
	var errs FieldErrors
	in.OwnerAddress = strings.TrimSpace(in.OwnerAddress)
	if in.OwnerAddress != "" {
		if _, err := ParseAddress(in.OwnerAddress); err != nil {
			errs = append(errs, FieldError{"owner_address", i18n.M("messages.settings.error.address")})
		}
	}
	if len(in.Offsets) > MaxOffsets {
		errs = append(errs, FieldError{"offsets", i18n.M("messages.settings.error.offsets", "max", MaxOffsets)})
	}
	for _, d := range in.Offsets {
		if d < time.Minute || d > maxOffset || d%time.Minute != 0 {
			errs = append(errs, FieldError{"offsets", i18n.M("messages.settings.error.offsets", "max", MaxOffsets)})
			break
		}
	}
	for _, k := range in.Kinds {
		if !k.Kind.Valid() {
			errs = append(errs, FieldError{"kinds", i18n.M("messages.settings.error.kind")})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	offsets, _ := ParseOffsets(FormatOffsets(in.Offsets)) // sorted, without duplicates
	return s.db.InTx(ctx, func(q *db.Queries) error {
		row, err := q.GetMessageSettings(ctx)
		if err != nil {
			return err
		}
		next := db.UpdateMessageOptionsParams{
			OwnerAddress: in.OwnerAddress, ReminderOffsets: FormatOffsets(offsets), UpdatedAt: db.Millis(s.now()),
		}
		if err := q.UpdateMessageOptions(ctx, next); err != nil {
			return err
		}
		ch := activity.Diff(row, next, "updated_at")
		kinds, err := q.ListMessageKinds(ctx)
		if err != nil {
			return err
		}
		was := map[string]db.ListMessageKindsRow{}
		for _, k := range kinds {
			was[k.Kind] = k
		}
		for _, k := range in.Kinds {
			if _, err := q.UpdateMessageKind(ctx, db.UpdateMessageKindParams{Kind: string(k.Kind), Enabled: k.Enabled, OwnerCopy: k.OwnerCopy}); err != nil {
				return err
			}
			if old, ok := was[string(k.Kind)]; ok { // each kind switched on or off, and its copy to the owner
				ch.Set("kind."+string(k.Kind)+".enabled", old.Enabled, k.Enabled).Set("kind."+string(k.Kind)+".owner_copy", old.OwnerCopy, k.OwnerCopy)
			}
		}
		return recordSettings(ctx, q, s.now(), ch)
	})
}

// ErrUnknownKind is returned for a message type that is not one of Kinds.
var ErrUnknownKind = errors.New("unknown message type")

// Template returns the wording of kind in language: the owner's if they edited it (custom),
// else the catalog's.
func (s *Service) Template(ctx context.Context, kind Kind, language string) (t Template, custom bool, err error) {
	if !kind.Valid() || !i18n.Supported(language) {
		return Template{}, false, ErrUnknownKind
	}
	row, err := s.db.R.GetMessageTemplate(ctx, db.GetMessageTemplateParams{Kind: string(kind), Language: language})
	if db.IsNotFound(err) {
		return defaultTemplate(i18n.NewPrinter(language, i18n.Prefs{}), kind), false, nil
	}
	if err != nil {
		return Template{}, false, err
	}
	return Template{Subject: row.Subject, Body: row.Body}, true, nil
}

// SaveTemplate stores the owner's wording after trying it on a sample booking: a template that
// does not work is refused with a *TemplateError, so it can never reach a client.
func (s *Service) SaveTemplate(ctx context.Context, kind Kind, language string, t Template) error {
	if !kind.Valid() || !i18n.Supported(language) {
		return ErrUnknownKind
	}
	t.Subject = strings.TrimSpace(t.Subject)
	t.Body = strings.ReplaceAll(t.Body, "\r\n", "\n")
	p := i18n.NewPrinter(language, i18n.Prefs{Clock24: true})
	if err := Check(t, fields(p, "Business", sample(s.now(), nil))); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(q *db.Queries) error {
		if err := q.UpsertMessageTemplate(ctx, db.UpsertMessageTemplateParams{
			Kind: string(kind), Language: language, Subject: t.Subject, Body: t.Body, UpdatedAt: db.Millis(s.now()),
		}); err != nil {
			return err
		}
		return recordSettings(ctx, q, s.now(), activity.Changes{"template." + string(kind) + "." + language: {nil, nil}})
	})
}

// ResetTemplate drops the owner's wording of kind in language: the catalog's applies again.
func (s *Service) ResetTemplate(ctx context.Context, kind Kind, language string) error {
	if !kind.Valid() {
		return ErrUnknownKind
	}
	return s.db.InTx(ctx, func(q *db.Queries) error {
		if err := q.DeleteMessageTemplate(ctx, db.DeleteMessageTemplateParams{Kind: string(kind), Language: language}); err != nil {
			return err
		}
		return recordSettings(ctx, q, s.now(), activity.Changes{"template." + string(kind) + "." + language: {"custom", "default"}})
	})
}

// Preview renders t for kind in language on booking bookingID (0: a sample booking), the way
// it would be sent now. A template error comes back as a *TemplateError.
func (s *Service) Preview(ctx context.Context, kind Kind, language string, t Template, bookingID int64) (Rendered, error) {
	if !kind.Valid() || !i18n.Supported(language) {
		return Rendered{}, ErrUnknownKind
	}
	q := s.db.R
	loc, err := locale.Load(ctx, q)
	if err != nil {
		return Rendered{}, err
	}
	p := i18n.NewPrinter(language, loc.Prefs)
	biz, err := q.MessageBusiness(ctx)
	if err != nil {
		return Rendered{}, err
	}
	a := sample(s.now(), nil)
	if bookingID > 0 {
		b, err := q.MessageBooking(ctx, bookingID)
		if err != nil {
			return Rendered{}, err
		}
		real := bookingAppointment(b)
		real.PreviousStart, real.ReminderOffset = a.PreviousStart, a.ReminderOffset
		real.HasPayment, real.AmountCents, real.CheckoutLink, real.ExpiresAt, real.PaidAt = true, b.PriceCents, a.CheckoutLink, a.ExpiresAt, a.PaidAt
		a = real
	}
	if err := Check(t, fields(p, biz.Name, a)); err != nil {
		return Rendered{}, err
	}
	return render(t, fields(p, biz.Name, a), biz.Name)
}

// TestEmail is the test email to address, with the effective settings it is to leave through
// (mailer.Mailer.SendTest sends it at once, outside the queue: the owner waits for the answer).
func (s *Service) TestEmail(ctx context.Context, address string) (Transport, Envelope, error) {
	to, err := ParseAddress(address)
	if err != nil {
		return Transport{}, Envelope{}, FieldErrors{{"to", i18n.M("messages.settings.error.address")}}
	}
	t, err := s.Transport(ctx, s.db.R, nil)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	if !t.Ready() {
		return Transport{}, Envelope{}, ErrNotSetUp
	}
	loc, err := locale.Load(ctx, s.db.R)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	p := loc.Printer()
	biz, err := s.db.R.MessageBusiness(ctx)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	key, err := newKey()
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	text := p.T("messages.test.body", "business", biz.Name) + "\n"
	html, err := htmlPart(text, biz.Name)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	now := s.now()
	return t, Envelope{
		From: t.From, ReplyTo: t.ReplyTo, To: to, MessageID: key + "@" + messageIDDomain(t.From), Date: now,
		Content: Rendered{Subject: p.T("messages.test.subject", "business", biz.Name), Text: text, HTML: html},
	}, nil
}

// ErrNotSetUp is returned when no mail server or sender is set.
var ErrNotSetUp = errors.New("email is not set up: give a mail server and a sender address")

// recordSettings writes the activity entry of a Settings → Messages save in its transaction q:
// the fields that changed; a save that changed nothing records nothing.
func recordSettings(ctx context.Context, q *db.Queries, now time.Time, ch activity.Changes) error {
	if len(ch) == 0 {
		return nil
	}
	return activity.Record(ctx, q, now, activity.Entry{Action: "settings.updated", Entity: "settings.messages", Changes: ch})
}

// NoticeEmail is an email to one person of the staff (an invitation, a password-reset link),
// in the business's language, with the effective settings it is to leave through. Like the
// test email it is sent at once, outside the queue (mailer.Mailer.SendNotice): what it carries
// is a single-use link whose token is stored nowhere but in the message, and the person who
// made it sees at once whether it left — and the link to hand over if it did not.
func (s *Service) NoticeEmail(ctx context.Context, address string, content func(p *i18n.Printer, business string) (subject, text string)) (Transport, Envelope, error) {
	to, err := ParseAddress(address)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	t, err := s.Transport(ctx, s.db.R, nil)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	if !t.Ready() {
		return Transport{}, Envelope{}, ErrNotSetUp
	}
	loc, err := locale.Load(ctx, s.db.R)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	biz, err := s.db.R.MessageBusiness(ctx)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	key, err := newKey()
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	subject, text := content(loc.Printer(), biz.Name)
	html, err := htmlPart(text+"\n", biz.Name)
	if err != nil {
		return Transport{}, Envelope{}, err
	}
	now := s.now()
	return t, Envelope{
		From: t.From, ReplyTo: t.ReplyTo, To: to, MessageID: key + "@" + messageIDDomain(t.From), Date: now,
		Content: Rendered{Subject: subject, Text: text + "\n", HTML: html},
	}, nil
}
