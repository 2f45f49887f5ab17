package mailer

// ClaimRounds is how many claim rounds the dispatcher has run, and Claimed how many first
// attempts they claimed from the outbox (handed-off messages are not among them).
func (m *Mailer) ClaimRounds() int64 { return m.disp.rounds.Load() }
func (m *Mailer) Claimed() int64     { return m.disp.claimed.Load() }
