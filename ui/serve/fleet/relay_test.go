package fleet

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"

	"poolroids/ui/serve"
)

// sizePlay is the holding server's game in the relay's tests: it shows
// the player, their address, the command and the window's size, and
// ends on q, refusing the command "new full".
func sizePlay(ctx context.Context, scr tcell.Screen, s serve.Session) (int, error) {
	if s.Command.Name == "full" {
		return 0, &serve.RefusedError{Message: "arena full is full"}
	}
	if err := scr.Init(); err != nil {
		return 0, err
	}
	defer scr.Fini()
	show := func() {
		w, h := scr.Size()
		scr.Clear()
		line := fmt.Sprintf("%s from %s: %s %s at %dx%d", s.Player(), s.RemoteAddr, s.Command.Verb, s.Command.Name, w, h)
		for x, r := range line {
			scr.SetContent(x, 0, r, nil, tcell.StyleDefault)
		}
		scr.Show()
	}
	show()
	for {
		switch ev := scr.PollEvent().(type) {
		case nil:
			return 0, nil
		case *tcell.EventResize:
			scr.Sync()
			show()
		case *tcell.EventKey:
			if ev.Rune() == 'q' {
				return 0, nil
			}
		}
	}
}

// holder starts a server that serves the fleet's relays with sizePlay,
// and returns its hop address and the fleet key.
func holder(t *testing.T) (hop string, key ssh.Signer) {
	t.Helper()
	dir := t.TempDir()
	key, err := serve.LoadOrCreateHostKey(filepath.Join(dir, "fleet_key"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := serve.New(serve.Config{
		HostKeyPath: filepath.Join(dir, "host_key"), FleetKey: key, Play: sizePlay,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.ServeHop(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return ln.Addr().String(), key
}

// screen is a relayed player's terminal: what the holder sends, kept.
type screen struct{ buffer }

func (s *screen) waitFor(t *testing.T, want string) {
	t.Helper()
	if !eventually(func() bool { return strings.Contains(s.String(), want) }) {
		t.Fatalf("the relayed screen never showed %q:\n%q", want, s.String())
	}
}

// terminal is a relayed player's terminal of size w×h: keys go in on the
// returned writer, resize changes the size.
func terminal(w, h int) (serve.Terminal, *screen, io.WriteCloser, func(w, h int)) {
	var mu sync.Mutex
	in, keys := io.Pipe()
	resized := make(chan struct{}, 1)
	scr := &screen{}
	t := serve.Terminal{
		Term: "xterm-256color", In: in, Out: scr, Resized: resized,
		Size: func() (int, int) {
			mu.Lock()
			defer mu.Unlock()
			return w, h
		},
	}
	resize := func(nw, nh int) {
		mu.Lock()
		w, h = nw, nh
		mu.Unlock()
		resized <- struct{}{}
	}
	return t, scr, keys, resize
}

// TestRelay: a relayed session plays on the holder as the player, at the
// player's window size, which follows their window changes, with their
// keys; its exit status comes back.
func TestRelay(t *testing.T) {
	hop, key := holder(t)
	term, scr, keys, resize := terminal(80, 24)
	defer keys.Close()
	done := make(chan error, 1)
	var res Result
	go func() {
		var err error
		res, err = Relay(context.Background(), hop, key,
			serve.HopPlayer{User: "ann", Fingerprint: "SHA256:abcdefghijkLQ7bW9u2u7+oZpdKBsqzvmN9nX/9e0uY", Addr: "10.1.2.3:4567"}, "join den", term)
		done <- err
	}()
	scr.waitFor(t, "ann abcdefgh from 10.1.2.3:4567: join den at 80x24")
	resize(100, 30)
	scr.waitFor(t, "100x30") // redrawn in words, the spaces unchanged
	_, _ = io.WriteString(keys, "q")
	if err := <-done; err != nil || res.Status != 0 {
		t.Errorf("Relay: %+v, %v; want status 0", res, err)
	}
}

// TestRelayRefused: a command the holder refuses comes back with its exit
// status and message; a member that is not there, or holds another key,
// is unreachable.
func TestRelayRefused(t *testing.T) {
	hop, key := holder(t)
	term, _, keys, _ := terminal(80, 24)
	defer keys.Close()
	p := serve.HopPlayer{User: "ann", Addr: "10.1.2.3:4567"}
	res, err := Relay(context.Background(), hop, key, p, "new full", term)
	if err != nil || res.Status != 1 || res.Message != "arena full is full" {
		t.Errorf("Relay of a refused command: %+v, %v; want status 1 and the message", res, err)
	}
	other, err := ssh.NewSignerFromKey(newEd25519(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Relay(context.Background(), hop, other, p, "join den", term); !errors.Is(err, ErrUnreachable) {
		t.Errorf("Relay with another key: %v, want ErrUnreachable", err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	gone := ln.Addr().String()
	ln.Close()
	if _, err := Relay(context.Background(), gone, key, p, "join den", term); !errors.Is(err, ErrUnreachable) {
		t.Errorf("Relay to nobody: %v, want ErrUnreachable", err)
	}
}

// TestRelayMessage: the member's last words are the message its session
// ended with, when the output ends with one.
func TestRelayMessage(t *testing.T) {
	for _, tt := range []struct{ out, want string }{
		{"\x1b[?1049lpoolroids: arena den is full\r\n", "arena den is full"},
		{strings.Repeat("x", 1000) + "poolroids: server shutting down\r\n", "server shutting down"},
		{"poolroids: old news\r\n\x1b[2J", ""},
		{"poolroids: two\r\nlines\r\n", ""},
		{"frames, and no message", ""},
	} {
		o := &output{w: io.Discard}
		// Written in pieces, as the streams come.
		for s := tt.out; s != ""; s = s[min(len(s), 7):] {
			_, _ = o.Write([]byte(s[:min(len(s), 7)]))
		}
		if got := o.message(); got != tt.want {
			t.Errorf("message of %q = %q, want %q", tt.out, got, tt.want)
		}
	}
}

func newEd25519(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return priv
}

// silent listens on loopback and accepts connections it never speaks
// on: a directory row naming it, or a member that stopped before it said
// anything.
func silent(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return ln.Addr().String()
}

// relayWithin runs Relay and returns its error, or fails the test if it
// has not returned within d.
func relayWithin(t *testing.T, d time.Duration, ctx context.Context, hop string, key ssh.Signer, term serve.Terminal) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := Relay(ctx, hop, key, serve.HopPlayer{User: "ann", Addr: "10.1.2.3:4567"}, "join den", term)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("Relay to %s has not returned after %v", hop, d)
		return nil
	}
}

// TestRelaySilent: a member that accepts the connection and says nothing
// is unreachable once dialWait is over, and a relay to it ends at once
// with its context. The TCP connect was bounded, not the handshake: the
// relay waited for ever.
func TestRelaySilent(t *testing.T) {
	t.Parallel()
	hop := silent(t)
	key, err := ssh.NewSignerFromKey(newEd25519(t))
	if err != nil {
		t.Fatal(err)
	}
	term, _, keys, _ := terminal(80, 24)
	defer keys.Close()
	start := time.Now()
	if err := relayWithin(t, dialWait+5*time.Second, context.Background(), hop, key, term); !errors.Is(err, ErrUnreachable) {
		t.Errorf("Relay to a silent member: %v, want ErrUnreachable", err)
	}
	if d := time.Since(start); d < dialWait-time.Second {
		t.Errorf("Relay gave up after %v, want dialWait (%v)", d, dialWait)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if err := relayWithin(t, 2*time.Second, ctx, hop, key, term); err == nil {
		t.Error("Relay canceled in its handshake: no error")
	}
}

// freezer relays TCP connections to a member and can stop relaying them
// all at once, their sockets open: the member as a relay sees it when its
// process is stopped (SIGSTOP) or its network drops everything.
type freezer struct {
	mu     sync.Mutex
	frozen chan struct{}
}

// front starts a freezer in front of the member at hop and returns its
// address.
func front(t *testing.T, hop string) (string, *freezer) {
	t.Helper()
	f := &freezer{frozen: make(chan struct{})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	pipe := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			select {
			case <-f.frozen:
				<-make(chan struct{}) // stopped for good: the test's end closes the sockets
			default:
			}
			if n > 0 {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", hop)
			if err != nil {
				c.Close()
				continue
			}
			t.Cleanup(func() { c.Close(); up.Close() })
			go pipe(up, c)
			go pipe(c, up)
		}
	}()
	return ln.Addr().String(), f
}

func (f *freezer) freeze() { close(f.frozen) }

// TestRelayMemberStops: a relay whose member stops answering in the
// middle of the session ends within deadAfter and a keepalive, as
// "gone", instead of waiting for the member to wake.
func TestRelayMemberStops(t *testing.T) {
	t.Parallel()
	hop, key := holder(t)
	addr, f := front(t, hop)
	term, scr, keys, _ := terminal(80, 24)
	defer keys.Close()
	done := make(chan error, 1)
	go func() {
		_, err := Relay(context.Background(), addr, key, serve.HopPlayer{User: "ann", Addr: "10.1.2.3:4567"}, "join den", term)
		done <- err
	}()
	scr.waitFor(t, "join den at 80x24")
	f.freeze()
	start := time.Now()
	select {
	case err := <-done:
		if err == nil || errors.Is(err, ErrUnreachable) {
			t.Errorf("Relay of a member that stopped: %v, want it gone", err)
		}
		if d := time.Since(start); d < deadAfter-time.Second {
			t.Errorf("Relay gave up after %v, before deadAfter (%v)", d, deadAfter)
		}
	case <-time.After(deadAfter + keepEvery + 5*time.Second):
		t.Fatalf("Relay of a member that stopped has not ended after %v", time.Since(start))
	}
}
