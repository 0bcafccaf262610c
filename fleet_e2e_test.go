package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/ssh"

	"poolroids/game/hub"
	"poolroids/game/scores/pgtest"
	"poolroids/ui/web/webtest"
)

// pane is a tmux session of its own on s's server, 120×40, in which one
// player runs OpenSSH.
type pane struct {
	s    *tmuxSession
	name string
}

func (s *tmuxSession) pane(name string) *pane {
	s.t.Helper()
	if out, err := s.run("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "env", "PS1=$ ", "sh"); err != nil {
		s.t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return &pane{s: s, name: name}
}

func (p *pane) send(keys ...string) {
	p.s.t.Helper()
	if out, err := p.s.run(append([]string{"send-keys", "-t", p.name}, keys...)...); err != nil {
		p.s.t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
}

// waitFor captures the pane until ok accepts it, for at most within.
func (p *pane) waitFor(what string, within time.Duration, ok func(string) bool) string {
	p.s.t.Helper()
	var out string
	if !eventually(within, func() bool {
		var err error
		if out, err = p.s.run("capture-pane", "-p", "-t", p.name); err != nil {
			p.s.t.Fatalf("tmux capture-pane: %v\n%s", err, out)
		}
		return ok(out)
	}) {
		p.s.t.Fatalf("%s: timed out after %v waiting for %s; pane:\n%s", p.name, within, what, out)
	}
	return out
}

// shows is a waitFor test: every one of want is on the pane.
func shows(want ...string) func(string) bool {
	return func(p string) bool {
		for _, w := range want {
			if !strings.Contains(p, w) {
				return false
			}
		}
		return true
	}
}

// startFleet starts a PostgreSQL server and n `poolroids serve` processes
// in a fleet on loopback, sharing one fleet key, with extra flags each. It
// returns the servers, their hop addresses and the fleet key.
func startFleet(t testing.TB, n int, extra ...string) (servers []*serverProc, hops []string, fleetKey ssh.Signer) {
	t.Helper()
	pg := pgtest.Start(t)
	bin := buildBinary(t)
	keyPath := filepath.Join(t.TempDir(), "fleet_key")
	for range n {
		hop := freeAddr(t)
		args := append([]string{"--scores", pg.URL, "--hop", hop, "--fleet-key", keyPath}, extra...)
		servers = append(servers, startServe(t, bin, t.TempDir(), args...))
		hops = append(hops, hop)
	}
	raw, err := os.ReadFile(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	if fleetKey, err = ssh.ParsePrivateKey(raw); err != nil {
		t.Fatal(err)
	}
	return servers, hops, fleetKey
}

// TestFleetInTmux: two servers in a fleet, players in OpenSSH in tmux
// panes. A player on A opens an arena and a player on B joins it: each
// screen shows both; one more joins it from B's lobby, under the name
// chosen there (r), which A's players see; B opens no arena
// of the same name. A watcher on B watches a solo game on A. The lobby on
// each lists the same arena and game. A stopped with SIGSTOP leaves B's
// lobby within 10 s, its relayed players on B are told within 10 s (a
// relay used to wait for the member to wake), and B's own game plays on.
// And a player's key cannot open the hop.
func TestFleetInTmux(t *testing.T) {
	sshPath := lookSSH(t)
	s := newTmux(t)
	servers, hops, fleetKey := startFleet(t, 2, "--max-per-address", "8")
	a, b := servers[0], servers[1]
	dir := t.TempDir()
	key, signer := writeClientKey(t, dir)
	// A player cannot reach the hop: it takes the fleet's key only.
	for _, hop := range hops {
		c, err := ssh.Dial("tcp", hop, &ssh.ClientConfig{
			User: "fleet", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
			HostKeyCallback: ssh.FixedHostKey(fleetKey.PublicKey()), Timeout: 5 * time.Second,
		})
		if err == nil {
			c.Close()
			t.Errorf("a player's key opened the hop %s", hop)
		} else if !strings.Contains(err.Error(), "unable to authenticate") {
			t.Errorf("a player's key on the hop %s: %v, want refused", hop, err)
		}
	}
	knownHosts := filepath.Join(dir, "known_hosts")
	writeKnownHosts(t, knownHosts, servers...)
	ssh := func(srv *serverProc, user, cmd string) string {
		return fmt.Sprintf("clear; %s -t -F /dev/null -p %d -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s "+
			"-o LogLevel=ERROR -o IdentitiesOnly=yes -i %s -l %s 127.0.0.1 %s; echo exit=$?", sshPath, srv.port, knownHosts, key, user, cmd)
	}

	ann := s.pane("ann")
	ann.send(ssh(a, "ann", "new den"), "Enter")
	ann.waitFor("ann in the arena", 15*time.Second, shows("arena den"))
	bob := s.pane("bob")
	bob.send(ssh(b, "bob", "join den"), "Enter")
	bob.waitFor("ann in the arena bob joined through B", 15*time.Second, shows("arena den", "ann", "bob"))
	ann.waitFor("bob on ann's screen", 15*time.Second, shows("bob"))

	// The name is the fleet's: B opens no second den.
	hal := s.pane("hal")
	hal.send(ssh(b, "hal", "new den"), "Enter")
	hal.waitFor("hal refused den on B", 15*time.Second, shows("an arena of that name is open: den", "exit=1"))

	carol := s.pane("carol")
	carol.send(ssh(a, "carol", ""), "Enter")
	carol.waitFor("the lobby on A", 15*time.Second, shows("Play solo"))
	carol.send("Enter")
	carol.waitFor("carol's solo game", 15*time.Second, shows("P O O L R O I D S"))
	// A game of B's own, to see it listed on A and play on.
	c, err := sshDial(b, signer)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	frames := playSolo(t, c)

	// The lobbies list the same: den with its two players, carol's game
	// with its watcher once dave, who found it there, watches it from B,
	// and gil's game on B.
	var lobbies [2]*pane
	for i, srv := range servers {
		lobbies[i] = s.pane(fmt.Sprintf("lobby%d", i))
		lobbies[i].send(ssh(srv, "eve", ""), "Enter")
	}
	lists := func(watchers int) func(string) bool {
		den := regexp.MustCompile(`den +2/\d+ +0 +co-op`)
		solo := regexp.MustCompile(fmt.Sprintf(`carol +1 +%d +solo`, watchers))
		gil := regexp.MustCompile(`gil +1 +0 +solo`)
		return func(p string) bool { return den.MatchString(p) && solo.MatchString(p) && gil.MatchString(p) }
	}
	lobbies[1].waitFor("the lobby on B to list den, carol and gil", 15*time.Second, lists(0))
	dave := s.pane("dave")
	dave.send(ssh(b, "dave", "watch carol"), "Enter")
	dave.waitFor("dave watching carol's game on A through B", 15*time.Second, shows("1 watching"))
	dave.send("?") // a key through the relay: a watcher's help
	dave.waitFor("a watcher's help on dave's screen", 15*time.Second, shows("WATCHING", "your keys move nothing"))
	dave.send("x")
	for i, l := range lobbies {
		l.waitFor(fmt.Sprintf("the lobby on server %d to list den, carol watched and gil", i), 15*time.Second, lists(1))
	}

	// A choice in B's lobby of an arena on A plays it there, under the
	// name the player chose in B's lobby, and comes back to B's lobby.
	lobbies[1].send("r", "C-u")
	lobbies[1].send("-l", "Eve of Destruct")
	lobbies[1].send("Enter")
	lobbies[1].waitFor("eve renamed in B's lobby", 15*time.Second, shows("you play as Eve of Destruct"))
	lobbies[1].send("Down", "Down", "Enter") // past Daily game
	lobbies[1].waitFor("eve in den through B's lobby", 15*time.Second, shows("arena den", "ann", "bob", "Eve of Destruct"))
	ann.waitFor("eve's chosen name on ann's screen, on A", 15*time.Second, shows("Eve of Destruct"))
	lobbies[1].send("q", "q") // q asks first in a game
	lobbies[1].waitFor("B's lobby again", 15*time.Second, shows("Play solo", "ARENAS"))

	// A stopped (SIGSTOP) holds its sockets open and answers nothing:
	// the relays to it must end by themselves.
	if err := a.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	before := frames.frames.Load()
	lobbies[1].waitFor("A's arena and game to leave B's lobby", 10*time.Second, func(p string) bool {
		return strings.Contains(p, "Play solo") && !strings.Contains(p, "den ") && !strings.Contains(p, "carol")
	})
	t.Logf("A left B's lobby %v after SIGSTOP", time.Since(stopped).Round(10*time.Millisecond))
	bob.waitFor("bob told A is gone", 10*time.Second, shows("the server that holds den is gone", "exit=1"))
	dave.waitFor("dave told A is gone", 10*time.Second, shows("the server that holds carol is gone", "exit=1"))
	t.Logf("relays to A ended %v after SIGSTOP", time.Since(stopped).Round(10*time.Millisecond))
	_ = a.cmd.Process.Signal(syscall.SIGKILL)
	if after := frames.frames.Load(); after-before < 30 {
		t.Errorf("B's own game drew %d frames after A died, want it to play on", after-before)
	}
}

// sshDial logs in to srv as a player with key.
func sshDial(srv *serverProc, key ssh.Signer) (*ssh.Client, error) {
	return ssh.Dial("tcp", srv.addr, &ssh.ClientConfig{
		User:            "gil",
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(srv.hostKey),
		Timeout:         10 * time.Second,
	})
}

// playSolo starts a solo game from the lobby on c and counts its frames.
func playSolo(t *testing.T, c *ssh.Client) *meter {
	t.Helper()
	m := &meter{}
	_, in := startPty(t, c, "", m)
	_, _ = io.WriteString(in, "\r")
	if !eventually(10*time.Second, func() bool { return m.frames.Load() >= 10 }) {
		t.Fatal("the solo game on B never drew")
	}
	return m
}

// echo watches a session's output: the channel arm returns is closed
// once the output since holds the mark.
type echo struct {
	mu   sync.Mutex
	buf  []byte
	mark []byte
	seen chan struct{}
}

func (e *echo) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.seen == nil {
		return len(p), nil
	}
	e.buf = append(e.buf, p...)
	if bytes.Contains(e.buf, e.mark) {
		close(e.seen)
		e.seen, e.buf = nil, e.buf[:0]
	}
	return len(p), nil
}

func (e *echo) arm(mark string) <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.buf, e.mark = e.buf[:0], []byte(mark)
	e.seen = make(chan struct{})
	return e.seen
}

// BenchmarkHop measures what the fleet's hop adds: a watcher of a solo
// game on A presses ? and waits for the help on its screen, watching on A
// directly, then through B, which relays. Metrics: the key's echo (ms,
// from the key sent to the help's text received, frames at 30 a second
// included) and the CPU the relaying server B spends on the session
// (relay-%, percent of one core; about none when direct).
//
//	go test -run '^$' -bench Hop -benchtime 40x .
func BenchmarkHop(b *testing.B) {
	if _, err := cpuTime(os.Getpid()); err != nil {
		b.Skip("needs Linux /proc to measure the servers' CPU:", err)
	}
	servers, _, _ := startFleet(b, 2, "--conn-rate", "0", "--max-per-address", "16")
	a, relay := servers[0], servers[1]
	_, key := writeClientKey(b, b.TempDir())
	session := func(srv *serverProc, cmd string, out io.Writer) (io.Writer, *ssh.Session) {
		c, err := sshDial(srv, key)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { c.Close() })
		sess, in := startPty(b, c, cmd, out)
		return in, sess
	}
	in, _ := session(a, "", io.Discard) // the lobby: Enter plays solo, as gil
	_, _ = io.WriteString(in, "\r")
	for _, bc := range []struct {
		name string
		srv  *serverProc
	}{{"direct", a}, {"relayed", relay}} {
		b.Run(bc.name, func(b *testing.B) {
			e := &echo{}
			var in io.Writer
			// B learns of gil's game within a heartbeat: until then it
			// refuses the watch, and the session ends.
			if !eventually(10*time.Second, func() bool {
				watching := e.arm("tab/v")
				var sess *ssh.Session
				in, sess = session(bc.srv, "watch gil", e)
				done := make(chan error, 1)
				go func() { done <- sess.Wait() }()
				select {
				case <-watching:
					return true
				case <-done:
					return false
				}
			}) {
				b.Fatal("watch gil: refused for 10 s")
			}
			cpu0, _ := cpuTime(relay.cmd.Process.Pid)
			t0 := time.Now()
			var total time.Duration
			b.ResetTimer()
			for i := range b.N {
				seen := e.arm("WATCHING") // the help's title
				sent := time.Now()
				_, _ = io.WriteString(in, "?")
				select {
				case <-seen:
				case <-time.After(5 * time.Second):
					b.Fatal("no help on the screen")
				}
				total += time.Since(sent)
				_, _ = io.WriteString(in, "x") // closes the help
				// Off the frame clock's beat, so that the wait for a frame
				// averages out.
				time.Sleep(100*time.Millisecond + time.Duration(i*7%33)*time.Millisecond)
			}
			b.StopTimer()
			cpu1, _ := cpuTime(relay.cmd.Process.Pid)
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/echo")
			b.ReportMetric(100*(cpu1-cpu0).Seconds()/time.Since(t0).Seconds(), "relay-%")
		})
	}
}

// TestServeFleetDeregisters: a server stopped as SIGTERM stops it leaves
// the fleet's directory before it says goodbye to its players, so that no
// lobby lists it meanwhile. Its fleet key, which others may read, is used
// with a warning, as a host key is (it was used silently).
func TestServeFleetDeregisters(t *testing.T) {
	pg := pgtest.Start(t)
	dir := t.TempDir()
	hop := freeAddr(t)
	key, _ := writeClientKey(t, t.TempDir())
	if err := os.Rename(key, filepath.Join(dir, "fleet_key")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "fleet_key"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	var stderr syncBuffer
	go func() {
		code <- serveMain(ctx, context.Background(), []string{"--listen", freeAddr(t), "--host-key", filepath.Join(dir, "host_key"),
			"--scores", pg.URL, "--hop", hop, "--fleet-key", filepath.Join(dir, "fleet_key")}, &stderr)
	}()
	db, err := pgx.Connect(context.Background(), pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	members := func() int {
		var n int
		// The table is there once the server is.
		_ = db.QueryRow(context.Background(), `SELECT count(*) FROM poolroids_fleet_members WHERE id = $1`, hop).Scan(&n)
		return n
	}
	if !eventually(10*time.Second, func() bool { return members() == 1 }) {
		t.Fatalf("the server never registered; its log:\n%s", stderr.String())
	}
	if log := stderr.String(); !strings.Contains(log, "fleet key open to others") || !strings.Contains(log, "mode=0644") {
		t.Errorf("no warning of the fleet key others may read; the log:\n%s", log)
	}
	cancel()
	if c := <-code; c != 0 {
		t.Errorf("exit %d, want 0; log:\n%s", c, stderr.String())
	}
	if n := members(); n != 0 {
		t.Errorf("%d entries of the stopped server left in the directory", n)
	}
}

// TestWebFleet: browsers follow the fleet. gil plays arena den on A over
// SSH; A has no listener for browsers. A browser on B joins den at
// /join/den: the page and gil's terminal each show the other; the page
// left, its session ends on both servers. From B's lobby the browser
// chooses den, plays it on A under the same name and comes back to B's
// lobby; at /watch/den on B it watches den. A new arena chosen in B's
// lobby under a name A claimed opens on A in the mode chosen (pvp); a
// new den is refused there, as the SSH relay's new den is, not joined.
func TestWebFleet(t *testing.T) {
	tab := webtest.Browser(t)
	pg := pgtest.Start(t)
	bin := buildBinary(t)
	keyPath := filepath.Join(t.TempDir(), "fleet_key")
	fleetArgs := func(hop string) []string {
		return []string{"--scores", pg.URL, "--hop", hop, "--fleet-key", keyPath}
	}
	aHop := freeAddr(t)
	a := startServe(t, bin, t.TempDir(), fleetArgs(aHop)...)
	b, url := startWeb(t, bin, t.TempDir(), fleetArgs(freeAddr(t))...)
	_, signer := writeClientKey(t, t.TempDir())

	c, err := sshDial(a, signer)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	gil := &echo{}
	sawBob := gil.arm("bob")
	startPty(t, c, "new den", gil)
	a.waitLog(t, "msg=\"game start\"", "user=gil")

	named(t, tab, url, "/join/den", "bob")
	inDen := func(s string) bool {
		return strings.Contains(s, "arena den") && strings.Contains(s, "gil") && strings.Contains(s, "bob")
	}
	webtest.WaitText(t, tab, "gil and bob in den, on A through B", inDen)
	select {
	case <-sawBob:
	case <-time.After(15 * time.Second):
		t.Fatal("bob never showed on gil's terminal")
	}
	a.waitLog(t, "msg=\"game start\"", "web=true", "user=bob", "path=/join/den")

	webtest.Open(t, tab, url+"/")
	b.waitLog(t, "msg=disconnect", "web=true", "user=bob")
	a.waitLog(t, "msg=disconnect", "web=true", "user=bob")
	lobby := func(s string) bool { return strings.Contains(s, "Play solo") && strings.Contains(s, "ARENAS") }
	webtest.WaitText(t, tab, "B's lobby, listing den", func(s string) bool { return lobby(s) && strings.Contains(s, "den ") })
	webtest.Run(t, tab, "choosing den", webtest.Tap("ArrowDown", "ArrowDown", "Enter")) // past Daily game
	webtest.WaitText(t, tab, "den through B's lobby, bob in it once", func(s string) bool { return inDen(s) && !strings.Contains(s, "bob-2") })
	webtest.Run(t, tab, "leaving den", webtest.Tap("q", "q")) // q asks first in a game
	webtest.WaitText(t, tab, "B's lobby again", lobby)

	webtest.Open(t, tab, url+"/watch/den")
	webtest.WaitText(t, tab, "den watched through B", func(s string) bool {
		return strings.Contains(s, "arena den") && strings.Contains(s, "1 watching") && strings.Contains(s, "gil")
	})
	a.waitLog(t, "msg=\"game start\"", "web=true", "user=bob", "path=/watch/den")
	b.waitLog(t, "msg=\"game start\"", "web=true", "path=/watch/den")

	webtest.Open(t, tab, url+"/")
	webtest.WaitText(t, tab, "B's lobby for a new arena", lobby)
	// A's claim of pit, as A writes it before it opens the arena: for the
	// next 10 s (fleet's claimGrace) the fleet places pit on A.
	ctx := context.Background()
	db, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	if _, err := db.Exec(ctx, `INSERT INTO poolroids_fleet_rooms (name, member) VALUES ('pit', $1)`, aHop); err != nil {
		t.Fatal(err)
	}
	webtest.Run(t, tab, "a new arena pit, pvp", webtest.Tap("n", "p", "i", "t", "Tab", " ", "Enter"))
	webtest.WaitText(t, tab, "bob in pvp pit on A", func(s string) bool { return strings.Contains(s, "arena pit · pvp") && strings.Contains(s, "bob") })
	a.waitLog(t, "msg=\"game start\"", "web=true", "user=bob", "path=/new/pit/pvp")
	webtest.Run(t, tab, "leaving pit", webtest.Tap("q", "q"))
	webtest.WaitText(t, tab, "B's lobby after pit", lobby)
	webtest.Run(t, tab, "a new arena den", webtest.Tap("n", "d", "e", "n", "Enter"))
	webtest.WaitText(t, tab, "new den refused", func(s string) bool { return lobby(s) && strings.Contains(s, hub.ErrExists.Error()) })
	a.waitLog(t, "msg=\"game start\"", "web=true", "user=bob", "path=/new/den")
	a.waitLog(t, "msg=disconnect", "web=true", "user=bob", "reason=refused")
}
