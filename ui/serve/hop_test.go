package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"golang.org/x/crypto/ssh"

	"poolroids/ui/web"
)

// startHop starts a server with a fleet key, serving the fleet's relays
// too; it returns the hop's address and the key.
func startHop(t *testing.T, cfg Config) (ts *testServer, hop string, key ssh.Signer) {
	t.Helper()
	key = newKey(t)
	cfg.FleetKey = key
	ts = startServer(t, cfg)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = ts.ServeHop(ln) }()
	return ts, ln.Addr().String(), key
}

// dialHop logs in to the hop at addr as user, the player it relays, with
// key, checking that the hop answers with the fleet's key.
func dialHop(addr, user string, key, fleet ssh.Signer) (*ssh.Client, error) {
	return ssh.Dial("tcp", addr, &ssh.ClientConfig{
		User:            user,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(fleet.PublicKey()),
		Timeout:         5 * time.Second,
	})
}

// TestHopPlayer: a relayed session plays as the player the relay names,
// not as the relay: the game gets their name and key, the log their
// address.
func TestHopPlayer(t *testing.T) {
	ts, hop, key := startHop(t, Config{})
	c, err := dialHop(hop, "ann", key, key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := play(t, c, ptyOpts{w: 80, h: 24, hop: &HopPlayer{User: "ann", Fingerprint: "SHA256:abcdefghijkLQ7bW9u2u7+oZpdKBsqzvmN9nX/9e0uY", Addr: "10.1.2.3:4567"}})
	p.waitScreen(t, "player ann abcdefgh")
	if now, total := ts.Relays(); now != 1 || total != 1 {
		t.Errorf("Relays() = %d, %d while ann plays; want 1, 1", now, total)
	}
	p.keys(t, "q")
	if code := p.exit(t); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
	waitUntil(t, func() bool { now, _ := ts.Relays(); return now == 0 })
	if now, total := ts.Relays(); now != 0 || total != 1 {
		t.Errorf("Relays() = %d, %d once ann left; want 0, 1", now, total)
	}
	if log := ts.log.String(); !strings.Contains(log, "client=10.1.2.3:4567") {
		t.Errorf("the log never names the player's address:\n%s", log)
	}
}

// TestHopLimits: the holding server counts relayed games against the
// player's address: a second game from one address is refused as it
// would be from that address directly, while a player of another
// address, through the same relay, plays.
func TestHopLimits(t *testing.T) {
	_, hop, key := startHop(t, Config{MaxPerAddress: 1})
	start := func(addr string) *player {
		t.Helper()
		c, err := dialHop(hop, "p", key, key) // a connection a player, as a relay's
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return play(t, c, ptyOpts{w: 80, h: 24, hop: &HopPlayer{User: "p", Addr: addr}})
	}
	first := start("10.1.2.3:1")
	first.waitScreen(t, "frame")
	second := start("10.1.2.3:2")
	second.waitScreen(t, "too many games from your address")
	if code := second.exit(t); code != 1 {
		t.Errorf("second game from one address: status %d, want 1", code)
	}
	other := start("10.9.9.9:1")
	other.waitScreen(t, "frame")
	for _, p := range []*player{first, other} {
		p.keys(t, "q")
		p.exit(t)
	}
}

// TestHopClosed: only the fleet's key opens the hop; a session on it that
// names no player is refused; and the public port takes no relay's word.
func TestHopClosed(t *testing.T) {
	ts, hop, key := startHop(t, Config{})
	if _, err := dialHop(hop, "ann", newKey(t), key); err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Errorf("another key on the hop: %v, want refused", err)
	}
	c, err := dialHop(hop, "ann", key, key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := play(t, c, ptyOpts{w: 80, h: 24})
	if code := p.exit(t); code != 1 {
		t.Errorf("a hop session without a player: status %d, want 1", code)
	}
	if log := ts.log.String(); !strings.Contains(log, "hop without a player") {
		t.Errorf("the log never says why:\n%s", log)
	}

	pub := ts.mustDial(t, "mallory", newKey(t))
	sess, err := pub.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ok, err := sess.SendRequest(HopRequest, true, ssh.Marshal(HopPlayer{User: "ann", Addr: "10.1.2.3:1"}))
	if ok || err != nil {
		t.Errorf("%s on the public port: %v, %v; want refused", HopRequest, ok, err)
	}
}

// relayPlay is a game that lends its terminal to a relay on r: the relay
// writes "relayed" and its TERM, and the window's size when it changes,
// and reads until an x; then the game shows "back" and the keys it gets
// again.
func relayPlay(_ context.Context, scr tcell.Screen, s Session) (int, error) {
	if err := scr.Init(); err != nil {
		return 0, err
	}
	defer scr.Fini()
	show := func(text string) { showLine(scr, text) }
	show("ready")
	for {
		ev, ok := scr.PollEvent().(*tcell.EventKey)
		switch {
		case !ok:
			continue
		case ev.Rune() == 'q':
			return 0, nil
		case ev.Rune() != 'r':
			show("key " + string(ev.Rune()))
			continue
		}
		err := s.Relay(func(t Terminal) error {
			_, _ = io.WriteString(t.Out, "\x1b[2J\x1b[Hrelayed "+t.Term)
			read := make(chan error, 1)
			go func() {
				var got []byte
				buf := make([]byte, 16)
				for !bytes.Contains(got, []byte("x")) {
					n, err := t.In.Read(buf)
					if err != nil {
						read <- err
						return
					}
					got = append(got, buf[:n]...)
				}
				read <- nil
			}()
			for {
				select {
				case err := <-read:
					return err
				case <-t.Resized:
					w, h := t.Size()
					_, _ = fmt.Fprintf(t.Out, " size %dx%d", w, h)
				}
			}
		})
		if err != nil {
			return 0, err
		}
		show("back")
	}
}

// TestRelayLends: Session.Relay lends the terminal raw to the relay, with
// its window changes, and gives it back to the screen after: what the
// player types then is the game's again.
func TestRelayLends(t *testing.T) {
	ts := startServer(t, Config{Play: relayPlay})
	p := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 80, h: 24})
	p.waitScreen(t, "ready")
	p.keys(t, "r")
	p.waitScreen(t, "relayed xterm-256color")
	if err := p.sess.WindowChange(30, 100); err != nil {
		t.Fatal(err)
	}
	p.waitScreen(t, "size 100x30")
	p.keys(t, "abx")
	p.waitScreen(t, "back")
	p.keys(t, "k")
	p.waitScreen(t, "key k")
	p.keys(t, "q")
	if code := p.exit(t); code != 0 {
		t.Errorf("exit status %d, want 0", code)
	}
}

// TestHopLogins: the logins per address count a relayed player's too:
// one from an address already logging in, through the relay, is refused.
func TestHopLogins(t *testing.T) {
	ts, hop, key := startHop(t, Config{MaxStartupsPerAddress: 1})
	c, err := dialHop(hop, "ann", key, key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	// Named, and yet to ask for a game: logging in.
	if ok, err := sess.SendRequest(HopRequest, true, ssh.Marshal(HopPlayer{User: "ann", Addr: "10.1.2.3:1"})); !ok || err != nil {
		t.Fatalf("%s: %v, %v", HopRequest, ok, err)
	}
	c2, err := dialHop(hop, "bob", key, key)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	p := play(t, c2, ptyOpts{w: 80, h: 24, hop: &HopPlayer{User: "bob", Addr: "10.1.2.3:2"}})
	if code := p.exit(t); code != 1 {
		t.Errorf("a second login from one address: status %d, want 1", code)
	}
	if log := ts.log.String(); !strings.Contains(log, reasonStartupsPer) {
		t.Errorf("the log never says why:\n%s", log)
	}
}

// TestHopRefusalsByAddress: a wrong key on the hop is a refusal of the
// address it came from, logged at once for each address.
func TestHopRefusalsByAddress(t *testing.T) {
	ts, hop, key := startHop(t, Config{})
	for _, from := range []string{"127.0.0.1", "127.0.0.2"} {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
		nc, err := d.Dial("tcp", hop)
		if err != nil {
			t.Fatal(err)
		}
		_, _, _, err = ssh.NewClientConn(nc, hop, &ssh.ClientConfig{
			User: "fleet", Auth: []ssh.AuthMethod{ssh.PublicKeys(newKey(t))},
			HostKeyCallback: ssh.FixedHostKey(key.PublicKey()),
		})
		nc.Close()
		if err == nil {
			t.Fatalf("another key from %s opened the hop", from)
		}
	}
	if !waitUntil(t, func() bool { return strings.Count(ts.log.String(), "reason=\"authentication failed\"") == 2 }) {
		t.Errorf("want one refusal logged for each address:\n%s", ts.log.String())
	}
}

// Connections to the hop that never log in hold at most maxHopLoginsPer
// places of their address: one more is closed at once, and a fleet
// member's relay from another address logs in meanwhile (16 idle
// connections from anywhere used to take every place). The places come
// back when they go.
func TestHopLoginsBounded(t *testing.T) {
	t.Parallel()
	ts, hop, key := startHop(t, Config{})
	var idle []net.Conn
	for range maxHopLoginsPer {
		nc, err := net.Dial("tcp", hop)
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, nc)
		// The server's version line: it holds the connection.
		_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		if line, err := bufio.NewReader(nc).ReadString('\n'); !strings.HasPrefix(line, "SSH-2.0-") {
			t.Fatalf("connection %d: read %q, %v; want the server's version", len(idle), line, err)
		}
	}
	for i := range 2 * maxHopLoginsPer {
		extra, err := net.Dial("tcp", hop)
		if err != nil {
			t.Fatal(err)
		}
		defer extra.Close()
		_ = extra.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := extra.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("connection %d more than an address's hop logins: read %v, want it closed", i+1, err)
		}
	}
	waitLog(t, ts, "msg=rejected", `reason="hop: too many logins from one address"`)
	relay := func(from string) error {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
		nc, err := d.Dial("tcp", hop)
		if errors.Is(err, syscall.EADDRNOTAVAIL) && os.Getenv("CI") != "true" {
			t.Skipf("%s is not a loopback address here (Linux has all of 127/8)", from)
		}
		if err != nil {
			return err
		}
		sc, chans, reqs, err := ssh.NewClientConn(nc, hop, &ssh.ClientConfig{
			User: "ann", Auth: []ssh.AuthMethod{ssh.PublicKeys(key)},
			HostKeyCallback: ssh.FixedHostKey(key.PublicKey()),
		})
		if err != nil {
			nc.Close()
			return err
		}
		ssh.NewClient(sc, chans, reqs).Close()
		return nil
	}
	if err := relay("127.0.0.2"); err != nil {
		t.Errorf("a relay from another address while one holds its logins: %v", err)
	}
	for _, nc := range idle {
		nc.Close()
	}
	// Each place comes back as the server sees its connection close.
	var last error
	if !waitUntil(t, func() bool {
		last = relay("127.0.0.1")
		return last == nil
	}) {
		t.Fatalf("a relay once the idle connections are gone: %v", last)
	}
}

// TestHopRate: an address that opens connections to the hop faster than
// a fleet member's relays do is refused once its burst is spent, and the
// other addresses' relays go on.
func TestHopRate(t *testing.T) {
	t.Parallel()
	ts, hop, key := startHop(t, Config{})
	refused := 0
	for range hopBurst + 10 {
		nc, err := net.Dial("tcp", hop)
		if err != nil {
			t.Fatal(err)
		}
		_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		if line, _ := bufio.NewReader(nc).ReadString('\n'); line == "" {
			refused++
		}
		nc.Close()
	}
	if refused < 5 {
		t.Errorf("%d of %d connections in a burst refused, want 10 or so", refused, hopBurst+10)
	}
	waitLog(t, ts, "msg=rejected", `reason="hop: rate limit"`)
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, Timeout: 5 * time.Second}
	nc, err := d.Dial("tcp", hop)
	if errors.Is(err, syscall.EADDRNOTAVAIL) && os.Getenv("CI") != "true" {
		t.Skip("127.0.0.2 is not a loopback address here (Linux has all of 127/8)")
	}
	if err != nil {
		t.Fatal(err)
	}
	sc, chans, reqs, err := ssh.NewClientConn(nc, hop, &ssh.ClientConfig{
		User: "ann", Auth: []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(key.PublicKey()),
	})
	if err != nil {
		t.Fatalf("a relay from another address: %v", err)
	}
	ssh.NewClient(sc, chans, reqs).Close()
}

// TestHopWeb: a relay's web session plays on the hop as its player,
// relayed, its page's messages over the channel after their lengths; a
// player's session cannot ask for one, nor a relay's that names no
// player.
func TestHopWeb(t *testing.T) {
	_, hop, key := startHop(t, Config{PlayWeb: func(ctx context.Context, _ *web.Screen, s Session) (int, error) {
		return 0, &RefusedError{Message: fmt.Sprintf("%s %s %s from %s relayed=%v %s", s.Name, s.Command.Verb, s.Command.Name, s.RemoteAddr, s.Relayed, s.Fingerprint)}
	}})
	session := func(p *HopPlayer) (*ssh.Session, io.Reader, bool) {
		t.Helper()
		c, err := dialHop(hop, "ann", key, key)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		errs, _ := sess.StderrPipe()
		if p != nil {
			if ok, err := sess.SendRequest(HopRequest, true, ssh.Marshal(p)); !ok || err != nil {
				t.Fatalf("%s: %v, %v", HopRequest, ok, err)
			}
		}
		ok, err := sess.SendRequest(WebRequest, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sess, errs, ok
	}

	fp := "SHA256:abcdefghijkLQ7bW9u2u7+oZpdKBsqzvmN9nX/9e0uY"
	sess, _, ok := session(&HopPlayer{User: "ann", Fingerprint: fp, Addr: "10.1.2.3:4567"})
	if !ok {
		t.Fatalf("%s refused", WebRequest)
	}
	in, _ := sess.StdinPipe()
	out, _ := sess.StdoutPipe()
	hello := web.AppendHello(nil, web.Hello{Path: "/watch/far", Name: "ann", Cols: 80, Rows: 24})
	if _, err := in.Write(append(binary.BigEndian.AppendUint32(nil, uint32(len(hello))), hello...)); err != nil {
		t.Fatal(err)
	}
	var bye string
	for bye == "" {
		var n [4]byte
		if _, err := io.ReadFull(out, n[:]); err != nil {
			t.Fatalf("no goodbye: %v", err)
		}
		msg := make([]byte, binary.BigEndian.Uint32(n[:]))
		if _, err := io.ReadFull(out, msg); err != nil {
			t.Fatal(err)
		}
		if msg[0] == web.MsgBye {
			bye = string(msg[1:])
		}
	}
	if want := "ann watch far from 10.1.2.3:0 relayed=true " + fp; bye != want {
		t.Errorf("the page was told %q, want %q", bye, want)
	}

	// Without a player: refused, saying so on stderr.
	_, errs, _ := session(nil)
	if said, _ := io.ReadAll(errs); !strings.Contains(string(said), "internal error") {
		t.Errorf("a web session without a player: told %q, want refused", said)
	}

	// On the players' port: refused.
	ts := startServer(t, Config{PlayWeb: func(context.Context, *web.Screen, Session) (int, error) { return 0, nil }})
	pub, err := ts.mustDial(t, "mallory", newKey(t)).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	if ok, err := pub.SendRequest(WebRequest, true, nil); ok || err != nil {
		t.Errorf("%s on the public port: %v, %v; want refused", WebRequest, ok, err)
	}
}
