package site

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"frontdesk/db"
)

// serveLogo serves the owner's logo, fetched and stored when the settings were saved, so the
// pages show it without a request to another origin. URLs carry the settings' version, so it is
// cached for long.
func (s *Site) serveLogo(w http.ResponseWriter, r *http.Request) {
	logo, err := s.db.R.SiteLogo(r.Context())
	if err != nil && !db.IsNotFound(err) {
		s.renderError(w, r, err)
		return
	}
	if err != nil || logo.LogoType == "" {
		s.renderError(w, r, errNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", logo.LogoType)
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	cacheable(w, r, logo.UpdatedAt)
	w.Write(logo.Logo)
}

// serveTheme is the owner's accent colour as a stylesheet (inline styles are not allowed).
func (s *Site) serveTheme(w http.ResponseWriter, r *http.Request) {
	c := configFrom(r.Context())
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	cacheable(w, r, c.settings.UpdatedAt)
	fmt.Fprintf(w, ":root { --accent: %s; --accent-fg: #fff; }\n", Readable(c.settings.Accent))
}

// cacheable lets browsers keep a response for a year when the URL names the current version.
func cacheable(w http.ResponseWriter, r *http.Request, version int64) {
	if r.URL.Query().Get("v") == strconv.FormatInt(version, 10) {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
}

// Readable returns the colour hex ("#rrggbb") darkened just enough for white text on it, and
// it as text on white, to reach the WCAG AA contrast of 4.5:1; darker colours are unchanged.
// An owner's pale accent thus keeps its hue and the pages stay readable.
func Readable(hex string) string {
	r, g, b, ok := parseHex(hex)
	if !ok {
		return "#1f5fbf"
	}
	for f := 1.0; f > 0; f -= 0.02 {
		rr, gg, bb := r*f, g*f, b*f
		if contrastWithWhite(rr, gg, bb) >= 4.5 {
			return fmt.Sprintf("#%02x%02x%02x", int(math.Round(rr)), int(math.Round(gg)), int(math.Round(bb)))
		}
	}
	return "#000000"
}

func parseHex(s string) (r, g, b float64, ok bool) {
	if len(s) != 7 || s[0] != '#' {
		return 0, 0, 0, false
	}
	n, err := strconv.ParseUint(strings.ToLower(s[1:]), 16, 32)
	if err != nil {
		return 0, 0, 0, false
	}
	return float64(n >> 16 & 0xff), float64(n >> 8 & 0xff), float64(n & 0xff), true
}

// contrastWithWhite is the WCAG contrast ratio of white against the colour.
func contrastWithWhite(r, g, b float64) float64 {
	lin := func(c float64) float64 {
		c /= 255
		if c <= 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	l := 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
	return 1.05 / (l + 0.05)
}
