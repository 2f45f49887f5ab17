package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"frontdesk/db"
)

// Resources are documents an assistant can read up front: the opening hours of every location
// and the booking policies, both in plain words (Markdown) from the same records the tools use.
const (
	hoursURI    = "frontdesk://opening-hours"
	policiesURI = "frontdesk://policies"
)

func (s *Server) addResources() {
	s.sdk.AddResource(&sdk.Resource{
		URI: hoursURI, Name: "opening-hours", Title: "Opening hours", MIMEType: "text/markdown",
		Description: "Every location's address, time zone, weekly opening hours and closures in the next 60 days. Needs the locations:read scope.",
	}, s.resource("locations:read", s.hoursDoc))
	s.sdk.AddResource(&sdk.Resource{
		URI: policiesURI, Name: "policies", Title: "Booking policies", MIMEType: "text/markdown",
		Description: "How far ahead and how late customers can book, and whether and until when they can change or cancel.",
	}, s.resource("", s.policiesDoc))
}

// resource wraps a document with the key's scope check and hides internal errors.
func (s *Server) resource(scope string, doc func(context.Context) (string, error)) sdk.ResourceHandler {
	return func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		key, ok := keyOf(req)
		if !ok || scope != "" && !key.Allows(scope) {
			return nil, fmt.Errorf("this API key may not read %s (it needs the %s scope)", req.Params.URI, scope)
		}
		text, err := doc(ctx)
		if err != nil {
			s.log.ErrorContext(ctx, "mcp resource failed", "uri", req.Params.URI, "err", err)
			return nil, errors.New("the document could not be read right now; try again in a moment")
		}
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: text}}}, nil
	}
}

func (s *Server) hoursDoc(ctx context.Context) (string, error) {
	locs, err := s.locations(ctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Opening hours\n\nTimes are local to each location.\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "\n## %s (location_id %d)\n\n", l.Name, l.ID)
		if l.Address != "" {
			fmt.Fprintf(&b, "Address: %s  \n", l.Address)
		}
		if l.Phone != "" {
			fmt.Fprintf(&b, "Phone: %s  \n", l.Phone)
		}
		fmt.Fprintf(&b, "Time zone: %s (now UTC%s); today is %s %s.\n\n", l.TimeZone, l.UTCOffsetNow, l.TodayWeekday, l.Today)
		for _, d := range l.OpeningHours {
			h := "closed"
			if len(d.Open) > 0 {
				h = strings.Join(d.Open, ", ")
			}
			fmt.Fprintf(&b, "- %s: %s\n", d.Weekday, h)
		}
		if len(l.ClosedOn) > 0 {
			fmt.Fprintf(&b, "\nClosed on: %s.\n", strings.Join(l.ClosedOn, ", "))
		}
	}
	if len(locs) == 0 {
		b.WriteString("\nNo location takes bookings at the moment.\n")
	}
	return b.String(), nil
}

func (s *Server) policiesDoc(ctx context.Context) (string, error) {
	p, err := s.db.R.SchedulePolicy(ctx)
	if db.IsNotFound(err) {
		return "# Booking policies\n\nThe business is not set up yet.\n", nil
	}
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Booking policies\n\nThese rules apply to every booking made through this assistant; the tools enforce them.\n\n")
	fmt.Fprintf(&b, "- Appointments start every %s on the schedule.\n", minutes(p.SlotStepMin))
	if p.MinNoticeMin > 0 {
		fmt.Fprintf(&b, "- Bookings need at least %s notice.\n", minutes(p.MinNoticeMin))
	} else {
		b.WriteString("- Any time that has not started yet can be booked.\n")
	}
	if p.MaxAdvanceDays > 0 {
		fmt.Fprintf(&b, "- Bookings open %s ahead.\n", plural(p.MaxAdvanceDays, "day"))
	} else {
		b.WriteString("- There is no limit to how far ahead customers can book.\n")
	}
	lock := ""
	if p.EditLockMin > 0 {
		lock = fmt.Sprintf(", up to %s before the appointment", minutes(p.EditLockMin))
	}
	if p.CanEdit {
		fmt.Fprintf(&b, "- Customers can reschedule%s.\n", lock)
	} else {
		b.WriteString("- Customers cannot reschedule online; they contact the business.\n")
	}
	if p.CanCancel {
		fmt.Fprintf(&b, "- Customers can cancel%s.\n", lock)
	} else {
		b.WriteString("- Customers cannot cancel online; they contact the business.\n")
	}
	if p.MaxChanges > 0 {
		fmt.Fprintf(&b, "- A booking can be rescheduled at most %s; after that it can no longer be changed or cancelled online.\n", plural(p.MaxChanges, "time"))
	}
	return b.String(), nil
}
