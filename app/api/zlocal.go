package api

import (
	"context"

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
