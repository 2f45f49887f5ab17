package messages

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"frontdesk/app/activity"
	"frontdesk/app/clients"
	"frontdesk/app/locale"
	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Channels (docs/messages.md, "Channels"). A customer message goes by email or by a text; the
// outbox, the retries, the log, resend and the per-kind, per-language wording are the same for
// every channel. A client's message is planned for their preferred channel when texts are set up
// and their number can receive one (clients.TextableReason), else for email; when it is sent
// the same is asked again, so a text whose provider was switched off meanwhile, or whose client
// lost their number, goes by email instead.

// The channels, mirrored by the CHECKs on messages.channel and client_message_prefs.channel.
const (
	ChannelEmail    = "email"
	ChannelSMS      = "sms"
	ChannelWhatsApp = "whatsapp"
)

// ClientChannels are the channels a client may prefer, in the order forms offer them.
var ClientChannels = []string{ChannelEmail, ChannelSMS, ChannelWhatsApp}

// ValidClientChannel reports whether c is a channel a client may prefer.
func ValidClientChannel(c string) bool {
	for _, x := range ClientChannels {
		if c == x {
			return true
		}
	}
	return false
}

// TextChannel reports whether c is a text channel — SMS or WhatsApp — which the owner's rules
// for texts (policy.go) hold alike.
func TextChannel(c string) bool { return c == ChannelSMS || c == ChannelWhatsApp }

// channelFor is the channel a message to a client goes by: their preferred channel when it is
// a text channel that is set up and their number can receive texts, else email.
func channelFor(preferred string, smsReady, whatsAppReady bool, phone string) string {
	switch {
	case preferred == ChannelSMS && smsReady && clients.TextableReason(phone) == "":
		return ChannelSMS
	case preferred == ChannelWhatsApp && whatsAppReady && clients.TextableReason(phone) == "":
		return ChannelWhatsApp
	}
	return ChannelEmail
}

// SMS providers, mirrored by the CHECK on message_text_settings.sms_provider.
const (
	SMSNone    = "none"
	SMSTwilio  = "twilio"
	SMSGateway = "http" // a generic HTTP gateway (a self-hosted one, a phone running a gateway app)
)

// TwilioAPI is where Twilio's REST API is; tests (and a proxy) give another base.
const TwilioAPI = "https://api.twilio.com"

// TextTransport is how texts leave: the SMS provider and its credentials, opened.
type TextTransport struct {
	Provider string // SMSNone, SMSTwilio or SMSGateway
	// Twilio: the account, its auth token, the sender (an E.164 number or a Messaging Service
	// SID, MG…), and the API's base URL (TwilioAPI unless serve's --twilio-api-url says otherwise).
	AccountSID, AuthToken, From, TwilioBase string
	// StatusCallback is where Twilio reports each text's delivery (app/msghook), "" without a
	// public URL.
	StatusCallback string
	// Gateway: the URL, method, one header (name and value: the credentials) and the body made
	// from a template with {{to}} and {{text}}.
	URL, Method, AuthName, AuthValue, ContentType, Body string
}

// Ready reports whether texts can be sent.
func (t TextTransport) Ready() bool {
	switch t.Provider {
	case SMSTwilio:
		return t.AccountSID != "" && t.AuthToken != "" && t.From != ""
	case SMSGateway:
		return t.URL != ""
	}
	return false
}

// Purposes of the sealed text credentials (app/secrets).
const (
	twilioTokenPurpose = "twilio_auth_token"
	gatewayAuthPurpose = "sms_gateway_auth"
)

// TextTransport is the effective SMS provider, its secrets opened (cache keeps them by sealed
// value; nil: none kept).
func (s *Service) TextTransport(ctx context.Context, q *db.Queries, cache map[string]string) (TextTransport, error) {
	row, err := q.MessageTextSettings(ctx)
	if err != nil {
		return TextTransport{}, err
	}
	t := TextTransport{Provider: row.SmsProvider, AccountSID: row.TwilioAccountSid, From: row.TwilioFrom,
		TwilioBase: s.twilioBase, URL: row.GatewayUrl, Method: row.GatewayMethod, AuthName: row.GatewayAuthName,
		ContentType: row.GatewayContentType, Body: row.GatewayBody}
	if t.TwilioBase == "" {
		t.TwilioBase = TwilioAPI
	}
	if s.links != nil {
		t.StatusCallback = s.links.URL("/twilio/status", nil)
	}
	if t.AuthToken, err = s.openSealed(cache, "text", twilioTokenPurpose, row.TwilioAuthTokenSealed); err != nil {
		return TextTransport{}, err
	}
	if t.AuthValue, err = s.openSealed(cache, "text", gatewayAuthPurpose, row.GatewayAuthValueSealed); err != nil {
		return TextTransport{}, err
	}
	return t, nil
}

// openSealed opens a provider's sealed credential for purpose ("" stays ""), through cache
// (keyed by the sealed text; nil for none) so a sender does not open it on every message.
// channel names the channel in the error when no key was given.
func (s *Service) openSealed(cache map[string]string, channel, purpose, sealed string) (string, error) {
	if sealed == "" {
		return "", nil
	}
	if v, ok := cache[sealed]; ok {
		return v, nil
	}
	if s.box == nil {
		return "", fmt.Errorf("a %s credential is stored sealed but no key was given", channel)
	}
	v, err := s.box.Open(purpose, sealed)
	if err != nil {
		return "", fmt.Errorf("%s: %w", purpose, err)
	}
	if cache != nil {
		cache[sealed] = v
	}
	return v, nil
}

// sealField seals a provider's credential typed in form field for purpose: nil (the field
// left alone) stays nil, "" stays "" (the credential removed). Without a key nothing can be
// sealed, and field says so.
func (s *Service) sealField(field, purpose string, v *string) (*string, error) {
	if v == nil {
		return nil, nil
	}
	out := ""
	if *v != "" {
		if s.box == nil {
			return nil, FieldErrors{{field, i18n.M("messages.settings.error.no_key")}}
		}
		var err error
		if out, err = s.box.Seal(purpose, *v); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

// TextSettings is Settings → Messages → Texts as the page shows it: never a secret, only
// whether one is stored.
type TextSettings struct {
	Provider                                 string
	AccountSID, From                         string
	HasAuthToken                             bool
	URL, Method, AuthName, ContentType, Body string
	HasAuthValue                             bool
	TwilioBase                               string // where Twilio requests go (not editable)
	Ready                                    bool
}

// TextSettings reads the SMS provider's settings for the owner.
func (s *Service) TextSettings(ctx context.Context) (TextSettings, error) {
	var out TextSettings
	err := s.db.ReadTx(ctx, func(q *db.Queries) error {
		row, err := q.MessageTextSettings(ctx)
		if err != nil {
			return err
		}
		out = TextSettings{Provider: row.SmsProvider, AccountSID: row.TwilioAccountSid, From: row.TwilioFrom,
			HasAuthToken: row.TwilioAuthTokenSealed != "", URL: row.GatewayUrl, Method: row.GatewayMethod,
			AuthName: row.GatewayAuthName, ContentType: row.GatewayContentType, Body: row.GatewayBody,
			HasAuthValue: row.GatewayAuthValueSealed != "", TwilioBase: s.twilioBase}
		if out.TwilioBase == "" {
			out.TwilioBase = TwilioAPI
		}
		t := TextTransport{Provider: row.SmsProvider, AccountSID: row.TwilioAccountSid, From: row.TwilioFrom,
			URL: row.GatewayUrl}
		if row.TwilioAuthTokenSealed != "" {
			t.AuthToken = "set"
		}
		out.Ready = t.Ready()
		return nil
	})
	return out, err
}

// TextSettingsInput is a save of the SMS provider's settings. A nil secret keeps the stored
// one; an empty one removes it.
type TextSettingsInput struct {
	Provider                                 string
	AccountSID, From                         string
	AuthToken                                *string
	URL, Method, AuthName, ContentType, Body string
	AuthValue                                *string
}

var (
	accountSIDPattern = regexp.MustCompile(`^AC[0-9a-fA-F]{32}$`)
	serviceSIDPattern = regexp.MustCompile(`^MG[0-9a-fA-F]{32}$`)
	headerNamePattern = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
)

// MaxTextBody bounds a gateway's body template and a short text's template.
const MaxTextBody = 1600

func (in *TextSettingsInput) check() FieldErrors {
	var errs FieldErrors
	bad := func(field string, m i18n.Msg) { errs = append(errs, FieldError{field, m}) }
	in.AccountSID, in.From = strings.TrimSpace(in.AccountSID), strings.TrimSpace(in.From)
	in.URL, in.AuthName, in.ContentType = strings.TrimSpace(in.URL), strings.TrimSpace(in.AuthName), strings.TrimSpace(in.ContentType)
	in.Method = strings.ToUpper(strings.TrimSpace(in.Method))
	if in.Method == "" {
		in.Method = "POST"
	}
	if in.AuthName == "" {
		in.AuthName = "Authorization"
	}
	if in.ContentType == "" {
		in.ContentType = "application/json"
	}
	switch in.Provider {
	case SMSNone, SMSTwilio, SMSGateway:
	default:
		bad("provider", i18n.M("messages.texts.error.provider"))
	}
	if in.AccountSID != "" && !accountSIDPattern.MatchString(in.AccountSID) {
		bad("account_sid", i18n.M("messages.texts.error.account_sid"))
	}
	if in.From != "" {
		if !serviceSIDPattern.MatchString(in.From) {
			if e164, err := clients.ParsePhone(in.From, ""); err != nil || e164 != in.From {
				bad("from", i18n.M("messages.texts.error.from"))
			}
		}
	}
	if in.Provider == SMSTwilio {
		if in.AccountSID == "" {
			bad("account_sid", i18n.M("messages.texts.error.account_sid"))
		}
		if in.From == "" {
			bad("from", i18n.M("messages.texts.error.from"))
		}
	}
	if in.URL != "" || in.Provider == SMSGateway {
		u, err := url.Parse(in.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			bad("url", i18n.M("messages.texts.error.url"))
		}
	}
	switch in.Method {
	case "POST", "PUT", "GET":
	default:
		bad("method", i18n.M("messages.texts.error.method"))
	}
	if !headerNamePattern.MatchString(in.AuthName) {
		bad("auth_name", i18n.M("messages.texts.error.auth_name"))
	}
	if in.AuthValue != nil && strings.ContainsFunc(*in.AuthValue, isControl) {
		bad("auth_value", i18n.M("messages.texts.error.auth_value"))
	}
	if in.AuthToken != nil && strings.ContainsFunc(*in.AuthToken, isControl) {
		bad("auth_token", i18n.M("messages.texts.error.auth_token"))
	}
	if strings.ContainsFunc(in.ContentType, isControl) || !strings.Contains(in.ContentType, "/") {
		bad("content_type", i18n.M("messages.texts.error.content_type"))
	}
	if utf8.RuneCountInString(in.Body) > MaxTextBody || (in.Method != "GET" && in.Provider == SMSGateway && !strings.Contains(in.Body+in.URL, "{{text}}")) {
		bad("body", i18n.M("messages.texts.error.body", "max", MaxTextBody))
	}
	return errs
}

// SaveTextSettings stores the SMS provider's settings; the Twilio auth token and the gateway's
// header value are sealed (app/secrets), so a copy of the database alone does not reveal them.
func (s *Service) SaveTextSettings(ctx context.Context, in TextSettingsInput) error {
	if errs := in.check(); len(errs) > 0 {
		return errs
	}
	token, err := s.sealField("auth_token", twilioTokenPurpose, in.AuthToken)
	if err != nil {
		return err
	}
	authValue, err := s.sealField("auth_value", gatewayAuthPurpose, in.AuthValue)
	if err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(q *db.Queries) error {
		row, err := q.MessageTextSettings(ctx)
		if err != nil {
			return err
		}
		next := db.UpdateMessageTextSettingsParams{
			SmsProvider: in.Provider, TwilioAccountSid: in.AccountSID, TwilioAuthTokenSealed: row.TwilioAuthTokenSealed,
			TwilioFrom: in.From, GatewayUrl: in.URL, GatewayMethod: in.Method, GatewayAuthName: in.AuthName,
			GatewayAuthValueSealed: row.GatewayAuthValueSealed, GatewayContentType: in.ContentType, GatewayBody: in.Body,
			UpdatedAt: db.Millis(s.now()),
		}
		if token != nil {
			next.TwilioAuthTokenSealed = *token
		}
		if authValue != nil {
			next.GatewayAuthValueSealed = *authValue
		}
		if next.SmsProvider == SMSTwilio && next.TwilioAuthTokenSealed == "" {
			return FieldErrors{{"auth_token", i18n.M("messages.texts.error.auth_token")}}
		}
		if err := q.UpdateMessageTextSettings(ctx, next); err != nil {
			return err
		}
		// The sealed values show only as changed (activity hides them by name).
		return recordSettings(ctx, q, s.now(), activity.Diff(row, next, "updated_at"))
	})
	if err == nil && s.transportSaved != nil {
		s.transportSaved()
	}
	return err
}

// ErrTextsNotSetUp is returned by a test text when no SMS provider is ready.
var ErrTextsNotSetUp = errors.New("texts are not set up: choose an SMS provider and give its details")

// SetClientChannel stores client id's preferred channel inside the caller's transaction
// (email is stored as no preference).
func SetClientChannel(ctx context.Context, q *db.Queries, clientID int64, channel string, now int64) error {
	if channel == "" || channel == ChannelEmail {
		return q.DeleteClientMessageChannel(ctx, clientID)
	}
	if !ValidClientChannel(channel) {
		return fmt.Errorf("unknown channel %q", channel)
	}
	return q.SetClientMessageChannel(ctx, db.SetClientMessageChannelParams{ClientID: clientID, Channel: channel, UpdatedAt: now})
}

// ClientChannel is client id's preferred channel (email when none is stored).
func ClientChannel(ctx context.Context, q *db.Queries, clientID int64) (string, error) {
	c, err := q.ClientMessageChannel(ctx, clientID)
	if db.IsNotFound(err) {
		return ChannelEmail, nil
	}
	return c, err
}

// textTemplate is the owner's short text of kind in p's language, or the catalog's.
func (s *Service) textTemplate(ctx context.Context, q *db.Queries, kind Kind, p *i18n.Printer) (string, error) {
	row, err := q.GetMessageTextTemplate(ctx, db.GetMessageTextTemplateParams{Kind: string(kind), Language: p.Lang()})
	if db.IsNotFound(err) {
		return defaultText(p, kind), nil
	}
	if err != nil {
		return "", err
	}
	return row.Body, nil
}

// defaultText is the catalog's short text of kind in p's language.
func defaultText(p *i18n.Printer, kind Kind) string {
	for _, d := range textKeys {
		if d.Kind == kind {
			return p.T(d.Key)
		}
	}
	return ""
}

// textKeys are the catalog keys of each client message's default short text.
var textKeys = []struct {
	Kind Kind
	Key  string
}{
	{Kind: Confirmation, Key: "messages.text.confirmation"},
	{Kind: Rescheduled, Key: "messages.text.rescheduled"},
	{Kind: Cancelled, Key: "messages.text.cancelled"},
	{Kind: Reminder, Key: "messages.text.reminder"},
	{Kind: PaymentRequest, Key: "messages.text.payment_request"},
	{Kind: Receipt, Key: "messages.text.receipt"},
	{Kind: WaitlistSeat, Key: "messages.text.waitlist_seat"},
	{Kind: WaitlistOffer, Key: "messages.text.waitlist_offer"},
}

// renderText fills a short text's template: one part, trimmed, never empty.
func renderText(src string, f Fields) (string, error) {
	body, err := execute("text", src, f, MaxTextBody*4)
	if err != nil {
		return "", err
	}
	body = strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n"))
	if body == "" {
		return "", &TemplateError{"text", i18n.M("messages.error.empty_body")}
	}
	return body, nil
}

// TestText is the text a test send carries, in the business's language.
func (s *Service) TestText(ctx context.Context) (string, error) {
	var out string
	err := s.db.ReadTx(ctx, func(q *db.Queries) error {
		loc, err := locale.Load(ctx, q)
		if err != nil {
			return err
		}
		biz, err := q.MessageBusiness(ctx)
		if err != nil {
			return err
		}
		out = loc.Printer().T("messages.text.test", "business", OneLine(biz.Name))
		return nil
	})
	return out, err
}

// TextTemplate returns the short text of kind in language: the owner's if they edited it
// (custom), else the catalog's.
func (s *Service) TextTemplate(ctx context.Context, kind Kind, language string) (body string, custom bool, err error) {
	if !kind.Valid() || !i18n.Supported(language) {
		return "", false, ErrUnknownKind
	}
	row, err := s.db.R.GetMessageTextTemplate(ctx, db.GetMessageTextTemplateParams{Kind: string(kind), Language: language})
	if db.IsNotFound(err) {
		return defaultText(i18n.NewPrinter(language, i18n.Prefs{}), kind), false, nil
	}
	if err != nil {
		return "", false, err
	}
	return row.Body, true, nil
}

// PreviewText renders the short text src of kind in language on a sample booking, the way it
// would be sent now; a template error comes back as a *TemplateError.
func (s *Service) PreviewText(ctx context.Context, kind Kind, language, src string) (string, error) {
	if !kind.Valid() || !i18n.Supported(language) {
		return "", ErrUnknownKind
	}
	if utf8.RuneCountInString(src) > MaxTextBody {
		return "", &TemplateError{"text", i18n.M("messages.error.too_long", "max", MaxTextBody)}
	}
	loc, err := locale.Load(ctx, s.db.R)
	if err != nil {
		return "", err
	}
	biz, err := s.db.R.MessageBusiness(ctx)
	if err != nil {
		return "", err
	}
	return renderText(src, fields(i18n.NewPrinter(language, loc.Prefs), biz.Name, sample(s.now(), nil)))
}

// SaveTextTemplate stores the owner's short text of kind in language after trying it on a
// sample booking: one that does not work is refused with a *TemplateError.
func (s *Service) SaveTextTemplate(ctx context.Context, kind Kind, language, src string) error {
	src = strings.TrimSpace(strings.ReplaceAll(src, "\r\n", "\n"))
	if _, err := s.PreviewText(ctx, kind, language, src); err != nil {
		return err
	}
	return s.db.InTx(ctx, func(q *db.Queries) error {
		if err := q.UpsertMessageTextTemplate(ctx, db.UpsertMessageTextTemplateParams{
			Kind: string(kind), Language: language, Body: src, UpdatedAt: db.Millis(s.now()),
		}); err != nil {
			return err
		}
		return recordSettings(ctx, q, s.now(), activity.Changes{"text." + string(kind) + "." + language: {nil, nil}})
	})
}

// ResetTextTemplate drops the owner's short text of kind in language: the catalog's applies.
func (s *Service) ResetTextTemplate(ctx context.Context, kind Kind, language string) error {
	if !kind.Valid() || !i18n.Supported(language) {
		return ErrUnknownKind
	}
	return s.db.InTx(ctx, func(q *db.Queries) error {
		if err := q.DeleteMessageTextTemplate(ctx, db.DeleteMessageTextTemplateParams{Kind: string(kind), Language: language}); err != nil {
			return err
		}
		return recordSettings(ctx, q, s.now(), activity.Changes{"text." + string(kind) + "." + language: {"custom", "default"}})
	})
}
