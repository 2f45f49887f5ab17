package admin

import (
	"context"
	"encoding/gob"
	"errors"
	"net/http"
	"strings"

	"frontdesk/app/errpage"
	"frontdesk/app/feeds"
	"frontdesk/ui"
)

// Calendar feeds (app/feeds, docs/feeds.md): a section of the provider's and the location's edit
// page. Turning a feed on or rotating it makes a new address, stashed in the session and shown
// once by the page the POST redirects to, like a new API key: only its hash is stored.

// keyNewFeedURL holds the address made by the last turn-on or rotation.
const keyNewFeedURL = "new_feed_url"

// NewFeedURL is a feed address waiting to be shown once, on the page at Page.
type NewFeedURL struct{ Page, URL string }

func init() { gob.Register(NewFeedURL{}) }

// feedSubject reads whose feed a request is about: /catalog/providers/{id}/feed… or
// /catalog/locations/{id}/feed…, and the edit page it belongs to.
func feedSubject(r *http.Request) (feeds.Subject, string, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return feeds.Subject{}, "", err
	}
	if strings.HasPrefix(r.URL.Path, providersPath+"/") {
		return feeds.Subject{ProviderID: id}, ui.ProviderURL(id), nil
	}
	return feeds.Subject{LocationID: id}, ui.LocationURL(id), nil
}

// feedView is the feed section of the edit page at page, for s.
func (a *Admin) feedView(ctx context.Context, s feeds.Subject, page string) (ui.CalendarFeedView, error) {
	st, err := feeds.Get(ctx, a.db.R, s)
	if err != nil {
		return ui.CalendarFeedView{}, err
	}
	v := ui.CalendarFeedView{Base: page, On: st.On, Details: st.Details, Since: st.Since}
	if n, ok := a.sessions.Pop(ctx, keyNewFeedURL).(NewFeedURL); ok && n.Page == page && st.On {
		v.URL = n.URL
	}
	return v, nil
}

// issueFeed turns the feed on or, when it is on, rotates it.
func (a *Admin) issueFeed(w http.ResponseWriter, r *http.Request) {
	s, page, err := feedSubject(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	ctx := r.Context()
	was, err := feeds.Get(ctx, a.db.R, s)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	token, err := feeds.Issue(ctx, a.db, s, a.now())
	if err != nil {
		a.renderError(w, r, feedError(err))
		return
	}
	a.sessions.Put(ctx, keyNewFeedURL, NewFeedURL{Page: page, URL: a.links.URL(feeds.Path(token), nil)})
	msg := translate(r, "feeds.turned_on")
	if was.On {
		msg = translate(r, "feeds.rotated")
	}
	a.flash(ctx, ui.FlashSuccess, msg)
	seeOther(w, r, page+"#calendar-feed")
}

// setFeedDetails saves whether the feed shows full client details.
func (a *Admin) setFeedDetails(w http.ResponseWriter, r *http.Request) {
	s, page, err := feedSubject(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := feeds.SetDetails(r.Context(), a.db, s, f.Get("details") == "1", a.now()); err != nil {
		a.renderError(w, r, feedError(err))
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "feeds.details_saved"))
	seeOther(w, r, page+"#calendar-feed")
}

// turnOffFeed stops every address of the feed.
func (a *Admin) turnOffFeed(w http.ResponseWriter, r *http.Request) {
	s, page, err := feedSubject(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	if err := feeds.TurnOff(r.Context(), a.db, s); err != nil {
		a.renderError(w, r, feedError(err))
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "feeds.turned_off"))
	seeOther(w, r, page+"#calendar-feed")
}

// feedError is errpage.NotFound for a provider or location that does not exist (or a feed that is
// off, for its details).
func feedError(err error) error {
	if errors.Is(err, feeds.ErrNotFound) {
		return errpage.NotFound
	}
	return err
}
