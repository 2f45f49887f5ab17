package admin

import (
	"net/http"
	"time"

	"frontdesk/app/middleware"
)

// The notice every owner page shows while no public URL is configured (docs/deploy.md "Public
// URL") can be hidden: a form POST sets a cookie in that browser for a week, so it works
// without JavaScript. A week on, if there is still no public URL, the notice is back; the cookie
// holds the base it was hidden for, so a new listen address brings it back at once.

const (
	publicURLNoticeCookie = "frontdesk_public_url_notice"
	publicURLNoticeHidden = 7 * 24 * time.Hour
)

func (a *Admin) hidePublicURLNotice(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: publicURLNoticeCookie, Value: a.links.String(), Path: "/", MaxAge: int(publicURLNoticeHidden / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: middleware.IsHTTPS(r),
	})
	seeOther(w, r, safeNext(f.Get("back")))
}

// publicURLNoticeHidden reports whether the owner hid the notice in this browser, within the
// week, for the current base.
func (a *Admin) publicURLNoticeHidden(r *http.Request) bool {
	c, err := r.Cookie(publicURLNoticeCookie)
	return err == nil && c.Value == a.links.String()
}
