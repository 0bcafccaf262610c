package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

func TestKeysResizeQuit(t *testing.T) {
	ts := startServer(t, Config{})
	c := ts.mustDial(t, "alice", newKey(t))
	p := play(t, c, ptyOpts{w: 100, h: 30})
	p.waitScreen(t, "size 100x30", "player alice ")
	p.keys(t, "abc")
	p.waitScreen(t, "keys abc")
	p.vt.resize(120, 40) // the terminal first, as a real one does
	if err := p.sess.WindowChange(40, 120); err != nil {
		t.Fatal(err)
	}
	p.waitScreen(t, "size 120x40", "keys abc")
	p.keys(t, "q")
	if st := p.exit(t); st != 0 {
		t.Errorf("exit status after q = %d, want 0", st)
	}
	waitLog(t, ts, `msg=disconnect`, `score=3`, `reason=quit`)
}

// TestWindowClamped asks for sizes no terminal has, at the start and by
// window-change, and checks the screen's size and the server's heap while
// such screens are live.
func TestWindowClamped(t *testing.T) {
	ts := startServer(t, Config{})
	tests := []struct {
		name string
		w, h int
		want string
	}{
		{"huge", 65535, 65535, fmt.Sprintf("size %dx%d", MaxWidth, MaxHeight)},
		{"zero", 0, 0, fmt.Sprintf("size %dx%d", defaultWidth, defaultHeight)},
		{"tiny", 3, 2, fmt.Sprintf("size %dx%d", MinWidth, MinHeight)},
		{"wide", 65535, 1, fmt.Sprintf("size %dx%d", MaxWidth, MinHeight)},
		{"tall", 0, 65535, fmt.Sprintf("size %dx%d", defaultWidth, MaxHeight)},
		{"normal", 120, 40, "size 120x40"},
	}
	t.Run("window-change", func(t *testing.T) {
		p := play(t, ts.mustDial(t, "bob", nil), ptyOpts{w: 120, h: 40})
		for _, tt := range tests {
			w, h := clampSize(uint32(tt.w), uint32(tt.h))
			p.vt.resize(w, h) // the terminal first, as a real one does
			if err := p.sess.WindowChange(tt.h, tt.w); err != nil {
				t.Fatal(err)
			}
			p.waitScreen(t, tt.want)
		}
		p.keys(t, "q")
		p.exit(t)
	})
	for _, tt := range tests {
		t.Run("pty-req "+tt.name, func(t *testing.T) {
			p := play(t, ts.mustDial(t, "bob", nil), ptyOpts{w: tt.w, h: tt.h})
			p.waitScreen(t, tt.want)
			p.keys(t, "q")
			p.exit(t)
		})
	}
	t.Run("heap", func(t *testing.T) {
		const n = 4
		var live []*player
		for range n {
			p := play(t, ts.mustDial(t, "bob", nil), ptyOpts{w: 65535, h: 65535, quiet: true})
			live = append(live, p)
		}
		for _, p := range live {
			p.waitScreen(t, tests[0].want)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("heap with %d screens of 65535×65535 asked: %d MiB", n, ms.HeapAlloc>>20)
		if ms.HeapAlloc > 64<<20 {
			t.Errorf("heap = %d MiB, want < 64", ms.HeapAlloc>>20)
		}
		for _, p := range live {
			p.keys(t, "q")
			p.exit(t)
		}
	})
}

// waitLog waits until one line of the server's log holds all of want.
func waitLog(t testing.TB, ts *testServer, want ...string) string {
	t.Helper()
	var found string
	if !waitUntil(t, func() bool {
		for _, line := range strings.Split(ts.log.String(), "\n") {
			all := true
			for _, w := range want {
				all = all && strings.Contains(line, w)
			}
			if all {
				found = line
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no log line holds %q; the log:\n%s", want, ts.log.String())
	}
	return found
}

// run runs cmd (or a shell when cmd is "") without a pty and returns its
// exit status and what it wrote.
func run(t *testing.T, c *ssh.Client, cmd string) (int, string) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out logBuf // stdout and stderr are copied by two goroutines
	sess.Stdout, sess.Stderr = &out, &out
	if cmd == "" {
		if err = sess.Shell(); err == nil {
			err = sess.Wait()
		}
	} else {
		err = sess.Run(cmd)
	}
	var ee *ssh.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("want an exit status, got %v", err)
	}
	return ee.ExitStatus(), out.String()
}

func TestRefused(t *testing.T) {
	ts := startServer(t, Config{})
	t.Run("no pty", func(t *testing.T) {
		st, out := run(t, ts.mustDial(t, "eve", nil), "")
		if st != 1 || !strings.Contains(out, "connect with a terminal") || strings.Count(out, "\n") != 1 {
			t.Errorf("shell without pty: status %d, output %q; want 1 and one line of explanation", st, out)
		}
		waitLog(t, ts, "msg=rejected", `reason="no pty"`)
	})
	t.Run("exec", func(t *testing.T) {
		st, out := run(t, ts.mustDial(t, "eve", nil), "cat /etc/passwd")
		if st != 1 || !strings.Contains(out, "runs no commands") || strings.Contains(out, "root:") {
			t.Errorf("exec: status %d, output %q; want 1 and an explanation", st, out)
		}
	})
	t.Run("exec with pty", func(t *testing.T) {
		c := ts.mustDial(t, "eve", nil)
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
			t.Fatal(err)
		}
		var out logBuf
		sess.Stdout, sess.Stderr = &out, &out
		var ee *ssh.ExitError
		if err := sess.Run("sh"); !errors.As(err, &ee) || ee.ExitStatus() != 1 {
			t.Errorf("exec with pty: %v, want exit status 1", err)
		}
	})
	t.Run("subsystem", func(t *testing.T) {
		sess, err := ts.mustDial(t, "eve", nil).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestSubsystem("sftp"); err == nil {
			t.Error("sftp subsystem accepted")
		}
	})
	t.Run("agent forwarding", func(t *testing.T) {
		sess, err := ts.mustDial(t, "eve", nil).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := agent.RequestAgentForwarding(sess); err == nil {
			t.Error("agent forwarding accepted")
		}
	})
	t.Run("x11", func(t *testing.T) {
		sess, err := ts.mustDial(t, "eve", nil).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := sess.SendRequest("x11-req", true, nil); ok || err != nil {
			t.Errorf("x11-req: ok=%v err=%v, want refused", ok, err)
		}
	})
	t.Run("local port forward", func(t *testing.T) {
		target, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer target.Close()
		_, err = ts.mustDial(t, "eve", nil).Dial("tcp", target.Addr().String())
		var oe *ssh.OpenChannelError
		if !errors.As(err, &oe) || oe.Reason != ssh.Prohibited {
			t.Errorf("direct-tcpip: %v, want prohibited", err)
		}
		waitLog(t, ts, "msg=rejected", `reason="port forwarding"`)
	})
	t.Run("remote port forward", func(t *testing.T) {
		if ln, err := ts.mustDial(t, "eve", nil).Listen("tcp", "127.0.0.1:0"); err == nil {
			ln.Close()
			t.Error("tcpip-forward accepted")
		}
	})
	t.Run("second session", func(t *testing.T) {
		c := ts.mustDial(t, "eve", nil)
		p := play(t, c, ptyOpts{w: 80, h: 24})
		p.waitScreen(t, "size 80x24")
		if _, err := c.NewSession(); err == nil {
			t.Error("second session on one connection accepted")
		}
		p.keys(t, "q")
		p.exit(t)
	})
}

func TestAuthentication(t *testing.T) {
	dir := t.TempDir()
	allowed, other := newKey(t), newKey(t)
	path := filepath.Join(dir, "authorized_keys")
	line := "# players\n\n" + string(ssh.MarshalAuthorizedKey(allowed.PublicKey()))
	if err := os.WriteFile(path, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	open := startServer(t, Config{})
	closed := startServer(t, Config{AuthorizedKeysPath: path})
	tests := []struct {
		name   string
		ts     *testServer
		key    ssh.Signer
		ok     bool
		player string // what the game calls the player
	}{
		{"open, key", open, other, true, "carol " + fingerprint(other)[:8]},
		{"open, no key", open, nil, true, "carol"},
		{"restricted, listed key", closed, allowed, true, "carol " + fingerprint(allowed)[:8]},
		{"restricted, other key", closed, other, false, ""},
		{"restricted, no key", closed, nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.ts.dial(t, "carol", tt.key)
			if !tt.ok {
				if err == nil {
					c.Close()
					t.Fatal("login accepted")
				}
				waitLog(t, tt.ts, "msg=rejected", `reason="authentication failed"`)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			p := play(t, c, ptyOpts{w: 80, h: 24})
			p.waitScreen(t, "player "+tt.player+"\n")
			p.keys(t, "q")
			p.exit(t)
		})
	}
	t.Run("password", func(t *testing.T) {
		_, err := ssh.Dial("tcp", open.addr, &ssh.ClientConfig{
			User:            "carol",
			Auth:            []ssh.AuthMethod{ssh.Password("hunter2")},
			HostKeyCallback: ssh.FixedHostKey(open.hostKey),
		})
		if err == nil {
			t.Error("password login accepted")
		}
	})
}

func fingerprint(k ssh.Signer) string {
	return strings.TrimPrefix(ssh.FingerprintSHA256(k.PublicKey()), "SHA256:")
}

func TestServerFull(t *testing.T) {
	ts := startServer(t, Config{MaxSessions: 2})
	var players []*player
	for range 2 {
		p := play(t, ts.mustDial(t, "dave", nil), ptyOpts{w: 80, h: 24})
		p.waitScreen(t, "size 80x24")
		players = append(players, p)
	}
	over := play(t, ts.mustDial(t, "dave", nil), ptyOpts{w: 80, h: 24})
	if st := over.exit(t); st != 1 || !strings.Contains(over.output(), "server full (2 at once), try later") {
		t.Errorf("one over the limit: status %d, output %q", st, over.output())
	}
	waitLog(t, ts, "msg=rejected", `reason="server full"`)
	players[0].keys(t, "q")
	players[0].exit(t)
	// The freed slot is taken again.
	again := play(t, ts.mustDial(t, "dave", nil), ptyOpts{w: 80, h: 24})
	again.waitScreen(t, "size 80x24")
	for _, p := range []*player{players[1], again} {
		p.keys(t, "q")
		p.exit(t)
	}
}

// TestPanicEndsOneSession panics in Play and in a goroutine Play started,
// while another session plays on.
func TestPanicEndsOneSession(t *testing.T) {
	ts := startServer(t, Config{})
	other := play(t, ts.mustDial(t, "survivor", nil), ptyOpts{w: 80, h: 24})
	other.waitScreen(t, "size 80x24")
	for _, key := range []string{"!", "@"} {
		t.Run(key, func(t *testing.T) {
			p := play(t, ts.mustDial(t, "crasher", nil), ptyOpts{w: 80, h: 24})
			p.waitScreen(t, "size 80x24")
			p.keys(t, key)
			if st := p.exit(t); st != 1 || !strings.Contains(p.output(), "internal error") {
				t.Errorf("after a panic: status %d, output ends %q", st, tail(p.output()))
			}
			waitLog(t, ts, "msg=panic", "test panic", "goroutine ", "helpers_test.go")
			waitLog(t, ts, "msg=disconnect", "user=crasher", "reason=panic")
			other.keys(t, "x")
		})
	}
	other.waitScreen(t, "keys xx")
	other.keys(t, "q")
	if st := other.exit(t); st != 0 {
		t.Errorf("the other session ended with %d", st)
	}
}

func tail(s string) string { return s[max(0, len(s)-200):] }

// TestNoLeaks connects and disconnects 50 times, half quitting the game,
// half dropping the connection mid-game, and checks that every goroutine
// the server (and the game) started is gone: with the test game and with
// the real one.
func TestNoLeaks(t *testing.T) {
	tests := []struct {
		name  string
		play  PlayFunc
		shown string
	}{
		{"test game", testPlay, "size 80x24"},
		{"real game", uiPlay, "pools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, Config{Play: tt.play})
			warm := play(t, ts.mustDial(t, "warm", nil), ptyOpts{w: 80, h: 24})
			warm.waitScreen(t, tt.shown)
			warm.keys(t, "q")
			warm.exit(t)
			ts.waitIdle(t)
			base := runtime.NumGoroutine()
			for i := range 50 {
				comeAndGo(t, ts, i, ptyOpts{w: 80, h: 24, quiet: true}, "q", tt.shown)
			}
			ts.waitIdle(t)
			if n := settle(t, base); n > base {
				buf := make([]byte, 1<<20)
				buf = buf[:runtime.Stack(buf, true)]
				t.Errorf("goroutines: %d before, %d after 50 sessions\n%s", base, n, buf)
			}
			if n := ts.Sessions(); n != 0 {
				t.Errorf("%d sessions still counted", n)
			}
			waitLog(t, ts, "msg=disconnect", "user=leaky", "reason=disconnect")
		})
	}
}

// waitIdle waits for the server to have no connection.
func (ts *testServer) waitIdle(t *testing.T) {
	t.Helper()
	var n int
	if !waitUntil(t, func() bool {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		n = len(ts.conns)
		return n == 0
	}) {
		t.Fatalf("%d connections still open", n)
	}
}

// settle waits for the goroutine count to drop to want and returns the
// count.
func settle(t *testing.T, want int) int {
	t.Helper()
	var n int
	waitUntil(t, func() bool {
		n = runtime.NumGoroutine()
		return n <= want
	})
	return n
}

func TestShutdown(t *testing.T) {
	ts := startServer(t, Config{})
	var players []*player
	for range 3 {
		p := play(t, ts.mustDial(t, "frank", nil), ptyOpts{w: 80, h: 24})
		p.waitScreen(t, "size 80x24")
		players = append(players, p)
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Shutdown took %v", d)
	}
	for _, p := range players {
		if st := p.exit(t); st != 1 || !strings.Contains(p.output(), "poolroids: server shutting down") {
			t.Errorf("at shutdown: status %d, output ends %q", st, tail(p.output()))
		}
	}
	waitLog(t, ts, "msg=disconnect", "reason=shutdown")
	closedToNewcomers(t, ts)
}

// closedToNewcomers checks that Serve has returned ErrServerClosed and
// that a new connection is refused.
func closedToNewcomers(t *testing.T, ts *testServer) {
	t.Helper()
	if err := <-ts.served; !errors.Is(err, ErrServerClosed) {
		t.Errorf("Serve returned %v", err)
	}
	ts.served <- ErrServerClosed // for the cleanup's check
	if c, err := ts.dial(t, "late", nil); err == nil {
		c.Close()
		t.Error("a connection was accepted")
	}
}

// TestDrain: Drain closes the listener, Serve returns, and the players
// play on until Shutdown ends them.
func TestDrain(t *testing.T) {
	ts := startServer(t, Config{})
	p := play(t, ts.mustDial(t, "frank", nil), ptyOpts{w: 80, h: 24})
	p.waitScreen(t, "size 80x24")
	ts.Drain()
	closedToNewcomers(t, ts)
	_, _ = io.WriteString(p.in, "abc")
	p.waitScreen(t, "keys abc") // still playing
	if n := ts.Sessions(); n != 1 {
		t.Errorf("%d sessions while draining, want 1", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if st := p.exit(t); st != 1 {
		t.Errorf("the player's exit at shutdown: %d", st)
	}
}

func TestLimits(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			ts := startPipeServer(t, Config{Idle: 400 * time.Millisecond})
			p := play(t, ts.mustDial(t, "gina", nil), ptyOpts{w: 80, h: 24})
			// Typing keeps the session alive past the limit; the game's own
			// output (a frame every 20 ms) does not.
			for range 8 {
				p.keys(t, "k")
				time.Sleep(100 * time.Millisecond)
			}
			p.waitScreen(t, "keys kkkkkkkk")
			start := time.Now()
			if st := p.exit(t); st != 1 || !strings.Contains(p.output(), "no input for 400ms") {
				t.Errorf("idle: status %d, output ends %q", st, tail(p.output()))
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("idle session ended %v after the last key", d)
			}
			waitLog(t, ts, "msg=disconnect", "reason=idle")
		})
	})
	t.Run("idle watcher", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			// A session that watches sends nothing and stays; once it stops
			// watching, the limit applies again.
			watched := make(chan struct{})
			ts := startPipeServer(t, Config{Idle: 300 * time.Millisecond, Play: func(ctx context.Context, scr tcell.Screen, s Session) (int, error) {
				s.SetWatching(true)
				select {
				case <-watched:
				case <-ctx.Done():
					return 0, nil
				}
				s.SetWatching(false)
				<-ctx.Done()
				return 0, nil
			}})
			p := play(t, ts.mustDial(t, "wanda", nil), ptyOpts{w: 80, h: 24})
			time.Sleep(time.Second) // three limits without a key
			if strings.Contains(ts.log.String(), "reason=idle") {
				t.Fatal("a watching session was cut as idle")
			}
			close(watched)
			if st := p.exit(t); st != 1 || !strings.Contains(p.output(), "no input for 300ms") {
				t.Errorf("idle after watching: status %d, output ends %q", st, tail(p.output()))
			}
			waitLog(t, ts, "msg=disconnect", "reason=idle")
		})
	})
	t.Run("max time", func(t *testing.T) {
		ts := startServer(t, Config{MaxTime: 300 * time.Millisecond})
		p := play(t, ts.mustDial(t, "hal", nil), ptyOpts{w: 80, h: 24})
		if st := p.exit(t); st != 1 || !strings.Contains(p.output(), "session time limit (300ms) reached") {
			t.Errorf("max time: status %d, output ends %q", st, tail(p.output()))
		}
		waitLog(t, ts, "msg=disconnect", "reason=max-time")
	})
	t.Run("connection rate", func(t *testing.T) {
		ts := startServer(t, Config{ConnPerMinute: 1, ConnBurst: 3})
		for i := range 3 {
			c, err := ts.dial(t, "ivan", nil)
			if err != nil {
				t.Fatalf("connection %d within the burst: %v", i+1, err)
			}
			c.Close()
		}
		if c, err := ts.dial(t, "ivan", nil); err == nil {
			c.Close()
			t.Error("connection over the rate accepted")
		}
		waitLog(t, ts, "msg=rejected", `reason="rate limit"`)
	})
}

// TestClientTerminal checks that a session's screen follows what its
// client sent — TERM, COLORTERM, LANG — and not the server's environment.
func TestClientTerminal(t *testing.T) {
	for k, v := range map[string]string{"TERM": "dumb", "COLORTERM": "truecolor", "LANG": "C", "NO_COLOR": "1", "LINES": "5"} {
		t.Setenv(k, v)
	}
	ts := startServer(t, Config{})
	tests := []struct {
		name string
		term string
		env  map[string]string
		want string
	}{
		{"plain", "xterm-256color", nil, "term xterm-256color ascii false colors 256"},
		{"truecolor", "xterm-256color", map[string]string{"COLORTERM": "truecolor"}, "term xterm-256color ascii false colors 16777216"},
		{"8 colours", "xterm", nil, "term xterm ascii false colors 8"},
		{"unknown TERM", "no-such-terminal", nil, "term xterm-256color ascii false colors 256"},
		{"empty TERM", "none", nil, "term xterm-256color ascii false colors 256"},
		{"C locale", "xterm-256color", map[string]string{"LANG": "C"}, "term xterm-256color ascii true colors 256"},
		{"latin-1", "xterm-256color", map[string]string{"LC_ALL": "de_DE.ISO-8859-1", "LANG": "de_DE.UTF-8"}, "ascii true"},
		{"UTF-8", "xterm-256color", map[string]string{"LC_CTYPE": "C.UTF-8"}, "ascii false"},
		{"unused variable", "xterm-256color", map[string]string{"EDITOR": "vi"}, "ascii false"},
		// The truecolor session above must not have changed the shared entry.
		{"plain again", "xterm-256color", nil, "term xterm-256color ascii false colors 256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := play(t, ts.mustDial(t, "jo", nil), ptyOpts{term: tt.term, w: 80, h: 24, env: tt.env})
			p.waitScreen(t, tt.want)
			p.keys(t, "q")
			p.exit(t)
		})
	}
}

// TestInputClosed: a client that closes its input (ssh -t host </dev/null)
// can never quit, so its game ends at once, with an exit status.
func TestInputClosed(t *testing.T) {
	ts := startServer(t, Config{})
	sess, err := ts.mustDial(t, "mo", nil).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	// With no Stdin, the client sends EOF as soon as the shell starts.
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var ee *ssh.ExitError
	if err := sess.Wait(); !errors.As(err, &ee) || ee.ExitStatus() != 1 {
		t.Errorf("session ended with %v, want exit status 1", err)
	}
	if d := time.Since(start); d >= grace {
		t.Errorf("the session took %v to end", d)
	}
	waitLog(t, ts, "msg=disconnect", "user=mo", "reason=disconnect")
}

// TestInputFlood types q and pastes a flood behind it, the way to make
// tcell's finalisation wait forever on a full event queue (see screen), and
// drops a connection in the middle of a flood.
func TestInputFlood(t *testing.T) {
	flood := strings.Repeat("a", 200_000)
	tests := []struct {
		name  string
		play  PlayFunc
		shown string
	}{
		{"test game", testPlay, "size 120x40"},
		{"real game", uiPlay, "pools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := startServer(t, Config{Play: tt.play})
			for range 3 {
				p := play(t, ts.mustDial(t, "flood", nil), ptyOpts{w: 120, h: 40, quiet: true})
				p.waitScreen(t, tt.shown)
				go io.WriteString(p.in, "q"+flood)
				if st := p.exit(t); st != 0 {
					t.Errorf("exit status %d after q and a flood, want 0", st)
				}
			}
			c := ts.mustDial(t, "flood", nil)
			p := play(t, c, ptyOpts{w: 120, h: 40, quiet: true})
			p.waitScreen(t, tt.shown)
			// Half the flood is sent when the connection drops; the rest
			// is on its way.
			p.keys(t, flood[:len(flood)/2])
			go io.WriteString(p.in, flood[len(flood)/2:])
			c.Close()
			ts.waitIdle(t)
			if n := ts.Sessions(); n != 0 {
				t.Errorf("%d sessions still counted after the flooding client left", n)
			}
		})
	}
}

// A game that never returns cannot keep the slots of a player who has
// gone: once the connection is gone the server gives them back within
// seconds, and says so in its log.
func TestStuckGameFreesSlots(t *testing.T) {
	release := make(chan struct{})
	stuck := func(ctx context.Context, scr tcell.Screen, s Session) (int, error) {
		if err := scr.Init(); err != nil {
			return 0, err
		}
		scr.SetContent(0, 0, 'S', nil, tcell.StyleDefault)
		scr.Show()
		<-release // ctx is ignored: the app is wedged
		return 0, nil
	}
	ts := startServer(t, Config{Play: stuck, MaxSessions: 2, MaxPerAddress: 1})
	defer close(release) // before the server's shutdown, which waits for it
	for i := range 3 {
		c := ts.mustDial(t, "wedged", nil)
		p := play(t, c, ptyOpts{w: 80, h: 24})
		p.waitScreen(t, "S")
		if n := ts.Sessions(); n != 1 {
			t.Fatalf("round %d: %d sessions counted, want 1", i, n)
		}
		c.Close()
		gone := time.Now()
		if !waitUntil(t, func() bool { return ts.Sessions() == 0 }) {
			t.Fatalf("round %d: the wedged game still holds its slot", i)
		}
		if d := time.Since(gone); d > 5*time.Second {
			t.Errorf("round %d: the slot came back %v after the client left, want within 5 s", i, d)
		}
	}
	waitLog(t, ts, "game did not end with its connection")
}
