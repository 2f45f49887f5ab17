package admin

import (
	"net/http"
	"strconv"
	"time"

	"frontdesk/app/messages"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Messages → Rules for texts (docs/messages.md, "Cost and courtesy"): which kinds may
// go by text, the daily cap, quiet hours and the price of segments, and the owner's monthly
// counts per channel.

func (a *Admin) showMessageRules(w http.ResponseWriter, r *http.Request) {
	a.renderMessageRules(w, r, http.StatusOK, nil)
}

// renderMessageRules renders the page with the form as given (nil: from the stored rules).
func (a *Admin) renderMessageRules(w http.ResponseWriter, r *http.Request, status int, form *ui.Form) {
	ctx := r.Context()
	p := i18n.From(ctx)
	pol, err := a.msgs.TextPolicy(ctx)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	st, err := a.msgs.TextStats(ctx, 12)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if form == nil {
		form = ui.NewForm(nil)
		form.Set("daily_cap", strconv.Itoa(pol.DailyCap))
		if pol.Quiet.Enabled {
			form.Set("quiet_enabled", "1")
		}
		form.Set("quiet_start", clockText(ctx, pol.Quiet.Start))
		form.Set("quiet_end", clockText(ctx, pol.Quiet.End))
		if pol.PricePer1000 > 0 {
			form.Set("price", amountInput(p, pol.PricePer1000))
		}
		for _, k := range messages.TextKinds() {
			if pol.ByText[k] {
				form.Values.Add("by_text", string(k))
			}
		}
	}
	v := ui.MessageRulesView{Form: form, Today: p.Integer(st.Today), Cap: p.Integer(int64(pol.DailyCap))}
	for _, k := range messages.TextKinds() {
		v.Kinds = append(v.Kinds, ui.Option{Value: string(k), Label: translate(r, "messages.kind."+string(k))})
	}
	for _, m := range st.Months {
		row := ui.MessageMonthRow{Sent: p.Integer(m.Sent), Channel: translate(r, "clients.channel."+m.Channel)}
		if t, err := time.Parse("2006-01", m.Month); err == nil {
			row.Month = p.Month(t.Month()) + " " + strconv.Itoa(t.Year())
		}
		if m.Channel != messages.ChannelEmail {
			row.Segments, row.Cost = p.Integer(m.Segments), p.Money(messages.CostCents(m.CostMilli))
		}
		v.Months = append(v.Months, row)
	}
	a.render(w, r, status, ui.MessageRulesPage(a.page(r, translate(r, "messages.policy.title")), v))
}

func (a *Admin) saveMessageRules(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	in := messages.TextPolicyInput{DailyCap: f.Get("daily_cap"), QuietEnabled: f.Checked("quiet_enabled", "1"),
		QuietStart: -1, QuietEnd: -1, PricePer1000: f.Get("price"), ByText: map[messages.Kind]bool{}}
	// Times are typed on the business's clock; one that cannot be read is marked here and
	// refused by the save with the other fields.
	if m, ok := readClock(r.Context(), f, "quiet_start"); ok {
		in.QuietStart = m
	}
	if m, ok := readClock(r.Context(), f, "quiet_end"); ok {
		in.QuietEnd = m
	}
	for _, k := range f.Values["by_text"] {
		in.ByText[messages.Kind(k)] = true
	}
	readAmounts(r, f, map[string]*string{"price": &in.PricePer1000})
	err = a.msgs.SaveTextPolicy(r.Context(), in)
	if fieldErrors(r, f, err) {
		a.renderMessageRules(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "messages.saved"))
	seeOther(w, r, "/settings/messages/rules")
}
