package mcp

import (
	"context"
	"fmt"
	"time"

	"frontdesk/app/booking"
	"frontdesk/app/resource"
)

var resolveDateTool = toolSpec{
	name: "resolve_date", title: "Resolve a date", readOnly: true, idempotent: true,
	description: "Turns what the customer said about a day (\"tomorrow\", \"next Tuesday\", \"in 3 days\", " +
		"\"April 4\", \"mañana\", \"el próximo martes\", \"4 de abril\") into a date in the location's calendar, " +
		"with its weekday. Use it instead of working dates out yourself, and read the note: it says when a " +
		"phrase could mean another day.",
	input: object([]string{"phrase"},
		stringArg("phrase", "The day as the customer said it, in English or Spanish (a time like \"at 5pm\" may follow).", maxPhrase),
		idArg("location_id", "The location whose calendar (time zone) decides what today is. May be left out when the business has one location."),
	),
}

type resolveDateArgs struct {
	Phrase     string `json:"phrase"`
	LocationID *int64 `json:"location_id"`
}

type resolvedOut struct {
	Date         string `json:"date"`
	Weekday      string `json:"weekday"`
	Time         string `json:"time,omitempty"`
	Today        string `json:"today"`
	TodayWeekday string `json:"today_weekday"`
	TimeZone     string `json:"time_zone"`
	Note         string `json:"note,omitempty"`
}

func (s *Server) resolveDate(ctx context.Context, _ call, in *resolveDateArgs) (answer, error) {
	if err := optionalID("location_id", in.LocationID); err != nil {
		return answer{}, err
	}
	var zone *time.Location
	if in.LocationID != nil {
		z, err := s.locationZone(ctx, *in.LocationID)
		if err != nil {
			return answer{}, err
		}
		zone = z
	} else {
		locs, err := s.db.R.MCPLocations(ctx)
		if err != nil {
			return answer{}, err
		}
		if len(locs) != 1 {
			return answer{}, invalid("location_id", "is required: the business has %d locations; call list_locations", len(locs))
		}
		if zone, err = booking.LoadZone(locs[0].Timezone); err != nil {
			return answer{}, err
		}
	}
	now := s.now().In(zone)
	today := booking.DateOf(now)
	rd, err := s.dateArg("phrase", in.Phrase, today)
	if err != nil {
		return answer{}, err
	}
	out := resolvedOut{
		Date: rd.Date.String(), Weekday: rd.Date.Weekday().String(), Today: today.String(), TodayWeekday: now.Weekday().String(),
		TimeZone: zone.String(), Note: rd.Note,
	}
	text := fmt.Sprintf("%s %s (today is %s %s in %s)", out.Weekday, out.Date, out.TodayWeekday, out.Today, out.TimeZone)
	if rd.Minute >= 0 {
		out.Time = resource.WallClock(int64(rd.Minute))
		text += fmt.Sprintf("; time %s (pass after=%s to find_free_times)", out.Time, out.Time)
	}
	if out.Note != "" {
		text += ". Note: " + out.Note
	}
	return answer{data: out, text: text + "."}, nil
}
