package booking

import (
	"context"
	"fmt"
	"time"

	"frontdesk/db"
	"frontdesk/ui/i18n"
)

// Reasons ExplainAt adds to the engine's: records that take a provider or a service out of
// /v3/available_slots before any time rule is asked.
const (
	ReasonLocationInactive ReasonCode = "location_inactive"
	ReasonServiceInactive  ReasonCode = "service_inactive"
	ReasonProviderInactive ReasonCode = "provider_inactive"
	ReasonNotOnline        ReasonCode = "not_bookable_online"
)

// ExplainAt answers the owner's "why is this slot not offered?" for a provider and a start time:
// it loads the schedule as GET /v3/available_slots sees it and returns the first rule that
// removes the start, or ReasonOK when the slot is offered. serviceID 0 asks about the generic
// slots offered without a service. A missing location, service or provider is a
// *NotFoundError.
func ExplainAt(ctx context.Context, d *db.DB, locationID, serviceID, providerID int64, start, now time.Time) (Reason, error) {
	day := DateOf(start.UTC())
	l, err := LoadScheduleCached(ctx, d, ScheduleQuery{
		LocationID: locationID, ServiceID: serviceID, ProviderID: providerID,
		First: day.AddDays(-1), Last: day.AddDays(1),
	})
	if err != nil {
		return Reason{}, err
	}
	prov := l.Provider
	switch svc := l.Service; {
	case !l.Location.Active:
		return Reason{ReasonLocationInactive, fmt.Sprintf("the location %s is inactive", l.Location.Name), i18n.M("explain.msg.location_inactive", "location", l.Location.Name)}, nil
	case svc != nil && !svc.Active:
		return Reason{ReasonServiceInactive, fmt.Sprintf("the service %s is inactive", svc.Name), i18n.M("explain.msg.service_inactive", "service", svc.Name)}, nil
	case svc != nil && !svc.OnlineBooking:
		return Reason{ReasonNotOnline, fmt.Sprintf("the service %s is not bookable online", svc.Name), i18n.M("explain.msg.service_not_online", "service", svc.Name)}, nil
	case !prov.Active:
		return Reason{ReasonProviderInactive, fmt.Sprintf("%s is inactive", prov.PublicName), i18n.M("explain.msg.provider_inactive", "provider", prov.PublicName)}, nil
	case !prov.OnlineBooking:
		return Reason{ReasonNotOnline, fmt.Sprintf("%s is not bookable online", prov.PublicName), i18n.M("explain.msg.provider_not_online", "provider", prov.PublicName)}, nil
	}
	return Explain(l.Schedule, providerID, start, now), nil
}
