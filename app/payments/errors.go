package payments

import (
	"fmt"

	"frontdesk/app/fail"
)

// Lookups that find nothing.
var (
	ErrCartNotFound           = &fail.Error{Code: fail.CodeNotFound, Reason: "cart", Message: "cart not found"}
	ErrPaymentRequestNotFound = &fail.Error{Code: fail.CodeNotFound, Reason: "payment_request", Message: "payment request not found"}
	ErrSaleNotFound           = &fail.Error{Code: fail.CodeNotFound, Reason: "sale", Message: "sale not found"}
)

// Codes of RefusedError: the reference's own where it has one.
const (
	CodeCartExpired        = "cart_expired"
	CodeCartPaid           = "cart_paid"
	CodePaymentsDisabled   = "company_payments_disabled"
	CodeInvalidStatus      = "payment_request_invalid_status"
	CodeItemInvalidType    = "item_invalid_type"
	CodeInvalidStartTime   = "invalid_start_time"
	CodeBookingAlreadySold = "booking_already_sold"
	CodeUnprocessable      = "unprocessable_entity"
)

// RefusedError is a request that breaks a rule: Code is the machine-readable reason (the
// reference's error), Detail says what and where ("items[0].unit_price: …") for a person.
type RefusedError struct {
	Code   string
	Detail string
}

func (e *RefusedError) Error() string { return e.Code + ": " + e.Detail }

// Fail is the refusal as the shared vocabulary says it: invalid, with the refusal's code as the
// reason and its detail (which names the field) as the message.
func (e *RefusedError) Fail() *fail.Error {
	return &fail.Error{Code: fail.CodeInvalid, Reason: e.Code, Message: e.Detail}
}

// refused builds a RefusedError whose detail names field (a path into the request) first.
func refused(code, field, format string, args ...any) *RefusedError {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return &RefusedError{Code: code, Detail: msg}
}

// invalid is a validation failure of one field of the request.
func invalid(field, format string, args ...any) *RefusedError {
	return refused(CodeUnprocessable, field, format, args...)
}
