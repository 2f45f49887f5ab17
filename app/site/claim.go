package site

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"frontdesk/app/booking"
	"frontdesk/app/managelink"
	"frontdesk/db"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// The claim link of the waitlist for appointments (docs/visits.md): a time the visitor waited
// for opened, and the page behind their personal link books it for them on one button. Of two
// claimers of one time the first books it (booking.ClaimOffer); the other is told it is gone
// and shown other free times the wait allows, each leading to the booking form. Like manage
// links, claim links keep working while the site is off.

// showClaim is the time offered and the button that books it, or, when it is gone, the other
// free times.
func (s *Site) showClaim(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	token := chi.URLParam(r, "token")
	o, err := booking.ViewOffer(r.Context(), s.db.R, s.now(), token)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if !o.Claimable {
		alts, err := booking.OfferAlternatives(r.Context(), s.db, s.now(), o.Offer, booking.SourceOnline)
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		s.renderGone(w, r, http.StatusOK, o, alts)
		return
	}
	p := i18n.From(r.Context())
	v := ui.SiteClaimView{Summary: claimSummary(p, o), Action: "/book/claim/" + token}
	s.render(w, r, http.StatusOK, ui.SiteClaim(s.page(r, p.T("site.claim.title")), v))
}

// claim books the time offered through the booking rules and opens the new booking's page.
func (s *Site) claim(w http.ResponseWriter, r *http.Request) {
	manageHeaders(w)
	token := chi.URLParam(r, "token")
	o, err := booking.ViewOffer(r.Context(), s.db.R, s.now(), token)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	v, err := booking.ClaimOffer(r.Context(), s.db, s.now(), token, booking.SourceOnline)
	var gone *booking.OfferGoneError
	if errors.As(err, &gone) {
		s.renderGone(w, r, http.StatusConflict, o, gone.Alternatives)
		return
	}
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	var link string
	err = s.db.InTx(r.Context(), func(q *db.Queries) error {
		var err error
		link, err = managelink.New(r.Context(), q, v.Booking.ID, s.now())
		return err
	})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	seeOther(w, r, managelink.Path(link))
}

// renderGone says the time is gone and lists other free times, each a link to the booking form.
func (s *Site) renderGone(w http.ResponseWriter, r *http.Request, status int, o booking.OfferView, alts []booking.Slot) {
	p := i18n.From(r.Context())
	v := ui.SiteClaimView{Summary: claimSummary(p, o), Gone: true}
	for _, a := range alts {
		v.Alternatives = append(v.Alternatives, ui.SiteLink{
			Label: when(p, a.Start.In(o.Zone)) + " · " + a.ProviderName,
			URL: servicePath(o.Offer.LocationID, o.Offer.ServiceID) + "/details?" + url.Values{
				"provider": {strconv.FormatInt(a.ProviderID, 10)}, "start": {a.Start.Format(time.RFC3339)}}.Encode(),
		})
	}
	s.render(w, r, status, ui.SiteClaim(s.page(r, p.T("site.claim.gone_title")), v))
}

func claimSummary(p *i18n.Printer, o booking.OfferView) ui.SiteSummary {
	start := db.Time(o.Offer.StartAt).In(o.Zone)
	return ui.SiteSummary{Service: o.Names.ServiceName, Provider: o.Names.ProviderName, Location: o.Names.LocationName,
		When: when(p, start), Duration: duration(p, (o.Offer.EndAt-o.Offer.StartAt)/60000)}
}
