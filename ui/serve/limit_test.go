package serve

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"
)

func TestLimiter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	l := newLimiter[netip.Prefix](0.5, 3, 4) // a token every 2 s, bursts of 3, 4 addresses
	a := netip.MustParsePrefix("192.0.2.1/32")
	b := netip.MustParsePrefix("192.0.2.2/32")
	steps := []struct {
		at   time.Duration
		k    netip.Prefix
		want bool
	}{
		{0, a, true}, {0, a, true}, {0, a, true},
		{0, a, false},               // burst spent
		{0, b, true},                // another address has its own
		{time.Second, a, false},     // half a token
		{2 * time.Second, a, true},  // one token back
		{2 * time.Second, a, false}, // and spent
		// A minute refills far more than the burst, which is the cap.
		{time.Minute, a, true}, {time.Minute, a, true}, {time.Minute, a, true},
		{time.Minute, a, false},
	}
	for i, s := range steps {
		if got := l.allow(s.k, t0.Add(s.at)); got != s.want {
			t.Errorf("step %d (%v, %v): allow = %v, want %v", i, s.at, s.k, got, s.want)
		}
	}

	// The table stays bounded however many addresses come, and addresses
	// still draining keep their bucket while there is room.
	for i := range 100 {
		k := netip.PrefixFrom(netip.AddrFrom4([4]byte{198, 51, 100, byte(i)}), 32)
		l.allow(k, t0.Add(time.Minute))
		if len(l.m) > 4 {
			t.Fatalf("table grew to %d addresses, bound 4", len(l.m))
		}
	}
}

func TestLimiterKey(t *testing.T) {
	tests := []struct {
		addr string
		want string
	}{
		{"127.0.0.1:2222", "127.0.0.1/32"},
		{"[::ffff:127.0.0.1]:2222", "127.0.0.1/32"},
		{"[2001:db8:1:2:3:4:5:6]:2222", "2001:db8:1:2::/64"},
		{"[::1]:22", "::/64"},
	}
	for _, tt := range tests {
		addr, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := key(addr).String(); got != tt.want {
			t.Errorf("key(%s) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}

func TestStartupsDrop(t *testing.T) {
	m := Startups{Start: 10, Rate: 30, Full: 100}
	tests := []struct{ starting, percent int }{
		{0, 0}, {9, 0}, {10, 30}, {55, 65}, {99, 99}, {100, 100}, {500, 100},
	}
	for _, tt := range tests {
		dropped := 0
		for r := range 100 {
			if m.drop(tt.starting, r) {
				dropped++
			}
		}
		if dropped != tt.percent {
			t.Errorf("%v with %d starting: drops %d%%, want %d%%", m, tt.starting, dropped, tt.percent)
		}
	}
}

func TestParseStartups(t *testing.T) {
	tests := []struct {
		in   string
		want Startups
		err  bool
	}{
		{"10:30:100", Startups{10, 30, 100}, false},
		{"0:100:1", Startups{0, 100, 1}, false},
		{"20", Startups{20, 100, 20}, false},
		{"10:30", Startups{}, true},
		{"10:130:100", Startups{}, true},
		{"100:30:10", Startups{}, true},
		{"0", Startups{}, true},
		{"a:b:c", Startups{}, true},
	}
	for _, tt := range tests {
		got, err := ParseStartups(tt.in)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("ParseStartups(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// dialFrom logs in to ts from the loopback address ip.
func (ts *testServer) dialFrom(t *testing.T, ip string) (*ssh.Client, error) {
	t.Helper()
	return ts.dialVia(t, ip, ts.addr)
}

// dialVia logs in to ts from the loopback address ip through addr, which
// relays to ts (addr is ts.addr for a direct connection).
func (ts *testServer) dialVia(t *testing.T, ip, addr string) (*ssh.Client, error) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	nc, err := d.Dial("tcp", addr)
	if errors.Is(err, syscall.EADDRNOTAVAIL) && os.Getenv("CI") != "true" {
		t.Skipf("%s is not a loopback address here (Linux has all of 127/8)", ip)
	}
	if err != nil {
		return nil, err
	}
	sc, chans, reqs, err := ssh.NewClientConn(nc, ts.addr, &ssh.ClientConfig{
		User: "from-" + ip,
		Auth: []ssh.AuthMethod{ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return nil, nil
		})},
		HostKeyCallback: ssh.FixedHostKey(ts.hostKey),
		Timeout:         5 * time.Second,
	})
	if err != nil {
		nc.Close()
		return nil, err
	}
	c := ssh.NewClient(sc, chans, reqs)
	t.Cleanup(func() { c.Close() })
	return c, nil
}

// starting is how many connections of the address ip count as starting.
func (ts *testServer) starting(ip string) int {
	ts.tally.mu.Lock()
	defer ts.tally.mu.Unlock()
	if a := ts.tally.addrs[netip.MustParsePrefix(ip+"/32")]; a != nil {
		return a.starting
	}
	return 0
}

// TestOneAddressCannotLockOut: 127.0.0.1 plays as many games as it may,
// holds idle logins and opens hundreds of raw TCP connections that never
// speak; a player from 127.0.0.2 still gets a game.
func TestOneAddressCannotLockOut(t *testing.T) {
	ts := startServer(t, Config{MaxSessions: 6})
	for range 4 {
		p := play(t, ts.mustDial(t, "hog", nil), ptyOpts{w: 80, h: 24, quiet: true})
		p.waitScreen(t, "size 80x24")
	}
	over := play(t, ts.mustDial(t, "hog", nil), ptyOpts{w: 80, h: 24})
	if st := over.exit(t); st != 1 || !strings.Contains(over.output(), "too many games from your address") {
		t.Errorf("a fifth game from one address: status %d, output %q", st, over.output())
	}
	// Logged in, no channel: each holds its place among the starting
	// connections until StartTimeout, and those over the address's share
	// are turned away.
	idle := 0
	for range 70 {
		if c, err := ts.dial(t, "idle", nil); err == nil {
			idle++
			t.Cleanup(func() { c.Close() })
		}
	}
	if idle == 0 || idle > 4 {
		t.Errorf("%d of 70 idle logins from one address got in, want 1..4", idle)
	}
	var raw []net.Conn
	for range 300 {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, nc)
	}
	t.Cleanup(func() {
		for _, nc := range raw {
			nc.Close()
		}
	})
	if n := ts.starting("127.0.0.1"); n > 4 {
		t.Errorf("127.0.0.1 has %d connections starting, want at most 4", n)
	}

	c, err := ts.dialFrom(t, "127.0.0.2")
	if err != nil {
		t.Fatalf("127.0.0.2 cannot log in: %v", err)
	}
	p := play(t, c, ptyOpts{w: 80, h: 24})
	p.waitScreen(t, "size 80x24", "player from-127.0.0.2")
	p.keys(t, "q")
	if st := p.exit(t); st != 0 {
		t.Errorf("127.0.0.2's game ended with %d", st)
	}
}

// TestStartTimeout: a logged-in connection that starts no game is closed
// after StartTimeout, and gives back its place.
func TestStartTimeout(t *testing.T) {
	ts := startServer(t, Config{StartTimeout: 200 * time.Millisecond, MaxStartupsPerAddress: 1})
	t.Run("no channel", func(t *testing.T) {
		c := ts.mustDial(t, "loiter", nil)
		waitClosed(t, c)
		waitLog(t, ts, "msg=disconnect", "user=loiter", `reason="no game started"`)
	})
	t.Run("pty, no shell", func(t *testing.T) {
		c := ts.mustDial(t, "loiter2", nil)
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
			t.Fatal(err)
		}
		waitClosed(t, c)
		waitLog(t, ts, "msg=disconnect", "user=loiter2", `reason="no game started"`)
	})
	// The one place 127.0.0.1 has is free again.
	if !waitUntil(t, func() bool { return ts.starting("127.0.0.1") == 0 }) {
		t.Fatalf("127.0.0.1 still has %d connections starting", ts.starting("127.0.0.1"))
	}
	p := play(t, ts.mustDial(t, "player", nil), ptyOpts{w: 80, h: 24})
	p.waitScreen(t, "size 80x24")
	p.keys(t, "q")
	p.exit(t)
}

// waitClosed waits for the server to close c.
func waitClosed(t *testing.T, c *ssh.Client) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	var err error
	if !waitUntil(t, func() bool { return received(done, &err) }) {
		t.Fatal("the connection is still open")
	}
}

// TestMaxStartups: when the starting connections are at Full, the next is
// dropped, whatever its address; one of them ending lets the next in.
func TestMaxStartups(t *testing.T) {
	ts := startServer(t, Config{MaxStartups: Startups{Start: 2, Rate: 100, Full: 2}, LoginTimeout: 2 * time.Second})
	var raw []net.Conn
	for range 2 {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		raw = append(raw, nc)
	}
	if !waitUntil(t, func() bool { return ts.starting("127.0.0.1") == 2 }) {
		t.Fatalf("%d connections starting, want 2", ts.starting("127.0.0.1"))
	}
	if c, err := ts.dialFrom(t, "127.0.0.2"); err == nil {
		c.Close()
		t.Error("a third starting connection was let in")
	}
	waitLog(t, ts, "msg=rejected", `reason="too many logins"`)
	raw[0].Close()
	if !waitUntil(t, func() bool { return ts.starting("127.0.0.1") == 1 }) {
		t.Fatal("the closed connection still counts")
	}
	if _, err := ts.dialFrom(t, "127.0.0.2"); err != nil {
		t.Errorf("after one closed: %v", err)
	}
	// The raw connection left is cut at LoginTimeout's end.
	_ = raw[1].SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.Copy(io.Discard, raw[1]); err != nil {
		t.Errorf("reading the raw connection: %v", err)
	}
}

// lobbyPlay is a lobby for the limits' tests: g plays a game (shown as
// "playing", or the refusal), l leaves it for the lobby again, q quits.
func lobbyPlay(ctx context.Context, scr tcell.Screen, s Session) (int, error) {
	if err := scr.Init(); err != nil {
		return 0, err
	}
	defer scr.Fini()
	show := func(text string) { showLine(scr, text) }
	show("in the lobby")
	for {
		ev, ok := scr.PollEvent().(*tcell.EventKey)
		switch {
		case ctx.Err() != nil:
			return 0, nil
		case !ok:
		case ev.Rune() == 'g':
			if err := s.SetPlaying(true); err != nil {
				show(err.Error())
				continue
			}
			show("playing")
		case ev.Rune() == 'l':
			_ = s.SetPlaying(false)
			show("in the lobby")
		case ev.Rune() == 'q':
			return 0, nil
		}
	}
}

// TestLobbyIsNoGame: the lobby, watching, a replay are no games: one
// address with one game allowed may have two sessions, and play in one
// of them at a time; a third session, or a second game, is refused,
// each saying which limit it hit. On main a second session from the
// address was refused as "too many games" though neither played.
func TestLobbyIsNoGame(t *testing.T) {
	t.Parallel()
	ts := startServer(t, Config{Play: lobbyPlay, MaxPerAddress: 1})
	a := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 80, h: 24})
	a.waitScreen(t, "in the lobby")
	b := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 80, h: 24})
	b.waitScreen(t, "in the lobby")
	a.keys(t, "g")
	a.waitScreen(t, "playing")
	b.keys(t, "g")
	b.waitScreen(t, "refused: too many games from your address (1 at once), try later")
	waitLog(t, ts, "msg=rejected", `reason="too many games from one address"`)
	a.keys(t, "l")
	a.waitScreen(t, "in the lobby")
	b.keys(t, "g")
	b.waitScreen(t, "playing")

	c := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 80, h: 24})
	if st := c.exit(t); st != 1 || !strings.Contains(c.output(), "too many sessions from your address (2 at once), try later") {
		t.Errorf("a third session: status %d, output %q", st, tail(c.output()))
	}
	waitLog(t, ts, "msg=rejected", `reason="too many sessions from one address"`)
	for _, p := range []*player{a, b} {
		p.keys(t, "q")
		if st := p.exit(t); st != 0 {
			t.Errorf("exit status %d, want 0", st)
		}
	}
}
