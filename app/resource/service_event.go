package resource

import (
	"bytes"
	"encoding/json"
)

// ServiceUpdated is the data of a service.updated event (docs/webhooks.md): the scalar fields of
// GET /v3/services/{id} including keywords and category{id,name} (or null), without the
// computed type, online_payment, images and providers. It is exactly Service, named here so
// the event's shape has one place to be looked up.
type ServiceUpdated = Service

// NewServiceUpdated builds the event data of a service as it is stored now.
func NewServiceUpdated(r ServiceRow, companyID int64) ServiceUpdated {
	return NewService(r, companyID)
}

// ServiceEventChanged reports whether a receiver of service.updated would see a difference
// between two versions of a service, updated_at aside: a save that changes only the time stamp,
// or only fields outside the payload (buffers, capacity, images, providers …), sends no event.
// The versions are compared as the JSON a receiver gets, so the rule cannot drift from the
// payload when a field is added to Service.
func ServiceEventChanged(before, after ServiceUpdated) bool {
	before.UpdatedAt, after.UpdatedAt = "", ""
	b, errB := json.Marshal(before)
	a, errA := json.Marshal(after)
	if errB != nil || errA != nil {
		return true // unreachable for this plain struct; sending an event is the safe side
	}
	return !bytes.Equal(a, b)
}
