package smtptest

import (
	"github.com/emersion/go-sasl"
)

// plainServer checks PLAIN credentials against the server's users.
func plainServer(x *session) sasl.Server {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		x.s.mu.Lock()
		want, ok := x.s.users[username]
		x.s.mu.Unlock()
		if !ok || want != password {
			return Refuse(535, "5.7.8 authentication failed")
		}
		x.auth = true
		return nil
	})
}
