package fail_test

import (
	"errors"
	"fmt"
	"testing"

	"frontdesk/app/fail"
)

// coded is a domain error of its own type that says its code through Fail.
type coded struct{ rule string }

func (c *coded) Error() string { return "refused by " + c.rule }
func (c *coded) Fail() *fail.Error {
	return fail.Forbidden(c.rule, c.Error())
}

func TestCodeOf(t *testing.T) {
	for _, tc := range []struct {
		name                string
		err                 error
		code                fail.Code
		field, reason, text string
	}{
		{"nil", nil, fail.CodeInternal, "", "", ""},
		{"an error without a code is internal", errors.New("disk on fire"), fail.CodeInternal, "", "", "disk on fire"},
		{"not found names the resource", fail.NotFound("client"), fail.CodeNotFound, "", "client", "client not found"},
		{"invalid names the field", fail.Invalid("email", "must contain %q", "@"), fail.CodeInvalid, "email", "", `email: must contain "@"`},
		{"a refusal of the whole request", fail.Refused("client_already_deactivated", "already deactivated"),
			fail.CodeInvalid, "", "client_already_deactivated", "already deactivated"},
		{"conflict", fail.Conflict("slot_unavailable", "taken"), fail.CodeConflict, "", "slot_unavailable", "taken"},
		{"wrapped", fmt.Errorf("book: %w", fail.Conflict("class_full", "full")), fail.CodeConflict, "", "class_full", "book: full"},
		{"a type of its own", fmt.Errorf("cancel: %w", &coded{"can_cancel"}), fail.CodeForbidden, "", "can_cancel", "cancel: refused by can_cancel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fail.CodeOf(tc.err); got != tc.code {
				t.Errorf("CodeOf = %q, want %q", got, tc.code)
			}
			if got := fail.FieldOf(tc.err); got != tc.field {
				t.Errorf("FieldOf = %q, want %q", got, tc.field)
			}
			if got := fail.ReasonOf(tc.err); got != tc.reason {
				t.Errorf("ReasonOf = %q, want %q", got, tc.reason)
			}
			if tc.err != nil && tc.err.Error() != tc.text {
				t.Errorf("Error() = %q, want %q", tc.err.Error(), tc.text)
			}
			if tc.code != fail.CodeInternal && !fail.Is(tc.err, tc.code, tc.reason) {
				t.Errorf("Is(%q, %q) = false", tc.code, tc.reason)
			}
		})
	}
}

// A sentinel made of fail.Error stays a sentinel: errors.Is finds it and no other refusal of
// the same code.
func TestSentinelsStayDistinct(t *testing.T) {
	taken := fail.Conflict("slot_unavailable", "taken")
	full := fail.Conflict("class_full", "full")
	err := fmt.Errorf("place: %w", taken)
	if !errors.Is(err, taken) || errors.Is(err, full) {
		t.Errorf("errors.Is: taken %v, full %v; want true, false", errors.Is(err, taken), errors.Is(err, full))
	}
	if fail.Is(err, fail.CodeConflict, "class_full") {
		t.Error(`Is(conflict, "class_full") of slot_unavailable = true`)
	}
}
