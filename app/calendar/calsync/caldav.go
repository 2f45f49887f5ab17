package calsync

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"frontdesk/app/calendar"
	"frontdesk/db"
)

// A CalDAV account is read in the steps of RFC 4791 and RFC 5397: the context path (the URL
// the owner gave, or /.well-known/caldav on its host when they gave only the host), the
// signed-in user's principal (current-user-principal), its calendar-home-set, the calendars in
// that home (PROPFIND Depth 1), then each calendar that counts as busy with a calendar-query
// REPORT over the horizon. A calendar whose CTag (getctag) has not moved since the last good
// sync is not queried again; when none moved, nothing is.

const (
	nsDAV    = "DAV:"
	nsCalDAV = "urn:ietf:params:xml:ns:caldav"
	nsCS     = "http://calendarserver.org/ns/"
)

type multistatus struct {
	Responses []davResponse `xml:"DAV: response"`
}

type davResponse struct {
	Href      string        `xml:"DAV: href"`
	Propstats []davPropstat `xml:"DAV: propstat"`
}

type davPropstat struct {
	Status string  `xml:"DAV: status"`
	Prop   davProp `xml:"DAV: prop"`
}

type davProp struct {
	Principal    *davHref `xml:"DAV: current-user-principal"`
	HomeSet      *davHref `xml:"urn:ietf:params:xml:ns:caldav calendar-home-set"`
	ResourceType *struct {
		Calendar *struct{} `xml:"urn:ietf:params:xml:ns:caldav calendar"`
	} `xml:"DAV: resourcetype"`
	DisplayName string `xml:"DAV: displayname"`
	CTag        string `xml:"http://calendarserver.org/ns/ getctag"`
	SyncToken   string `xml:"DAV: sync-token"`
	Components  *struct {
		Comps []struct {
			Name string `xml:"name,attr"`
		} `xml:"urn:ietf:params:xml:ns:caldav comp"`
	} `xml:"urn:ietf:params:xml:ns:caldav supported-calendar-component-set"`
	CalendarData string `xml:"urn:ietf:params:xml:ns:caldav calendar-data"`
	ETag         string `xml:"DAV: getetag"`
}

type davHref struct {
	Href string `xml:"DAV: href"`
}

// ok reports whether a propstat carries found properties (status 200).
func (p davPropstat) ok() bool { return p.Status == "" || strings.Contains(p.Status, " 200") }

// props merges a response's found properties.
func (r davResponse) props() davProp {
	var out davProp
	for _, ps := range r.Propstats {
		if !ps.ok() {
			continue
		}
		p := ps.Prop
		if p.Principal != nil {
			out.Principal = p.Principal
		}
		if p.HomeSet != nil {
			out.HomeSet = p.HomeSet
		}
		if p.ResourceType != nil {
			out.ResourceType = p.ResourceType
		}
		if p.Components != nil {
			out.Components = p.Components
		}
		out.DisplayName = cmpOr(out.DisplayName, p.DisplayName)
		out.CTag = cmpOr(out.CTag, p.CTag)
		out.SyncToken = cmpOr(out.SyncToken, p.SyncToken)
		out.CalendarData = cmpOr(out.CalendarData, p.CalendarData)
		out.ETag = cmpOr(out.ETag, p.ETag)
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// dav is one account's requests.
type dav struct {
	f *fetcher
}

func (d dav) multistatus(ctx context.Context, method, rawURL, depth, body string) (*url.URL, multistatus, error) {
	h := http.Header{"Content-Type": {"application/xml; charset=utf-8"}, "Depth": {depth}}
	resp, data, err := d.f.do(ctx, method, rawURL, h, []byte(body))
	if err != nil {
		return nil, multistatus{}, err
	}
	if resp.StatusCode != http.StatusMultiStatus {
		if resp.StatusCode == http.StatusUnauthorized {
			return nil, multistatus{}, errors.New("the CalDAV server refused the user name or app password (401)")
		}
		return nil, multistatus{}, fmt.Errorf("%s %s answered %s", method, resp.Request.URL.Redacted(), resp.Status)
	}
	var ms multistatus
	if err := xml.Unmarshal(data, &ms); err != nil {
		return nil, multistatus{}, fmt.Errorf("%w: %s answered XML that cannot be read: %v", calendar.ErrMalformed, method, err)
	}
	return resp.Request.URL, ms, nil
}

const propfindPrincipal = `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>`

const propfindHome = `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-home-set/></d:prop></d:propfind>`

const propfindCalendars = `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
<d:prop><d:resourcetype/><d:displayname/><cs:getctag/><d:sync-token/><c:supported-calendar-component-set/></d:prop></d:propfind>`

// Calendar is one calendar of a CalDAV account.
type Calendar struct {
	Href, Name, CTag string
}

// Discover finds the calendars of the account: principal, home set, then the calendars in it
// that hold events.
func (d dav) Discover(ctx context.Context, start string) ([]Calendar, error) {
	u, err := url.Parse(start)
	if err != nil {
		return nil, err
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/.well-known/caldav"
	}
	base, ms, err := d.multistatus(ctx, "PROPFIND", u.String(), "0", propfindPrincipal)
	if err != nil {
		return nil, err
	}
	principal := base
	for _, r := range ms.Responses {
		if p := r.props().Principal; p != nil && p.Href != "" {
			if principal, err = base.Parse(p.Href); err != nil {
				return nil, err
			}
		}
	}
	home := principal
	if _, ms, err = d.multistatus(ctx, "PROPFIND", principal.String(), "0", propfindHome); err != nil {
		return nil, err
	}
	for _, r := range ms.Responses {
		if h := r.props().HomeSet; h != nil && h.Href != "" {
			if home, err = principal.Parse(h.Href); err != nil {
				return nil, err
			}
		}
	}
	if _, ms, err = d.multistatus(ctx, "PROPFIND", home.String(), "1", propfindCalendars); err != nil {
		return nil, err
	}
	var out []Calendar
	for _, r := range ms.Responses {
		p := r.props()
		if p.ResourceType == nil || p.ResourceType.Calendar == nil {
			continue
		}
		if p.Components != nil && !slices.ContainsFunc(p.Components.Comps, func(c struct {
			Name string `xml:"name,attr"`
		}) bool {
			return strings.EqualFold(c.Name, "VEVENT")
		}) {
			continue // tasks or journals only
		}
		href, err := home.Parse(r.Href)
		if err != nil {
			continue
		}
		out = append(out, Calendar{Href: href.String(), Name: cmpOr(strings.TrimSpace(p.DisplayName), lastSegment(href.Path)), CTag: cmpOr(p.CTag, p.SyncToken)})
	}
	return out, nil
}

func lastSegment(p string) string {
	p = strings.TrimSuffix(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Query reads the events of one calendar that overlap [from, until) as calendar objects.
func (d dav) Query(ctx context.Context, href string, from, until time.Time) ([][]byte, error) {
	body := fmt.Sprintf(`<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:prop><d:getetag/><c:calendar-data/></d:prop>
<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
<c:time-range start="%s" end="%s"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
		from.UTC().Format("20060102T150405Z"), until.UTC().Format("20060102T150405Z"))
	_, ms, err := d.multistatus(ctx, "REPORT", href, "1", body)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, r := range ms.Responses {
		if data := r.props().CalendarData; strings.TrimSpace(data) != "" {
			out = append(out, []byte(data))
		}
	}
	return out, nil
}

// pollCalDAV discovers the account's calendars (keeping the list the owner chooses from), then
// reads the busy ones unless none has changed since the last good sync.
func (w *Worker) pollCalDAV(ctx context.Context, h *fetcher, c db.CalendarConnection, opts calendar.Options, now time.Time) error {
	d := dav{h}
	cals, err := d.Discover(ctx, c.URL)
	if err != nil {
		return err
	}
	sources, err := calendar.SaveSources(ctx, w.DB, c.ID, toSources(cals))
	if err != nil {
		return err
	}
	var busy []calendar.Source
	tag := opts.From.Format("2006-01-02") + "\n" // read whole at least once a day (pollICS)
	for _, s := range sources {
		if s.Busy {
			busy = append(busy, s)
			tag += s.Href + "\n" + s.Tag + "\n"
		}
	}
	if c.Digest != "" && c.Etag != "" && tag == c.Etag {
		return calendar.Unchanged(ctx, w.DB, c, now)
	}
	var objects [][]byte
	for _, s := range busy {
		objs, err := d.Query(ctx, s.Href, opts.From, opts.Until)
		if err != nil {
			return err
		}
		objects = append(objects, objs...)
	}
	opts.Deadline = time.Now().Add(expandBudget)
	r, err := calendar.ParseObjects(objects, opts)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(busy, func(s calendar.Source) bool { return s.Tag == "" }) {
		tag = "" // a calendar without a CTag is read every time
	}
	if err := calendar.Synced(ctx, w.DB, c, r.Blocks, tag, now); err != nil {
		return err
	}
	if r.Truncated {
		return calendar.Failed(ctx, w.DB, c, fmt.Sprintf("the calendars hold more than %d events ahead; the earliest are used", calendar.MaxBlocks))
	}
	return nil
}

func toSources(cals []Calendar) []calendar.Source {
	out := make([]calendar.Source, len(cals))
	for i, c := range cals {
		out[i] = calendar.Source{Href: c.Href, Name: c.Name, Tag: c.CTag}
	}
	return out
}
