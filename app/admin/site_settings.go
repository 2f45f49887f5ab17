package admin

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"

	"frontdesk/app/activity"
	"frontdesk/app/webhook"
	"frontdesk/app/webhook/dispatch"
	"frontdesk/db"
	"frontdesk/static"
	"frontdesk/ui"
	"frontdesk/ui/i18n"
)

// Settings → Booking site (the site itself is app/site, docs/booking-site.md): on or
// off, per location; the name, logo and accent colour visitors see; the policy shown before
// confirming; which custom attributes the form asks; and the origins allowed to embed it.

const (
	maxLogoBytes   = 256 << 10 // the schema's CHECK on site_settings.logo
	maxFrameOrigin = 20
	logoTimeout    = 10 * time.Second
)

var hexColour = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

func (a *Admin) showSiteSettings(w http.ResponseWriter, r *http.Request) {
	f, err := a.siteSettingsForm(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	v, err := a.siteSettingsView(r, f)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	a.render(w, r, http.StatusOK, ui.SiteSettingsPage(a.page(r, translate(r, "sitesettings.title")), v))
}

// siteSettingsForm is the stored settings as the form shows them.
func (a *Admin) siteSettingsForm(ctx context.Context) (*ui.Form, error) {
	s, err := a.db.R.SiteSettings(ctx)
	if err != nil {
		return nil, err
	}
	f := ui.NewForm(nil)
	if s.Enabled {
		f.Set("enabled", "1")
	}
	if s.RepeatOnline {
		f.Set("repeat_online", "1")
	}
	f.Set("display_name", s.DisplayName)
	f.Set("logo_url", s.LogoURL)
	f.Set("accent", s.Accent)
	f.Set("policy_text", s.PolicyText)
	f.Set("frame_origins", s.FrameOrigins)
	locs, err := a.db.R.SiteLocations(ctx)
	if err != nil {
		return nil, err
	}
	for _, l := range locs {
		if l.Enabled {
			f.Values.Add("locations", strconv.FormatInt(l.ID, 10))
		}
	}
	attrs, err := a.db.R.SiteAttributeIDs(ctx)
	if err != nil {
		return nil, err
	}
	for _, id := range attrs {
		f.Values.Add("attributes", strconv.FormatInt(id, 10))
	}
	return f, nil
}

func (a *Admin) siteSettingsView(r *http.Request, f *ui.Form) (ui.SiteSettingsView, error) {
	ctx := r.Context()
	v := ui.SiteSettingsView{Form: f, SiteURL: a.links.URL("/book", nil)}
	script, err := url.Parse(static.URL("embed.js"))
	if err != nil {
		return v, err
	}
	v.Embed = fmt.Sprintf(`<iframe src="%s" data-frontdesk title="%s" style="width:100%%;min-height:40rem;border:0" loading="lazy"></iframe>
<script src="%s" async></script>`, html.EscapeString(v.SiteURL), html.EscapeString(translate(r, "sitesettings.iframe_title")),
		html.EscapeString(a.links.URL(script.Path, script.Query())))
	locs, err := a.db.R.SiteLocations(ctx)
	if err != nil {
		return v, err
	}
	for _, l := range locs {
		label := l.Name
		if !l.Active {
			label = translate(r, "sitesettings.location_inactive", "name", l.Name)
		}
		v.Locations = append(v.Locations, ui.Option{Value: strconv.FormatInt(l.ID, 10), Label: label})
	}
	attrs, err := a.db.R.ListCustomAttributes(ctx)
	if err != nil {
		return v, err
	}
	for _, t := range attrs {
		label := t.CustomAttribute.Name
		if t.CustomAttribute.Mandatory {
			label = translate(r, "sitesettings.attribute_mandatory", "name", label)
		}
		v.Attributes = append(v.Attributes, ui.Option{Value: strconv.FormatInt(t.CustomAttribute.ID, 10), Label: label})
	}
	s, err := a.db.R.SiteSettings(ctx)
	if err != nil {
		return v, err
	}
	if s.LogoType != "" {
		v.LogoURL = "/book/logo?v=" + strconv.FormatInt(s.UpdatedAt, 10)
	}
	v.NoOrigins = strings.TrimSpace(s.FrameOrigins) == ""
	unpayable, err := a.db.R.SiteServicesNeedingPayments(ctx)
	if err != nil {
		return v, err
	}
	if len(unpayable) > 0 {
		v.Warnings = append(v.Warnings, translate(r, "sitesettings.warn_payments", "services", strings.Join(unpayable, ", ")))
	}
	return v, nil
}

// siteSettings is a checked form.
type siteSettings struct {
	row        db.UpdateSiteSettingsParams
	logoURL    string
	locations  []int64
	attributes []int64
}

func (a *Admin) updateSiteSettings(w http.ResponseWriter, r *http.Request) {
	f, err := parseForm(r)
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	s := siteSettingsFromForm(r, f)
	stored, err := a.db.R.SiteSettings(r.Context())
	if err != nil {
		a.renderError(w, r, err)
		return
	}
	// The logo is fetched once, now, and served from our own origin: the public pages never
	// make a request to another site.
	var logo *fetchedLogo
	if f.Error("logo_url") == "" && s.logoURL != "" && s.logoURL != stored.LogoURL {
		l, err := fetchLogo(r.Context(), s.logoURL, a.hooks.allowPrivate)
		if err != nil {
			// fetchLogo's refusals are catalog messages, in the owner's language.
			var reason any = err.Error()
			if m, ok := err.(i18n.Msg); ok {
				reason = m
			}
			f.SetError("logo_url", translate(r, "sitesettings.logo_url.fetch", "reason", reason))
		}
		logo = &l
	}
	if !f.OK() {
		v, err := a.siteSettingsView(r, f)
		if err != nil {
			a.renderError(w, r, err)
			return
		}
		a.render(w, r, http.StatusUnprocessableEntity, ui.SiteSettingsPage(a.page(r, translate(r, "sitesettings.title")), v))
		return
	}
	if err := a.saveSiteSettings(r.Context(), s, stored, logo); err != nil {
		a.renderError(w, r, err)
		return
	}
	a.flash(r.Context(), ui.FlashSuccess, translate(r, "sitesettings.saved"))
	seeOther(w, r, "/settings/booking-site")
}

// siteSettingsFromForm validates the form, recording problems in f.
func siteSettingsFromForm(r *http.Request, f *ui.Form) siteSettings {
	var s siteSettings
	s.row.Enabled = f.Checked("enabled", "1")
	if f.Checked("repeat_online", "1") {
		s.row.RepeatOnline = 1
	}
	s.row.DisplayName = f.Get("display_name")
	if utf8.RuneCountInString(s.row.DisplayName) > 100 || strings.ContainsFunc(s.row.DisplayName, isControl) {
		f.SetError("display_name", translate(r, "sitesettings.display_name.error"))
	}
	s.logoURL = f.Get("logo_url")
	if s.logoURL != "" {
		if u, err := url.Parse(s.logoURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(s.logoURL) > 2048 {
			f.SetError("logo_url", translate(r, "sitesettings.logo_url.error"))
		}
	}
	s.row.Accent = strings.ToLower(f.Get("accent"))
	if !hexColour.MatchString(s.row.Accent) {
		f.SetError("accent", translate(r, "sitesettings.accent.error"))
	}
	s.row.PolicyText = strings.ReplaceAll(f.Get("policy_text"), "\r\n", "\n")
	if utf8.RuneCountInString(s.row.PolicyText) > 2000 {
		f.SetError("policy_text", translate(r, "sitesettings.policy.error"))
	}
	origins, problem := parseFrameOrigins(f.Get("frame_origins"))
	if problem != nil {
		f.SetError("frame_origins", i18n.From(r.Context()).Msg(*problem))
	}
	s.row.FrameOrigins = strings.Join(origins, "\n")
	for _, name := range []string{"locations", "attributes"} {
		for _, raw := range f.Values[name] {
			id, err := strconv.ParseInt(raw, 10, 64)
			if err != nil || id < 1 {
				f.SetError(name, translate(r, "form.unreadable"))
				continue
			}
			if name == "locations" {
				s.locations = append(s.locations, id)
			} else {
				s.attributes = append(s.attributes, id)
			}
		}
	}
	return s
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// parseFrameOrigins reads the origins allowed to frame the site, one per line, as CSP
// frame-ancestors sources: scheme://host[:port], the host may start with "*." for subdomains.
// They are normalised (lower case, no trailing slash) and deduplicated. A problem is said in
// the owner's words: a line that is no such origin, too many lines, or a wildcard over a
// public suffix.
func parseFrameOrigins(text string) ([]string, *i18n.Msg) {
	malformed := i18n.M("sitesettings.frame_origins.error", "max", maxFrameOrigin)
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(strings.TrimSpace(line), "/")
		if line == "" {
			continue
		}
		scheme, host, ok := strings.Cut(strings.ToLower(line), "://")
		if !ok || (scheme != "https" && scheme != "http") || host == "" {
			return nil, &malformed
		}
		name, wildcard := strings.CutPrefix(host, "*.")
		u, err := url.Parse(scheme + "://" + name)
		if err != nil || u.Host != name || u.Hostname() == "" || strings.ContainsAny(name, "*'\"; ,") {
			return nil, &malformed
		}
		if wildcard && isPublicSuffix(u.Hostname()) {
			m := i18n.M("sitesettings.frame_origins.public_suffix", "origin", scheme+"://"+host, "suffix", u.Hostname())
			return nil, &m
		}
		if origin := scheme + "://" + host; !slices.Contains(out, origin) {
			out = append(out, origin)
		}
	}
	if len(out) > maxFrameOrigin {
		return nil, &malformed
	}
	return out, nil
}

// isPublicSuffix reports whether name is one under which anyone may register a domain of their
// own: a top-level domain ("com"), a registry's second level ("co.uk"), or a shared hosting
// domain ("github.io"), as the Public Suffix List has them; a name the list does not know is
// taken as a top-level domain when it has one label. "*." over one of them would let every site
// under it frame the booking pages, not only the owner's.
func isPublicSuffix(name string) bool {
	suffix, _ := publicsuffix.PublicSuffix(strings.TrimSuffix(name, "."))
	return suffix == strings.TrimSuffix(name, ".")
}

// fetchedLogo is a logo read from its URL.
type fetchedLogo struct {
	contentType string
	data        []byte
}

// logoTypes are the image formats accepted, as Go's content sniffing names them. SVG is not
// among them: it can carry script.
var logoTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// fetchLogo reads the image at raw through the same guarded client webhooks use (no private
// addresses unless the appliance allows them, no redirects), at most maxLogoBytes.
func fetchLogo(ctx context.Context, raw string, allowPrivate bool) (fetchedLogo, error) {
	ctx, cancel := context.WithTimeout(ctx, logoTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return fetchedLogo{}, i18n.M("sitesettings.logo_err.other")
	}
	res, err := dispatch.NewHTTPClient(logoTimeout, allowPrivate, 1).Do(req)
	if err != nil {
		var addr *webhook.AddressError
		if errors.As(err, &addr) {
			return fetchedLogo{}, i18n.M("sitesettings.logo_err.private")
		}
		switch dispatch.Categorize(err) {
		case dispatch.CategoryDNS:
			return fetchedLogo{}, i18n.M("sitesettings.logo_err.dns")
		case dispatch.CategoryConnect:
			return fetchedLogo{}, i18n.M("sitesettings.logo_err.connect")
		case dispatch.CategoryTLS:
			return fetchedLogo{}, i18n.M("sitesettings.logo_err.tls")
		case dispatch.CategoryTimeout:
			return fetchedLogo{}, i18n.M("sitesettings.logo_err.timeout")
		}
		return fetchedLogo{}, i18n.M("sitesettings.logo_err.other")
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fetchedLogo{}, i18n.M("sitesettings.logo_err.status", "status", strconv.Itoa(res.StatusCode))
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, maxLogoBytes+1))
	if err != nil {
		return fetchedLogo{}, i18n.M("sitesettings.logo_err.other")
	}
	if len(data) > maxLogoBytes {
		return fetchedLogo{}, i18n.M("sitesettings.logo_err.too_large", "kb", maxLogoBytes>>10)
	}
	ct := http.DetectContentType(data)
	if !slices.Contains(logoTypes, ct) {
		return fetchedLogo{}, i18n.M("sitesettings.logo_err.type")
	}
	return fetchedLogo{contentType: ct, data: data}, nil
}

// saveSiteSettings writes the settings, the logo (when it changed), the locations offered and
// the questions asked, in one transaction.
func (a *Admin) saveSiteSettings(ctx context.Context, s siteSettings, stored db.SiteSettingsRow, logo *fetchedLogo) error {
	ms := db.Millis(a.now())
	return a.db.InTx(ctx, func(q *db.Queries) error {
		s.row.UpdatedAt = ms
		if err := q.UpdateSiteSettings(ctx, s.row); err != nil {
			return err
		}
		ch := activity.Diff(stored, s.row, "id", "updated_at", "logo")
		if s.logoURL != stored.LogoURL {
			ch.Set("logo_url", stored.LogoURL, s.logoURL)
		}
		if err := recordSettings(ctx, q, a.now(), "booking_site", ch); err != nil {
			return err
		}
		switch {
		case s.logoURL == "" && stored.LogoURL != "":
			if err := q.UpdateSiteLogo(ctx, db.UpdateSiteLogoParams{UpdatedAt: ms}); err != nil {
				return err
			}
		case logo != nil:
			if err := q.UpdateSiteLogo(ctx, db.UpdateSiteLogoParams{LogoURL: s.logoURL, LogoType: logo.contentType, Logo: logo.data, UpdatedAt: ms}); err != nil {
				return err
			}
		}
		locs, err := q.SiteLocations(ctx)
		if err != nil {
			return err
		}
		for _, l := range locs {
			if err := q.SetSiteLocation(ctx, db.SetSiteLocationParams{LocationID: l.ID, Enabled: slices.Contains(s.locations, l.ID)}); err != nil {
				return err
			}
		}
		if err := q.ClearSiteAttributes(ctx); err != nil {
			return err
		}
		templates, err := q.ListCustomAttributes(ctx)
		if err != nil {
			return err
		}
		for _, t := range templates {
			if slices.Contains(s.attributes, t.CustomAttribute.ID) {
				if err := q.AddSiteAttribute(ctx, t.CustomAttribute.ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
