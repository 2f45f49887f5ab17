-- name: DropNewConfirmations :exec
-- Classes and messages: the confirmations just planned for a booking made by a waitlist
-- promotion, in the same transaction; the "you got a seat" email replaces them (SeatGiven).
DELETE FROM messages
WHERE booking_id = ? AND kind = 'confirmation' AND state = 'pending' AND attempts = 0;
