package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"frontdesk/app/messages"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Messages (docs/messages.md): the mail server and sender, a test email, which messages go
// and when reminders go. The messages package does the work; these handlers read forms and
// show its answers (docs/messages.md).

// kindKeys name each message type in the catalogs.
var kindKeys = []struct {
	Kind messages.Kind
	Key  string
}{
	{Kind: messages.Confirmation, Key: "messages.kind.confirmation"},
	{Kind: messages.Rescheduled, Key: "messages.kind.rescheduled"},
	{Kind: messages.Cancelled, Key: "messages.kind.cancelled"},
	{Kind: messages.Reminder, Key: "messages.kind.reminder"},
	{Kind: messages.PaymentRequest, Key: "messages.kind.payment_request"},
	{Kind: messages.Receipt, Key: "messages.kind.receipt"},
	{Kind: messages.WaitlistSeat, Key: "messages.kind.waitlist_seat"},
	{Kind: messages.Test, Key: "messages.kind.test"},
	{Kind: messages.ProviderBooked, Key: "messages.kind.provider_booked"},
	{Kind: messages.ProviderMoved, Key: "messages.kind.provider_moved"},
	{Kind: messages.ProviderCancelled, Key: "messages.kind.provider_cancelled"},
	{Kind: messages.ProviderAgenda, Key: "messages.kind.provider_agenda"},
	{Kind: messages.WaitlistOffer, Key: "messages.kind.waitlist_offer"},
	{Kind: messages.GiftCard, Key: "messages.kind.gift_card"},
	{Kind: messages.MembershipStarted, Key: "messages.kind.membership_started"},
	{Kind: messages.MembershipRenewed, Key: "messages.kind.membership_renewed"},
	{Kind: messages.MembershipFailed, Key: "messages.kind.membership_failed"},
	{Kind: messages.MembershipPaused, Key: "messages.kind.membership_paused"},
	{Kind: messages.MembershipResumed, Key: "messages.kind.membership_resumed"},
	{Kind: messages.MembershipCancelled, Key: "messages.kind.membership_cancelled"},
	{Kind: messages.Reply, Key: "messages.kind.reply"},
}

func kindLabel(r *http.Request, k messages.Kind) string {
	for _, kk := range kindKeys {
		if kk.Kind == k {
			return translate(r, kk.Key)
		}
	}
	return string(k)
}

func securityOptions(r *http.Request) []ui.Option {
	return []ui.Option{
		{Value: messages.SecurityStartTLS, Label: translate(r, "messages.security.starttls")},
		{Value: messages.SecurityTLS, Label: translate(r, "messages.security.tls")},
		{Value: messages.SecurityOpportunistic, Label: translate(r, "messages.security.opportunistic")},
		{Value: messages.SecurityOff, Label: translate(r, "messages.security.off")},
	}
}

func (a *Admin) showMessageSettings(w http.ResponseWriter, r *http.Request) {
	a.renderMessageSettings(w, r, http.StatusOK, nil, nil, nil)
}

// renderMessageSettings renders the page with the forms as given (nil: from the stored
// settings), so a failed submit keeps what was typed.
func (a *Admin) renderMessageSettings(w http.ResponseWriter, r *http.Request, status int, transport, options, test *ui.Form) {
	ctx := r.Context()
	s, err := a.msgs.Settings(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if transport == nil {
		transport = ui.NewForm(nil)
		transport.Set("host", s.Host)
		transport.Set("port", strconv.Itoa(s.Port))
		transport.Set("security", s.Security)
		transport.Set("username", s.Username)
		transport.Set("from_name", s.FromName)
		transport.Set("from_address", s.FromAddress)
		transport.Set("reply_to", s.ReplyTo)
	}
	if options == nil {
		options = ui.NewForm(nil)
		options.Set("owner_address", s.OwnerAddress)
		options.Set("offsets", formatOffsets(s.Offsets))
		for _, k := range s.Kinds {
			if k.Enabled {
				options.Set("on_"+string(k.Kind), "1")
			}
			if k.OwnerCopy {
				options.Set("copy_"+string(k.Kind), "1")
			}
		}
	}
	if test == nil {
		test = ui.NewForm(nil)
	}
	v := ui.MessagesSettingsView{Transport: transport, Options: options, Test: test, Security: securityOptions(r),
		Ready: s.Ready, HasPassword: s.HasPassword}
	if !s.Ready {
		n, err := a.db.R.CountPendingMessages(ctx)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Waiting = int(n)
	}
	for _, k := range messages.Kinds {
		v.Kinds = append(v.Kinds, ui.MessageKindRow{Kind: string(k), Label: kindLabel(r, k)})
	}
	if o := a.msgs.Overridden(); o.Server != nil {
		v.FlagServer = o.Server.Host + ":" + strconv.Itoa(o.Server.Port)
	}
	if o := a.msgs.Overridden(); o.From != nil {
		v.FlagFrom = o.From.String()
	}
	a.render(w, r, status, ui.MessagesSettingsPage(a.page(r, translate(r, "messages.title")), v))
}

// fieldErrors puts a save's refusals next to their fields; it reports whether err was one.
func fieldErrors(r *http.Request, f *ui.Form, err error) bool {
	var fe messages.FieldErrors
	if !errors.As(err, &fe) {
		return false
	}
	p := i18n.From(r.Context())
	for _, e := range fe {
		f.SetError(e.Field, p.Msg(e.Msg))
	}
	return true
}

func (a *Admin) saveMessageTransport(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	port, err := strconv.Atoi(f.Get("port"))
	if err != nil {
		f.SetError("port", translate(r, "messages.settings.error.port"))
	}
	in := messages.TransportInput{
		Host: f.Get("host"), Port: port, Security: f.Get("security"), Username: f.Get("username"),
		FromName: f.Get("from_name"), FromAddress: f.Get("from_address"), ReplyTo: f.Get("reply_to"),
	}
	switch pw := f.Raw("password"); {
	case pw != "":
		in.Password = &pw
	case f.Checked("clear_password", "1"):
		in.Password = &pw
	}
	if f.OK() {
		err = a.msgs.SaveTransport(r.Context(), in)
	}
	if !f.OK() || fieldErrors(r, f, err) {
		f.Set("password", "")
		a.renderMessageSettings(w, r, http.StatusUnprocessableEntity, f, nil, nil)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.saved"))
	seeOther(w, r, "/settings/messages")
}

func (a *Admin) saveMessageOptions(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	offsets, ok := parseOffsets(f.Get("offsets"))
	if !ok {
		f.SetError("offsets", translate(r, "messages.settings.error.offsets", "max", messages.MaxOffsets))
	}
	in := messages.OptionsInput{OwnerAddress: f.Get("owner_address"), Offsets: offsets}
	for _, k := range messages.Kinds {
		in.Kinds = append(in.Kinds, messages.KindSetting{Kind: k, Enabled: f.Checked("on_"+string(k), "1"), OwnerCopy: f.Checked("copy_"+string(k), "1")})
	}
	if f.OK() {
		err = a.msgs.SaveOptions(r.Context(), in)
	}
	if !f.OK() || fieldErrors(r, f, err) {
		a.renderMessageSettings(w, r, http.StatusUnprocessableEntity, nil, f, nil)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.saved"))
	seeOther(w, r, "/settings/messages")
}

// sendTestMessage sends a test email now and says what the server answered.
func (a *Admin) sendTestMessage(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 45*time.Second)
	defer cancel()
	reply, err := a.msgs.SendTest(ctx, f.Get("to"))
	switch {
	case fieldErrors(r, f, err):
		a.renderMessageSettings(w, r, http.StatusUnprocessableEntity, nil, nil, f)
		return
	case errors.Is(err, messages.ErrNotSetUp):
		f.Message = translate(r, "messages.test.not_set_up")
		a.renderMessageSettings(w, r, http.StatusUnprocessableEntity, nil, nil, f)
		return
	case err != nil:
		// The server's refusal is the owner's business: it tells what to fix.
		f.Message = translate(r, "messages.test.failed", "error", err.Error())
		a.renderMessageSettings(w, r, http.StatusUnprocessableEntity, nil, nil, f)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.test.sent", "to", f.Get("to"), "reply", reply))
	seeOther(w, r, "/settings/messages")
}

// formatOffsets writes reminder offsets the way the form reads them: "24h, 2h, 30m".
func formatOffsets(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		switch {
		case d%time.Hour == 0:
			parts[i] = strconv.FormatInt(int64(d/time.Hour), 10) + "h"
		default:
			parts[i] = strconv.FormatInt(int64(d/time.Minute), 10) + "m"
		}
	}
	return strings.Join(parts, ", ")
}

// parseOffsets reads "24h, 2h, 30m" (also "1d"); an empty list means no reminders.
func parseOffsets(s string) ([]time.Duration, bool) {
	var out []time.Duration
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		part = strings.ToLower(part)
		if n, ok := strings.CutSuffix(part, "d"); ok {
			days, err := strconv.Atoi(n)
			if err != nil || days < 1 {
				return nil, false
			}
			out = append(out, time.Duration(days)*24*time.Hour)
			continue
		}
		d, err := time.ParseDuration(part)
		if err != nil || d <= 0 || d%time.Minute != 0 {
			return nil, false
		}
		out = append(out, d)
	}
	return out, true
}
