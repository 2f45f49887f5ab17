package api

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"frontdesk/app/booking"
)

// Local times sent with Z (docs/api.md, "Local times sent with Z"). Some Connect v3 clients send
// the customer's wall-clock time with a "Z" suffix: "2026-11-25T15:00:00Z" meaning 15:00 at the
// location. For an API key with the z_means_local option, a booking or cart time whose offset is
// written as zero — "Z", "+00:00" or "-00:00" (RFC 3339's "offset unknown") — is such a reading:
// the booking package reads it in the location's zone (booking.WallInstant; a skipped time is a
// 422, a repeated one its first occurrence). Any other offset is an instant, as for every key.
// Answers always carry the true offset.

// wallClock reports whether the time text s, sent with the request's key, is a wall-clock
// reading of the location rather than an instant.
func wallClock(ctx context.Context, s string) bool {
	return keyFrom(ctx).ZMeansLocal && booking.ZeroOffset(s)
}

// utcHint adds to a refusal of a start outside the location's hours (422 outside_hours or
// closed) of a time sent with a zero offset, and read as UTC, what that instant is on the
// location's clock, and the two ways to book the time the client probably meant: the location's
// offset, or the key's z_means_local option. Such clients send the customer's local time with a
// "Z"; a bare "outside the opening hours" leaves them guessing why 10:00 is refused.
func utcHint(err error, sent Opt[string], wall bool) error {
	var ie *booking.InvalidError
	if !sent.Set || sent.Null || wall || !booking.ZeroOffset(sent.V) || !errors.As(err, &ie) ||
		ie.Field != "start_time" || ie.Zone == nil {
		return err
	}
	reason, _, _ := strings.Cut(ie.Message, ": ")
	if r := booking.ReasonCode(reason); r != booking.ReasonOutsideHours && r != booking.ReasonClosed {
		return err
	}
	t, perr := time.Parse(time.RFC3339, sent.V)
	if perr != nil {
		return err
	}
	offset := sent.V[len(sent.V)-6:] // +00:00 or -00:00
	if strings.HasSuffix(strings.ToUpper(sent.V), "Z") {
		offset = "Z"
	}
	meant := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, ie.Zone)
	hinted := *ie
	hinted.Message = fmt.Sprintf("%s. The time was sent with %s, so it was read as UTC: %s UTC is %s in %s, the location's time zone. "+
		"To book %s there, send %s, or ask the business owner to turn on this API key's z_means_local option (docs/api.md, Local times sent with Z)",
		ie.Message, offset, t.Format("2006-01-02 15:04"), t.In(ie.Zone).Format("2006-01-02 15:04"), ie.Zone,
		t.Format("2006-01-02 15:04"), meant.Format(time.RFC3339))
	return &hinted
}
