package messages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"frontdesk/db"
)

// Entry is one message in the log or on a booking's page.
type Entry struct {
	ID               int64
	MessageID        string // the left part of the Message-ID header
	Kind             Kind
	Recipient        string // ToClient, ToOwner or ToAddress
	To               string // the address it went to ("" before the first attempt)
	BookingID        int64
	PaymentRequestID int64
	Offset           time.Duration // reminders
	State            string
	InFlight         bool   // being sent right now
	Note             string // why skipped or failed, or the server's last answer
	SendAt           time.Time
	NextAttemptAt    time.Time
	Attempts         int
	LastAttemptAt    time.Time
	LastCode         int
	Subject          string
}

func entryOf(r db.ListMessagesRow) Entry {
	e := Entry{
		ID: r.ID, MessageID: r.MessageKey, Kind: Kind(r.Kind), Recipient: r.Recipient, To: r.ToAddress,
		BookingID: r.BookingID.Int64, PaymentRequestID: r.PaymentRequestID.Int64,
		Offset: time.Duration(r.OffsetMin.Int64) * time.Minute, State: r.State, Note: r.Note,
		SendAt: db.Time(r.SendAt), Attempts: int(r.Attempts), LastCode: int(r.LastCode.Int64), Subject: r.Subject,
		InFlight: r.State == StatePending && !r.NextAttemptAt.Valid,
	}
	if r.NextAttemptAt.Valid {
		e.NextAttemptAt = db.Time(r.NextAttemptAt.Int64)
	}
	if r.LastAttemptAt.Valid {
		e.LastAttemptAt = db.Time(r.LastAttemptAt.Int64)
	}
	return e
}

// LogFilter selects messages for the log, newest planned time first.
type LogFilter struct {
	State   string // "" for every state
	Kind    Kind   // "" for every type
	Search  string // part of an address, or a Message-ID's left part
	Page    int
	PerPage int
}

// LogPage is one page of the log.
type LogPage struct {
	Entries    []Entry
	Total      int
	Page       int
	PerPage    int
	TotalPages int
}

// Log returns a page of the message log.
func (s *Service) Log(ctx context.Context, f LogFilter) (LogPage, error) {
	page := LogPage{Page: max(f.Page, 1), PerPage: f.PerPage}
	if page.PerPage < 1 || page.PerPage > 100 {
		page.PerPage = 30
	}
	args := db.CountMessagesParams{State: f.State, Kind: string(f.Kind), Search: f.Search}
	total, err := s.db.R.CountMessages(ctx, args)
	if err != nil {
		return page, err
	}
	page.Total = int(total)
	page.TotalPages = (page.Total + page.PerPage - 1) / page.PerPage
	rows, err := s.db.R.ListMessages(ctx, db.ListMessagesParams{State: f.State, Kind: string(f.Kind), Search: f.Search,
		Lim: int64(page.PerPage), Off: int64(page.Page-1) * int64(page.PerPage)})
	if err != nil {
		return page, err
	}
	for _, r := range rows {
		page.Entries = append(page.Entries, entryOf(r))
	}
	return page, nil
}

// ForBooking lists every message sent or planned for a booking, in time order.
func (s *Service) ForBooking(ctx context.Context, bookingID int64) ([]Entry, error) {
	rows, err := s.db.R.BookingMessages(ctx, sql.NullInt64{Int64: bookingID, Valid: true})
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(rows))
	for i, r := range rows {
		out[i] = entryOf(db.ListMessagesRow(r))
	}
	return out, nil
}

// Attempt is one hand-over to the mail server as the log records it.
type Attempt struct {
	Number    int
	StartedAt time.Time
	Duration  time.Duration
	Code      int    // the server's reply code; 0 for none
	Category  string // one of the Category* constants, "" when sent
	Reply     string // the server's answer or the error
	To        string
	Header    string // the Message-ID sent
}

// Detail is a message with every attempt, oldest first.
type Detail struct {
	Entry
	Attempts []Attempt
}

// ErrNotFound is returned for a message that does not exist.
var ErrNotFound = errors.New("no such message")

// Message returns one message with its attempts.
func (s *Service) Message(ctx context.Context, id int64) (Detail, error) {
	r, err := s.db.R.GetMessageRow(ctx, id)
	if db.IsNotFound(err) {
		return Detail{}, ErrNotFound
	}
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Entry: entryOf(db.ListMessagesRow{
		ID: r.ID, MessageKey: r.MessageKey, Kind: r.Kind, Recipient: r.Recipient, ToAddress: r.ToAddress,
		BookingID: r.BookingID, PaymentRequestID: r.PaymentRequestID, OffsetMin: r.OffsetMin, State: r.State,
		Note: r.Note, SendAt: r.SendAt, NextAttemptAt: r.NextAttemptAt, Attempts: r.Attempts, SeriesBase: r.SeriesBase,
		LastAttemptAt: r.LastAttemptAt, LastCode: r.LastCode, Subject: r.Subject, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	})}
	rows, err := s.db.R.ListMessageAttempts(ctx, id)
	if err != nil {
		return d, err
	}
	for _, a := range rows {
		d.Attempts = append(d.Attempts, Attempt{
			Number: int(a.Attempt), StartedAt: db.Time(a.StartedAt), Duration: time.Duration(a.DurationMs) * time.Millisecond,
			Code: int(a.Code.Int64), Category: a.Category.String, Reply: a.Reply, To: a.ToAddress, Header: a.MessageIDHeader,
		})
	}
	return d, nil
}

// ErrNotResendable is returned by Resend for a message that is pending or was skipped.
var ErrNotResendable = errors.New("only a sent or failed message can be sent again")

// Resend sends a sent or failed message again, now, as a new series of attempts with the same
// Message-ID. It is rendered from the booking as it is now; the checks at sending still apply.
func (s *Service) Resend(ctx context.Context, id int64) error {
	return s.db.InTx(ctx, func(q *db.Queries) error {
		n, err := q.RestartMessage(ctx, db.RestartMessageParams{ID: id, Now: nullMs(s.now())})
		if err != nil {
			return err
		}
		if n == 0 {
			if _, err := q.GetMessageRow(ctx, id); db.IsNotFound(err) {
				return ErrNotFound
			}
			return fmt.Errorf("message %d: %w", id, ErrNotResendable)
		}
		return nil
	})
}

func nullMs(t time.Time) sql.NullInt64 { return sql.NullInt64{Int64: db.Millis(t), Valid: true} }
