package admin

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"frontdesk/app/errpage"
	"frontdesk/app/messages"
	"frontdesk/app/owner"
	"frontdesk/app/staff"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Team (docs/roles.md): everyone who can sign in, with their role; inviting people
// by a single-use link; changing a role, disabling and enabling, resetting a password by link.
// The rules — a manager never touches an owner, the last owner stays one — are app/staff's;
// this file turns them into pages.

// teamForms are the team page's forms as the person last sent them (nil: empty).
type teamForms struct {
	invite, addOwner *ui.Form
	link, linkEmail  string
}

func (a *Admin) showTeam(w http.ResponseWriter, r *http.Request) {
	a.renderTeam(w, r, http.StatusOK, teamForms{})
}

func (a *Admin) renderTeam(w http.ResponseWriter, r *http.Request, status int, tf teamForms) {
	ctx := r.Context()
	me, _ := ownerFrom(ctx)
	accounts, err := staff.List(ctx, a.db)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	invitations, err := staff.Invitations(ctx, a.db, a.now())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	providers, err := a.db.R.AdminBookingProviders(ctx, 0)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	names := map[int64]string{}
	v := ui.TeamView{Invite: tf.invite, Link: tf.link, LinkEmail: tf.linkEmail}
	for _, p := range providers {
		names[p.ID] = p.PublicName
		v.Providers = append(v.Providers, ui.Option{Value: idText(p.ID), Label: p.PublicName})
	}
	if v.Invite == nil {
		v.Invite = ui.NewForm(nil)
	}
	iAmOwner := staff.RoleOf(me) == staff.RoleOwner
	for _, role := range staff.Roles {
		if role != staff.RoleOwner || iAmOwner {
			v.Roles = append(v.Roles, ui.Option{Value: string(role), Label: roleName(r, role)})
		}
	}
	owners := 0
	for _, acc := range accounts {
		if staff.RoleOf(acc) == staff.RoleOwner && !acc.Disabled {
			owners++
		}
	}
	for _, acc := range accounts {
		manage := iAmOwner || staff.RoleOf(acc) != staff.RoleOwner
		v.Members = append(v.Members, ui.TeamMember{ID: acc.ID, Name: acc.Name, Email: acc.Email, Role: acc.Role,
			RoleName: roleName(r, staff.RoleOf(acc)), Provider: names[acc.ProviderID], Disabled: acc.Disabled,
			You: acc.ID == me.ID, Manage: manage, Created: acc.CreatedAt,
			Remove: manage && (staff.RoleOf(acc) != staff.RoleOwner || acc.Disabled || owners > 1)})
	}
	for _, l := range invitations {
		v.Invitations = append(v.Invitations, ui.TeamInvitation{Email: l.Email, RoleName: roleName(r, l.Role), Expires: l.ExpiresAt})
	}
	if iAmOwner {
		if v.Rule, err = a.twoFactorRuleForm(r); err != nil {
			a.renderError(w, r, err)
			return
		}
		v.Settings = ui.NewForm(nil)
		allow, err := staff.ProvidersEditOwnHours(ctx, a.db)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		if allow {
			v.Settings.Set("providers_edit_own_hours", "1")
		}
		v.AddOwner = tf.addOwner
		if v.AddOwner == nil {
			v.AddOwner = ui.NewForm(nil)
		}
	}
	a.render(w, r, status, ui.TeamPage(a.page(r, translate(r, "team.title")), v))
}

func roleName(r *http.Request, role staff.Role) string {
	switch role {
	case staff.RoleOwner:
		return translate(r, "team.role.owner")
	case staff.RoleManager:
		return translate(r, "team.role.manager")
	case staff.RoleReception:
		return translate(r, "team.role.reception")
	default:
		return translate(r, "team.role.provider")
	}
}

func (a *Admin) inviteMember(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	me, _ := ownerFrom(ctx)
	role, _ := staff.ParseRole(f.Get("role"))
	token, link, err := staff.Invite(ctx, a.db, me, f.Get("email"), role, formID(f, "provider"), a.now())
	if a.teamFormError(r, f, err) {
		a.renderTeam(w, r, http.StatusUnprocessableEntity, teamForms{invite: f})
		return
	}
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.log.InfoContext(ctx, "staff invited", "by", me.ID, "role", string(role))
	a.deliverLink(w, r, link, token, translate(r, "team.invite.sent", "email", link.Email))
}

// deliverLink emails a just-made link, or — with no mail server set up, or when the server
// refuses — shows it on the team page to copy and hand over.
func (a *Admin) deliverLink(w http.ResponseWriter, r *http.Request, l staff.Link, token, sent string) {
	ctx := r.Context()
	u := a.links.URL("/join", url.Values{"token": {token}})
	days := int(staff.LinkLifetime / (24 * time.Hour))
	sendCtx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()
	_, err := a.msgs.SendNotice(sendCtx, l.Email, func(p *i18n.Printer, biz string) (string, string) {
		if l.Purpose == staff.PurposeReset {
			return p.T("team.email.reset.subject", "business", biz), p.T("team.email.reset.body", "business", biz, "link", u, "days", days)
		}
		return p.T("team.email.invite.subject", "business", biz), p.T("team.email.invite.body", "business", biz, "link", u, "days", days)
	})
	if err != nil {
		if !errors.Is(err, messages.ErrNotSetUp) {
			a.log.WarnContext(ctx, "staff link email", "err", err)
		}
		a.renderTeam(w, r, http.StatusOK, teamForms{link: u, linkEmail: l.Email})
		return
	}
	a.flash(ctx, ui.FlashSuccess, sent)
	seeOther(w, r, "/settings/team")
}

// teamFormError puts a staff rule's refusal on the form, and reports whether there was one.
func (a *Admin) teamFormError(r *http.Request, f *ui.Form, err error) bool {
	switch {
	case errors.Is(err, owner.ErrInvalidEmail):
		f.SetError("email", translate(r, "auth.email.error"))
	case errors.Is(err, staff.ErrEmailTaken):
		f.SetError("email", translate(r, "team.error.email_taken"))
	case errors.Is(err, staff.ErrInvalidRole):
		f.SetError("role", translate(r, "team.error.role"))
	case errors.Is(err, staff.ErrProviderRequired):
		f.SetError("provider", translate(r, "team.error.provider"))
	case errors.Is(err, staff.ErrNotAllowed):
		f.Message = translate(r, "team.error.not_allowed")
	case errors.Is(err, staff.ErrLastOwner):
		f.Message = translate(r, "team.error.last_owner")
	default:
		return false
	}
	return true
}

// member runs change on the {id} account and answers: back to the team page with what
// happened, or the rule that refused it.
func (a *Admin) member(w http.ResponseWriter, r *http.Request, change func(ctx context.Context, me staff.Account, id int64, f *ui.Form) (staff.Account, error), done func(email string) string) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	me, _ := ownerFrom(ctx)
	acc, err := change(ctx, me, id, f)
	switch {
	case errors.Is(err, staff.ErrNotFound):
		a.renderError(w, r, errpage.NotFound)
	case errors.Is(err, staff.ErrNotAllowed):
		a.renderError(w, r, errForbidden)
	case a.teamFormError(r, f, err):
		a.flash(ctx, ui.FlashError, f.Message+firstFieldError(f))
		seeOther(w, r, "/settings/team")
	case err != nil:
		a.renderError(w, r, err)
	default:
		a.log.InfoContext(ctx, "staff account changed", "by", me.ID, "account", acc.ID, "path", r.URL.Path)
		a.flash(ctx, ui.FlashSuccess, done(acc.Email))
		seeOther(w, r, "/settings/team")
	}
}

func firstFieldError(f *ui.Form) string {
	for _, name := range []string{"role", "provider", "email"} {
		if msg := f.Error(name); msg != "" {
			return msg
		}
	}
	return ""
}

func (a *Admin) changeMemberRole(w http.ResponseWriter, r *http.Request) {
	a.member(w, r, func(ctx context.Context, me staff.Account, id int64, f *ui.Form) (staff.Account, error) {
		role, _ := staff.ParseRole(f.Get("role"))
		return staff.ChangeRole(ctx, a.db, me, id, role, formID(f, "provider"), a.now())
	}, func(email string) string { return translate(r, "team.role.saved", "email", email) })
}

func (a *Admin) disableMember(w http.ResponseWriter, r *http.Request) {
	a.member(w, r, func(ctx context.Context, me staff.Account, id int64, _ *ui.Form) (staff.Account, error) {
		return staff.SetDisabled(ctx, a.db, me, id, true, a.now())
	}, func(email string) string { return translate(r, "team.disabled.done", "email", email) })
}

func (a *Admin) enableMember(w http.ResponseWriter, r *http.Request) {
	a.member(w, r, func(ctx context.Context, me staff.Account, id int64, _ *ui.Form) (staff.Account, error) {
		return staff.SetDisabled(ctx, a.db, me, id, false, a.now())
	}, func(email string) string { return translate(r, "team.enabled.done", "email", email) })
}

func (a *Admin) resetMemberPassword(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id")
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	me, _ := ownerFrom(ctx)
	token, link, err := staff.ResetLink(ctx, a.db, me, id, a.now())
	switch {
	case errors.Is(err, staff.ErrNotFound):
		a.renderError(w, r, errpage.NotFound)
	case errors.Is(err, staff.ErrNotAllowed):
		a.renderError(w, r, errForbidden)
	case err != nil:
		a.renderError(w, r, err)
	default:
		a.deliverLink(w, r, link, token, translate(r, "team.reset.sent", "email", link.Email))
	}
}

func (a *Admin) saveTeamSettings(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := staff.SetProvidersEditOwnHours(r.Context(), a.db, f.Checked("providers_edit_own_hours", "1"), a.now()); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "team.settings.saved"))
	seeOther(w, r, "/settings/team")
}
