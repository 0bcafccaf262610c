package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"
)

// logBuf collects the server's log for assertions.
type logBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// testServer is a Server on 127.0.0.1:0, or in memory, shut down when
// the test ends.
type testServer struct {
	*Server
	addr    string
	pipes   *pipeListener // nil: on TCP
	hostKey ssh.PublicKey
	log     *logBuf
	served  chan error // Serve's result
}

// startServer starts a server on 127.0.0.1:0.
func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, cfg, ln)
}

// startPipeServer starts a server whose connections are in memory, for a
// test in a synctest bubble (which holds no socket): the server's timers
// then run on the bubble's clock, and a test of its idle limit waits for
// no real time.
func startPipeServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	ln := newPipeListener()
	ts := serveOn(t, cfg, ln)
	ts.pipes = ln
	return ts
}

func serveOn(t testing.TB, cfg Config, ln net.Listener) *testServer {
	t.Helper()
	if cfg.HostKeyPath == "" {
		cfg.HostKeyPath = filepath.Join(t.TempDir(), "host_key")
	}
	if cfg.ConnPerMinute == 0 {
		cfg.ConnPerMinute = -1 // tests connect far faster than players
	}
	if cfg.Play == nil {
		cfg.Play = testPlay
	}
	lb := &logBuf{}
	cfg.Logger = slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hk, err := LoadOrCreateHostKey(cfg.HostKeyPath)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: srv, addr: ln.Addr().String(), hostKey: hk.PublicKey(), log: lb, served: make(chan error, 1)}
	go func() { ts.served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-ts.served; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v, want ErrServerClosed", err)
		}
	})
	return ts
}

func newKey(t testing.TB) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dial logs in as user with key (nil: keyboard-interactive only).
func (ts *testServer) dial(t testing.TB, user string, key ssh.Signer) (*ssh.Client, error) {
	t.Helper()
	var auth []ssh.AuthMethod
	if key != nil {
		auth = append(auth, ssh.PublicKeys(key))
	}
	auth = append(auth, ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
		return nil, nil
	}))
	config := &ssh.ClientConfig{
		User:            user,
		Auth:            auth,
		HostKeyCallback: ssh.FixedHostKey(ts.hostKey),
		Timeout:         5 * time.Second,
	}
	if ts.pipes == nil {
		return ssh.Dial("tcp", ts.addr, config)
	}
	nc, err := ts.pipes.dial()
	if err != nil {
		return nil, err
	}
	c, chans, reqs, err := ssh.NewClientConn(nc, ts.addr, config)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return ssh.NewClient(c, chans, reqs), nil
}

// pipeListener accepts the server ends of net.Pipes, so that a server runs
// inside a synctest bubble, on its fake clock. Its connections come from
// 127.0.0.1:1, :2, … as dial makes them.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	close sync.Once
	port  atomic.Int32
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.close.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 22} }

// dial connects to the listener; the client's end queues what it writes,
// as a socket buffers it: on a bare net.Pipe the SSH handshake, where both
// ends write first, would wait for ever.
func (l *pipeListener) dial() (net.Conn, error) {
	server, client := net.Pipe()
	from := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: int(l.port.Add(1))}
	select {
	case l.conns <- addrConn{server, l.Addr(), from}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	q := &queuedConn{addrConn: addrConn{client, from, l.Addr()}, out: make(chan []byte, 64), done: make(chan struct{})}
	go q.send()
	return q, nil
}

// addrConn is a net.Conn with the addresses of a TCP connection.
type addrConn struct {
	net.Conn
	local, remote net.Addr
}

func (c addrConn) LocalAddr() net.Addr  { return c.local }
func (c addrConn) RemoteAddr() net.Addr { return c.remote }

// queuedConn writes through a queue that its send goroutine empties.
type queuedConn struct {
	addrConn
	out    chan []byte
	done   chan struct{} // closed when send has returned
	closer sync.Once
}

func (c *queuedConn) Write(p []byte) (int, error) {
	select {
	case c.out <- bytes.Clone(p):
		return len(p), nil
	case <-c.done:
		return 0, net.ErrClosed
	}
}

func (c *queuedConn) send() {
	defer c.closer.Do(func() { close(c.done) })
	for {
		select {
		case b := <-c.out:
			if _, err := c.Conn.Write(b); err != nil {
				return
			}
		case <-c.done:
			return
		}
	}
}

func (c *queuedConn) Close() error {
	c.closer.Do(func() { close(c.done) })
	return c.Conn.Close()
}

// comeAndGo is session i of a leak test, as user "leaky": it plays with o
// until the screen shows want, then quits with the keys quit (i even; the
// session must end with status 0) or drops the connection (i odd).
func comeAndGo(t testing.TB, ts *testServer, i int, o ptyOpts, quit string, want ...string) {
	t.Helper()
	c, err := ts.dial(t, "leaky", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := play(t, c, o)
	p.waitScreen(t, want...)
	if i%2 == 0 {
		p.keys(t, quit)
		if st := p.exit(t); st != 0 {
			t.Fatalf("session %d: exit status %d", i, st)
		}
	}
	c.Close()
	<-p.read
}

func (ts *testServer) mustDial(t testing.TB, user string, key ssh.Signer) *ssh.Client {
	t.Helper()
	c, err := ts.dial(t, user, key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// player is a client session with a terminal, its output fed to a vt.
type player struct {
	sess *ssh.Session
	in   io.WriteCloser
	vt   *vt
	mu   sync.Mutex
	raw  bytes.Buffer
	keep bool          // keep raw output
	read chan struct{} // closed when the output has ended
}

func (p *player) Write(b []byte) (int, error) {
	p.vt.Write(b)
	if p.keep {
		p.mu.Lock()
		p.raw.Write(b)
		p.mu.Unlock()
	}
	return len(b), nil
}

func (p *player) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.raw.String()
}

type ptyOpts struct {
	term  string // "": xterm-256color; "none": an empty TERM
	w, h  int
	env   map[string]string
	quiet bool       // keep no raw output (long runs)
	cmd   string     // an exec request's command; "": a shell
	hop   *HopPlayer // a relay's player, named before the terminal is asked for
}

// play opens a session with a pty of the given size and starts the game.
func play(t testing.TB, c *ssh.Client, o ptyOpts) *player {
	t.Helper()
	switch o.term {
	case "":
		o.term = "xterm-256color"
	case "none":
		o.term = ""
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	w, h := clampSize(uint32(o.w), uint32(o.h))
	p := &player{sess: sess, vt: newVT(w, h), keep: !o.quiet, read: make(chan struct{})}
	if o.hop != nil {
		if ok, err := sess.SendRequest(HopRequest, true, ssh.Marshal(o.hop)); !ok || err != nil {
			t.Fatalf("%s refused: %v", HopRequest, err)
		}
	}
	for k, v := range o.env {
		// Refused for variables the server does not use, as OpenSSH's
		// SendEnv is: the session goes on.
		_ = sess.Setenv(k, v)
	}
	if err := sess.RequestPty(o.term, o.h, o.w, nil); err != nil {
		t.Fatal(err)
	}
	if p.in, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.read)
		io.Copy(p, out)
	}()
	start := sess.Shell
	if o.cmd != "" {
		start = func() error { return sess.Start(o.cmd) }
	}
	if err := start(); err != nil {
		t.Fatal(err)
	}
	return p
}

// waitScreen waits until the screen shows all of want.
func (p *player) waitScreen(t testing.TB, want ...string) string {
	t.Helper()
	var s, missing string
	if !waitUntil(t, func() bool {
		s, missing = p.vt.text(), ""
		for _, w := range want {
			if !strings.Contains(s, w) {
				missing = w
				return false
			}
		}
		return true
	}) {
		t.Fatalf("screen never showed %q; it shows:\n%s", missing, s)
	}
	return s
}

// exit waits for the session to end and returns its exit status.
func (p *player) exit(t testing.TB) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.sess.Wait() }()
	var err error
	if !waitUntil(t, func() bool { return received(done, &err) }) {
		// The server runs in this process: its stacks show where the
		// session is stuck.
		pprof.Lookup("goroutine").WriteTo(os.Stderr, 2)
		t.Fatal("session did not end")
	}
	<-p.read
	if err == nil {
		return 0
	}
	var ee *ssh.ExitError
	if errors.As(err, &ee) {
		return ee.ExitStatus()
	}
	t.Fatalf("session ended without a status: %v", err)
	return -1
}

func (p *player) keys(t testing.TB, s string) {
	t.Helper()
	if _, err := io.WriteString(p.in, s); err != nil {
		t.Fatal(err)
	}
}

// showLine clears scr and shows text on its first line.
func showLine(scr tcell.Screen, text string) {
	scr.Clear()
	for x, r := range text {
		scr.SetContent(x, 0, r, nil, tcell.StyleDefault)
	}
	scr.Show()
}

// testPlay is a small game for the server's tests: it counts as a game
// (Session.SetPlaying), shows its screen size, the keys pressed and the
// player, redraws a frame counter every 20 ms (output that must not count
// as activity), quits on q, panics on ! and panics in a goroutine started
// with Session.Go on @. The score is the number of keys pressed.
func testPlay(ctx context.Context, scr tcell.Screen, s Session) (int, error) {
	if err := s.SetPlaying(true); err != nil {
		return 0, err
	}
	if err := scr.Init(); err != nil {
		return 0, err
	}
	defer scr.Fini()
	events := make(chan tcell.Event, 16)
	quit := make(chan struct{})
	s.Go(func() { scr.ChannelEvents(events, quit) })
	defer func() {
		close(quit)
		for range events {
		}
	}()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()

	var typed []rune
	frame := 0
	draw := func() {
		scr.Clear()
		w, h := scr.Size()
		lines := []string{
			fmt.Sprintf("size %dx%d", w, h),
			"keys " + string(typed),
			"player " + s.Player(),
			fmt.Sprintf("term %s ascii %v colors %d", s.Term, s.ASCII, scr.Colors()),
			fmt.Sprintf("frame %d", frame),
		}
		for y, l := range lines {
			for x, r := range l {
				scr.SetContent(x, y, r, nil, tcell.StyleDefault)
			}
		}
		scr.Show()
	}
	draw()
	for {
		select {
		case <-ctx.Done():
			return len(typed), nil
		case <-tick.C:
			frame++
			draw()
		case ev, ok := <-events:
			if !ok {
				return len(typed), nil
			}
			switch ev := ev.(type) {
			case *tcell.EventResize:
				scr.Sync()
			case *tcell.EventKey:
				switch ev.Rune() {
				case 'q':
					return len(typed), nil
				case '!':
					panic("test panic in Play")
				case '@':
					s.Go(func() { panic("test panic in a session goroutine") })
				}
				typed = append(typed, ev.Rune())
			}
			draw()
		}
	}
}

// waitUntil polls ok for up to 10 s and reports whether it came to hold.
// It is the package's one wait on the real clock: a server on TCP cannot
// join a synctest bubble, so tests wait on what they can observe (a
// screen, a log line, a count, a channel through [received]), never for a
// fixed time. Tests of the server's timers run it in memory in a bubble
// (startPipeServer), where this waits on the bubble's clock.
func waitUntil(t testing.TB, ok func() bool) bool {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// received reports whether c has a value ready, and stores it in v.
func received[T any](c <-chan T, v *T) bool {
	select {
	case *v = <-c:
		return true
	default:
		return false
	}
}

// closed reports whether c is closed.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
