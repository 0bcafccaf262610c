package serve

import (
	"net"
	"time"
)

// Observer is told what a [Server] does, for metrics (package
// poolroids/ui/serve/metrics exports them to Prometheus). Its methods are
// called on the connections' goroutines, some once a write: they must be
// safe for concurrent use and quick.
type Observer interface {
	// Accepted: a connection passed the rate limit and MaxStartups.
	Accepted()
	// Refused: a connection, request, channel or game was refused.
	// reason is one of the log's reasons, a small fixed set.
	Refused(reason string)
	// LoggedIn: a connection finished its handshake and login, which
	// took d from its accept.
	LoggedIn(d time.Duration)
	// Ended: a logged-in connection ended after d.
	Ended(d time.Duration)
	// Sent: n bytes were written to a client's socket.
	Sent(n int)
}

// counted is a connection whose writes are told to an Observer.
type counted struct {
	net.Conn
	obs Observer
}

func (c counted) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.obs.Sent(n)
	return n, err
}
