package messages

import (
	"context"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"frontdesk/app/activity"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// WhatsApp (docs/messages.md, "WhatsApp"): the WhatsApp Business Cloud API. A business may
// start a conversation only with a template Meta approved, so each message kind is sent as
// the template the owner maps to it (per language): its name, its language code, and which
// message fields fill its {{1}}, {{2}}, … in order. A template may carry the quick-reply
// buttons Confirm and Cancel, whose answers app/replies acts on. A kind without a template in
// the business's language goes by email, like a text that cannot go.

// WhatsAppAPI is where the Graph API is; tests give another base (serve --whatsapp-api-url).
const WhatsAppAPI = "https://graph.facebook.com"

// WhatsAppVersion is the Graph API version requests name (the published description the
// tests check against is v23.0's).
const WhatsAppVersion = "v23.0"

// Purposes of the sealed WhatsApp credentials (app/secrets).
const (
	whatsAppTokenPurpose  = "whatsapp_access_token"
	whatsAppSecretPurpose = "whatsapp_app_secret"
)

// WhatsAppTransport is the WhatsApp channel and its credentials, opened.
type WhatsAppTransport struct {
	Enabled       bool
	PhoneNumberID string
	AccessToken   string
	AppSecret     string // signs the webhook's notifications (X-Hub-Signature-256)
	VerifyToken   string // the webhook verification handshake's hub.verify_token
	Base          string // WhatsAppAPI unless serve's --whatsapp-api-url says otherwise
}

// Ready reports whether WhatsApp messages can be sent.
func (t WhatsAppTransport) Ready() bool {
	return t.Enabled && t.PhoneNumberID != "" && t.AccessToken != ""
}

// WhatsAppTransport is the stored WhatsApp channel, its secrets opened (cache keeps them by
// sealed value; nil: none kept).
func (s *Service) WhatsAppTransport(ctx context.Context, q *db.Queries, cache map[string]string) (WhatsAppTransport, error) {
	row, err := q.MessageWhatsAppSettings(ctx)
	if err != nil {
		return WhatsAppTransport{}, err
	}
	t := WhatsAppTransport{Enabled: row.Enabled, PhoneNumberID: row.PhoneNumberID, VerifyToken: row.VerifyToken, Base: s.whatsAppBase}
	if t.Base == "" {
		t.Base = WhatsAppAPI
	}
	if t.AccessToken, err = s.openSealed(cache, "WhatsApp", whatsAppTokenPurpose, row.AccessTokenSealed); err != nil {
		return WhatsAppTransport{}, err
	}
	if t.AppSecret, err = s.openSealed(cache, "WhatsApp", whatsAppSecretPurpose, row.AppSecretSealed); err != nil {
		return WhatsAppTransport{}, err
	}
	return t, nil
}

// WhatsAppSettings is Settings → Messages → WhatsApp as the page shows it: never a secret,
// only whether one is stored.
type WhatsAppSettings struct {
	Enabled                      bool
	PhoneNumberID, VerifyToken   string
	HasAccessToken, HasAppSecret bool
	Templates                    []WhatsAppTemplate
	Ready                        bool
}

// WhatsAppSettings reads the WhatsApp channel's settings and template mapping for the owner.
func (s *Service) WhatsAppSettings(ctx context.Context) (WhatsAppSettings, error) {
	var out WhatsAppSettings
	err := s.db.ReadTx(ctx, func(q *db.Queries) error {
		row, err := q.MessageWhatsAppSettings(ctx)
		if err != nil {
			return err
		}
		out = WhatsAppSettings{Enabled: row.Enabled, PhoneNumberID: row.PhoneNumberID, VerifyToken: row.VerifyToken,
			HasAccessToken: row.AccessTokenSealed != "", HasAppSecret: row.AppSecretSealed != ""}
		out.Ready = out.Enabled && out.PhoneNumberID != "" && out.HasAccessToken
		rows, err := q.ListWhatsAppTemplates(ctx)
		if err != nil {
			return err
		}
		for _, r := range rows {
			out.Templates = append(out.Templates, templateOf(r))
		}
		return nil
	})
	return out, err
}

// WhatsAppSettingsInput is a save of the channel's settings. A nil secret keeps the stored
// one; an empty one removes it.
type WhatsAppSettingsInput struct {
	Enabled                    bool
	PhoneNumberID, VerifyToken string
	AccessToken, AppSecret     *string
}

var phoneNumberIDPattern = regexp.MustCompile(`^[0-9]{1,30}$`)

// SaveWhatsAppSettings stores the channel's settings; the access token and the app secret are
// sealed (app/secrets).
func (s *Service) SaveWhatsAppSettings(ctx context.Context, in WhatsAppSettingsInput) error {
	var errs FieldErrors
	in.PhoneNumberID, in.VerifyToken = strings.TrimSpace(in.PhoneNumberID), strings.TrimSpace(in.VerifyToken)
	if in.PhoneNumberID != "" && !phoneNumberIDPattern.MatchString(in.PhoneNumberID) || in.Enabled && in.PhoneNumberID == "" {
		errs = append(errs, FieldError{"phone_number_id", i18n.M("messages.whatsapp.error.phone_number_id")})
	}
	if len(in.VerifyToken) > 200 || strings.ContainsFunc(in.VerifyToken, isControl) {
		errs = append(errs, FieldError{"verify_token", i18n.M("messages.whatsapp.error.verify_token")})
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"access_token", in.AccessToken}, {"app_secret", in.AppSecret}} {
		if f.v != nil && (len(*f.v) > 2000 || strings.ContainsFunc(*f.v, isControl)) {
			errs = append(errs, FieldError{f.name, i18n.M("messages.whatsapp.error.secret")})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	token, err := s.sealField("access_token", whatsAppTokenPurpose, in.AccessToken)
	if err != nil {
		return err
	}
	secret, err := s.sealField("app_secret", whatsAppSecretPurpose, in.AppSecret)
	if err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(q *db.Queries) error {
		row, err := q.MessageWhatsAppSettings(ctx)
		if err != nil {
			return err
		}
		next := db.UpdateMessageWhatsAppSettingsParams{Enabled: in.Enabled, PhoneNumberID: in.PhoneNumberID,
			AccessTokenSealed: row.AccessTokenSealed, AppSecretSealed: row.AppSecretSealed, VerifyToken: in.VerifyToken,
			UpdatedAt: db.Millis(s.now())}
		if token != nil {
			next.AccessTokenSealed = *token
		}
		if secret != nil {
			next.AppSecretSealed = *secret
		}
		if next.Enabled && next.AccessTokenSealed == "" {
			return FieldErrors{{"access_token", i18n.M("messages.whatsapp.error.secret")}}
		}
		if err := q.UpdateMessageWhatsAppSettings(ctx, next); err != nil {
			return err
		}
		return recordSettings(ctx, q, s.now(), activity.Diff(row, next, "updated_at"))
	})
	if err == nil && s.transportSaved != nil {
		s.transportSaved()
	}
	return err
}

// WhatsAppTemplate maps message kind in language to an approved template.
type WhatsAppTemplate struct {
	Kind     Kind
	Language string   // the business's language the mapping is for
	Name     string   // the template's name at Meta (lower case, digits, _)
	Lang     string   // its language code at Meta (en_US, es, es_MX …)
	Params   []string // the fields filling {{1}}, {{2}}, … in order
	Buttons  bool     // the template has the quick-reply buttons Confirm, Cancel (in that order)
}

func templateOf(r db.MessageWhatsappTemplate) WhatsAppTemplate {
	t := WhatsAppTemplate{Kind: Kind(r.Kind), Language: r.Language, Name: r.TemplateName, Lang: r.TemplateLang, Buttons: r.Buttons}
	if r.Params != "" {
		t.Params = strings.Split(r.Params, ",")
	}
	return t
}

var (
	templateNamePattern = regexp.MustCompile(`^[a-z0-9_]{1,512}$`)
	templateLangPattern = regexp.MustCompile(`^[a-z]{2,3}(_[A-Z]{2})?$`)
)

// SaveWhatsAppTemplate stores (or, with an empty name, removes) the template of t.Kind in
// t.Language. Every parameter must be a message field (docs/messages.md, "Templates").
func (s *Service) SaveWhatsAppTemplate(ctx context.Context, t WhatsAppTemplate) error {
	if !t.Kind.Valid() || !i18n.Supported(t.Language) {
		return ErrUnknownKind
	}
	t.Name, t.Lang = strings.TrimSpace(t.Name), strings.TrimSpace(t.Lang)
	if t.Name == "" {
		return s.db.InTx(ctx, func(q *db.Queries) error {
			if err := q.DeleteWhatsAppTemplate(ctx, db.DeleteWhatsAppTemplateParams{Kind: string(t.Kind), Language: t.Language}); err != nil {
				return err
			}
			return recordSettings(ctx, q, s.now(), activity.Changes{"whatsapp." + string(t.Kind) + "." + t.Language: {"set", ""}})
		})
	}
	var errs FieldErrors
	if !templateNamePattern.MatchString(t.Name) {
		errs = append(errs, FieldError{"template_name", i18n.M("messages.whatsapp.error.template_name")})
	}
	if !templateLangPattern.MatchString(t.Lang) {
		errs = append(errs, FieldError{"template_lang", i18n.M("messages.whatsapp.error.template_lang")})
	}
	var params []string
	for _, p := range t.Params {
		p = strings.TrimSpace(strings.Trim(strings.TrimSpace(p), "{}."))
		if p == "" {
			continue
		}
		if !knownField(p) {
			errs = append(errs, FieldError{"params", i18n.M("messages.whatsapp.error.params", "field", p)})
			continue
		}
		params = append(params, p)
	}
	if len(errs) > 0 {
		return errs
	}
	return s.db.InTx(ctx, func(q *db.Queries) error {
		if err := q.UpsertWhatsAppTemplate(ctx, db.UpsertWhatsAppTemplateParams{Kind: string(t.Kind), Language: t.Language,
			TemplateName: t.Name, TemplateLang: t.Lang, Params: strings.Join(params, ","), Buttons: t.Buttons,
			UpdatedAt: db.Millis(s.now())}); err != nil {
			return err
		}
		return recordSettings(ctx, q, s.now(), activity.Changes{"whatsapp." + string(t.Kind) + "." + t.Language: {"", t.Name}})
	})
}

// knownField reports whether name is one of the message fields.
func knownField(name string) bool {
	for _, f := range FieldNames {
		if f.Name == name {
			return true
		}
	}
	return false
}

// fieldValue is field name of f as a template parameter's text ("" for a field f has nothing
// for: Meta refuses an empty parameter, so it is sent as "-").
func fieldValue(f Fields, name string) string {
	v := reflect.ValueOf(f).FieldByName(name)
	var s string
	switch v.Kind() {
	case reflect.String:
		s = v.String()
	case reflect.Int64:
		s = strconv.FormatInt(v.Int(), 10)
	}
	// A parameter is one line: Meta refuses new lines, tabs and more than four spaces in a row.
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "-"
	}
	return s
}

// WhatsAppMessage is a template message as it leaves, or, with Text, a free-form text (the
// answer to a client's message, which WhatsApp allows within 24 hours of it).
type WhatsAppMessage struct {
	Text     string
	Template string
	Lang     string
	Params   []string // the values, in order
	Buttons  bool
}
