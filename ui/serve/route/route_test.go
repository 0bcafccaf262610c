package route

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/ui/serve"
)

// newRouter makes a server's Router with arenas of size ships, closed at
// the test's end.
func newRouter(t *testing.T, size int) *Router {
	t.Helper()
	r, err := New(Config{Arenas: hub.Config{Size: size}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// seat seats a player in the arena name of r until the test's end.
func seat(t *testing.T, r *Router, req hub.Request) {
	t.Helper()
	s, err := r.hub.Join(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Leave)
}

// session is a session of no server, from loopback, asking for c.
func session(c serve.Command) serve.Session {
	return serve.Session{Name: "ann", RemoteAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, Command: c}
}

// refusal returns the message of err, a RefusedError, or fails t.
func refusal(t *testing.T, err error) string {
	t.Helper()
	var r *serve.RefusedError
	if !errors.As(err, &r) {
		t.Fatalf("Play: %v, want a RefusedError", err)
	}
	return r.Message
}

// TestPlayRefuses: a command the server cannot serve ends the session
// with the hub's reason, before anything is drawn.
func TestPlayRefuses(t *testing.T) {
	t.Parallel()
	r := newRouter(t, 1)
	seat(t, r, hub.Request{Arena: "full", Player: "bob"})
	for _, c := range []struct {
		name string
		cmd  serve.Command
		want error
	}{
		{"watch nothing", serve.Command{Verb: serve.VerbWatch, Name: "nobody"}, play.ErrNoGame},
		{"join a full arena", serve.Command{Verb: serve.VerbJoin, Name: "full"}, hub.ErrFull},
		{"new an open arena", serve.Command{Verb: serve.VerbNew, Name: "full"}, hub.ErrExists},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := r.Play(context.Background(), nil, session(c.cmd))
			if got := refusal(t, err); !strings.HasPrefix(got, c.want.Error()) {
				t.Errorf("refused with %q, want %q", got, c.want)
			}
		})
	}
}
