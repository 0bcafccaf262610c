package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/crypto/ssh"

	"poolroids/game/scores/pgtest"
)

// players are OpenSSH clients in tmux panes, logging in to servers with
// one key that known_hosts pins.
type players struct {
	s          *tmuxSession
	ssh        string
	key        string // the private key's path
	knownHosts string
}

func newPlayers(t *testing.T, servers ...*serverProc) *players {
	t.Helper()
	p := &players{s: newTmux(t), ssh: lookSSH(t)}
	dir := t.TempDir()
	p.key, _ = writeClientKey(t, dir)
	p.knownHosts = filepath.Join(dir, "known_hosts")
	p.trust(t, servers...)
	return p
}

// trust writes the host keys of servers into known_hosts.
func (p *players) trust(t *testing.T, servers ...*serverProc) {
	t.Helper()
	writeKnownHosts(t, p.knownHosts, servers...)
}

// login opens a pane named user in which user runs cmd on srv ("": the
// lobby); the shell prints exit=N after.
func (p *players) login(srv *serverProc, user, cmd string) *pane {
	pn := p.s.pane(user)
	pn.send(fmt.Sprintf("clear; %s -t -F /dev/null -p %d -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s "+
		"-o LogLevel=ERROR -o IdentitiesOnly=yes -i %s -l %s 127.0.0.1 %s; echo exit=$?", p.ssh, srv.port, p.knownHosts, p.key, user, cmd), "Enter")
	return pn
}

var (
	scoreShown = regexp.MustCompile(`score ([1-9][0-9]*) `)
)

// startSolo starts a solo game from the lobby and its first game.
func (p *pane) startSolo() {
	p.s.t.Helper()
	p.waitFor("the lobby", 15*time.Second, shows("Play solo"))
	p.send("Enter")
	p.waitFor("the title", 15*time.Second, shows("P O O L R O I D S"))
	p.send("Space")
}

// fire fires until scored shows on the screen: on the pressure levels a
// volley soon breaks a rock.
func (p *pane) fire(scored *regexp.Regexp) {
	p.s.t.Helper()
	p.waitFor("a score", 30*time.Second, func(s string) bool {
		if scored.MatchString(s) {
			return true
		}
		p.send("Space")
		return false
	})
}

// arenaScore matches the row of a player with a score in an arena's
// players box (the header's score is the arena's).
func arenaScore(player string) *regexp.Regexp {
	return regexp.MustCompile(`│` + player + ` +[1-9][0-9]* `)
}

// score fires until a solo game scores, then pauses it: the rocks of the
// pressure levels soon end a game.
func (p *pane) score() {
	p.s.t.Helper()
	p.fire(scoreShown)
	p.send("p")
	p.waitFor("the game paused", 10*time.Second, shows("PAUSED"))
}

// leave leaves the game in play, paused, which is scored, and returns its
// score; the lobby then shows want.
func (p *pane) leave(want string) int {
	p.s.t.Helper()
	screen := p.waitFor("the paused game's score", 10*time.Second, shows("PAUSED"))
	m := scoreShown.FindStringSubmatch(screen)
	if m == nil {
		p.s.t.Fatalf("no score on the paused game's screen:\n%s", screen)
	}
	p.send("q", "y")
	p.waitFor("the lobby, "+want, 15*time.Second, shows("Play solo", want))
	n, _ := strconv.Atoi(m[1])
	return n
}

// dbScores returns the scores the database holds, and how many rows hold
// each game's key.
func dbScores(t *testing.T, url string) (scores []int, perKey map[string]int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, `SELECT score, coalesce(key, '') FROM poolroids_scores ORDER BY score`)
	perKey = make(map[string]int)
	var score int
	var key string
	if _, err := pgx.ForEachRow(rows, []any{&score, &key}, func() error {
		scores = append(scores, score)
		perKey[key]++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return scores, perKey
}

// TestServeOutageInTmux: the score database stops in mid-game; the player
// plays on, and each game they leave is "saved, will be posted", waiting
// on disk, as the metrics and /readyz say; the database back, the server
// posts them, the outage logged once as it starts and once as it ends.
// Daily games posted over SSH meanwhile are proven and answered queued;
// the database back, they are ranked as the day's rules say (see
// dailyPosted). In a second outage a player quits with a score queued and is told so;
// the server is killed (SIGKILL), and its next start posts that score.
// Every score the game-over screens showed is in the database, once.
func TestServeOutageInTmux(t *testing.T) {
	pg := pgtest.Start(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	metricsAddr := freeAddr(t)
	args := []string{"--scores", pg.URL, "--scores-queue", filepath.Join(dir, "queue"), "--levels", "levels/pressure", "--metrics", metricsAddr}
	srv := startServe(t, bin, dir, args...)
	p := newPlayers(t, srv)
	ann := p.login(srv, "ann", "")
	ann.startSolo()
	ann.score()

	pg.Stop()
	var shown []int
	shown = append(shown, ann.leave("saved, will be posted when the score database is back"))
	ann.startSolo() // again, the database still away
	ann.score()
	shown = append(shown, ann.leave("saved, will be posted when the score database is back"))
	url := "http://" + metricsAddr
	m := scrape(t, url+"/metrics")
	if q, up := value(m, "poolroids_scores_queued"), value(m, "poolroids_scores_database_up"); q != 2 || up != 0 {
		t.Errorf("during the outage: %v saves queued, database up %v; want 2 and 0", q, up)
	}
	if code, body := get(t, url+"/readyz"); code != 503 || !strings.Contains(body, "score database unreachable (2 saves queued)") {
		t.Errorf("/readyz during the outage: %d %q", code, body)
	}
	gil, first, firstScore := postQueued(t, srv)
	if q := value(scrape(t, url+"/metrics"), "poolroids_scores_queued"); q != 5 {
		t.Errorf("after three daily posts: %v saves queued, want 5", q)
	}

	pg.Start()
	if !eventually(20*time.Second, func() bool { return value(scrape(t, url+"/metrics"), "poolroids_scores_queued") == 0 }) {
		t.Fatalf("the queue was never posted; the log:\n%s", srv.logText())
	}
	m = scrape(t, url+"/metrics")
	if posted, up := value(m, "poolroids_scores_posted_total"), value(m, "poolroids_scores_database_up"); posted != 4 || up != 1 {
		t.Errorf("after the outage: %v posted, up %v; want 4 (the daily posts' 2, the same game twice being one, with the games' 2) and 1", posted, up)
	}
	srv.waitLog(t, "score database back", "failures=")
	dailyPosted(t, srv, gil, first, firstScore)
	if log := srv.logText(); strings.Count(log, "score database unreachable") != 1 || strings.Count(log, "score database back") != 1 {
		t.Errorf("the outage should be logged twice, as it starts and ends; the log:\n%s", log)
	}

	ann.waitFor("the notice gone, the scores posted", 15*time.Second, func(s string) bool { return !strings.Contains(s, "will be posted") })
	pg.Stop()
	ann.startSolo()
	ann.score()
	shown = append(shown, ann.leave("saved, will be posted when the score database is back"))
	ann.send("q")
	ann.waitFor("the message as ann quits", 15*time.Second, shows("your score is saved, will be posted when the score database is back", "exit=0"))
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-srv.done
	queued, _ := filepath.Glob(filepath.Join(dir, "queue", "*.json"))
	if len(queued) != 1 {
		t.Errorf("after SIGKILL the queue holds %v, want one save", queued)
	}
	pg.Start()
	again := startServe(t, bin, dir, args...)
	if !eventually(20*time.Second, func() bool {
		got, _ := dbScores(t, pg.URL)
		return len(got) == len(shown)
	}) {
		t.Fatalf("the queue left by the killed server was never posted; the log:\n%s", again.logText())
	}
	got, perKey := dbScores(t, pg.URL)
	slices.Sort(shown)
	if !slices.Equal(got, shown) {
		t.Errorf("the database holds scores %v, the game-over screens showed %v", got, shown)
	}
	for key, n := range perKey {
		if n != 1 || key == "" {
			t.Errorf("game %q saved %d times", key, n)
		}
	}
	t.Logf("scores %v, each saved once through two outages and a SIGKILL", got)
}

// postQueued posts, over SSH as gil, two daily games recorded now on
// levels/pressure (srv's levels), the first twice, while srv's score
// database is down: each is proven and answered queued. It returns gil's
// exec on srv (a connection each), the first game's file and its score.
func postQueued(t *testing.T, srv *serverProc) (gil func(cmd, in string) (string, error), first, score string) {
	t.Helper()
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.prpl"), filepath.Join(dir, "second.prpl")
	for path, steps := range map[string]string{first: "1500", second: "3000"} {
		code, out, errs := recordRun(t, "-daily", "-levels", "levels/pressure", "-steps", steps, path)
		m := regexp.MustCompile(`, score (\d+), wave`).FindStringSubmatch(out)
		if code != 0 || m == nil {
			t.Fatalf("record -daily -steps %s: exit %d, %q %q", steps, code, out, errs)
		}
		if path == first {
			score = m[1]
		}
	}
	_, signer := writeClientKey(t, dir)
	gil = func(cmd, in string) (string, error) {
		c, err := sshDial(srv, signer)
		if err != nil {
			return "", err
		}
		defer c.Close()
		return sshExec(t, c, cmd, in)
	}
	for _, path := range []string{first, first, second} {
		if out, err := gil("post", path); err != nil || !strings.HasPrefix(out, "proven: the daily game of ") || !strings.Contains(out, "\nqueued: ") {
			t.Fatalf("post of %s during the outage: %v, %q", filepath.Base(path), err, out)
		}
	}
	return gil, first, score
}

// dailyPosted checks that the daily games postQueued queued are posted,
// the database back, as the day's rules say: the first counts, on the
// daily board at its score; the same game again is refused as posted,
// by its proof's checksum; the second is practice.
func dailyPosted(t *testing.T, srv *serverProc, gil func(cmd, in string) (string, error), first, score string) {
	t.Helper()
	srv.waitLog(t, "queued daily game posted", "player=gil", "counted=true", "rank=1")
	srv.waitLog(t, "queued daily game posted", "player=gil", "counted=false")
	if n := strings.Count(srv.logText(), "queued daily game posted"); n != 2 {
		t.Errorf("%d queued daily games posted, want 2: the same game twice is one; the log:\n%s", n, srv.logText())
	}
	board, err := gil("scores daily", "")
	row := regexp.MustCompile(`(?m)^ +1  gil +\S+ +` + score + ` `)
	if err != nil || !strings.Contains(board, ", games counted: 1\n") || !row.MatchString(board) {
		t.Errorf("the daily board after the outage: %v\n%s\nwant gil's first game, score %s, alone", err, board, score)
	}
	if out, err := gil("post", first); err == nil || !strings.Contains(out, "refused, posted: ") {
		t.Errorf("the first game posted again, the database back: %v, %q; want refused as posted", err, out)
	}
}

// TestFleetOutageInTmux: two servers of a fleet, the database stopped.
// A player on B joins A's arena den, which B last saw on A: relayed there,
// as the hop needs no database; another is refused a new arena on B, with
// the reason, rather than open a name another server may hold. Each
// relayed player counts once in the fleet's sessions. The database back,
// B's lobby lists den once, and B opens arenas again.
func TestFleetOutageInTmux(t *testing.T) {
	pg := pgtest.Start(t)
	bin := buildBinary(t)
	keyPath := filepath.Join(t.TempDir(), "fleet_key")
	var servers []*serverProc
	var metricsAt []string
	for range 2 {
		addr := freeAddr(t)
		servers = append(servers, startServe(t, bin, t.TempDir(), "--scores", pg.URL, "--hop", freeAddr(t),
			"--fleet-key", keyPath, "--metrics", addr, "--max-per-address", "8"))
		metricsAt = append(metricsAt, "http://"+addr+"/metrics")
	}
	a, b := servers[0], servers[1]
	p := newPlayers(t, a, b)
	ann := p.login(a, "ann", "new den")
	ann.waitFor("ann in den", 15*time.Second, shows("arena den"))
	lobby := p.login(b, "eve", "")
	lobby.waitFor("den in B's lobby", 15*time.Second, shows("den "))
	lobby.send("q")

	pg.Stop()
	b.waitLog(t, "fleet directory unreachable")
	bob := p.login(b, "bob", "join den")
	bob.waitFor("bob in A's den through B", 15*time.Second, shows("arena den", "ann", "bob"))
	cy := p.login(b, "cy", "new pit")
	cy.waitFor("cy refused", 15*time.Second, shows("the fleet's directory cannot be reached: no arena opens now", "exit=1"))
	for i, want := range []struct{ sessions, in, out float64 }{{1, 1, 0}, {1, 0, 1}} {
		m := scrape(t, metricsAt[i])
		got := struct{ sessions, in, out float64 }{value(m, "poolroids_sessions"),
			value(m, "poolroids_fleet_relays", "direction", "in"), value(m, "poolroids_fleet_relays", "direction", "out")}
		if got != want {
			t.Errorf("server %d: sessions, relays in and out %v, want %v: each player once", i, got, want)
		}
	}

	pg.Start()
	b.waitLog(t, "fleet directory back")
	den := regexp.MustCompile(`den +2/\d+ +\d+ +co-op`)
	lobby = p.login(b, "eve2", "")
	screen := lobby.waitFor("den in B's lobby again", 15*time.Second, func(s string) bool { return den.MatchString(s) })
	if n := len(den.FindAllString(screen, -1)); n != 1 {
		t.Errorf("B's lobby lists den %d times:\n%s", n, screen)
	}
	cy = p.login(b, "cy2", "new pit")
	cy.waitFor("cy in pit", 15*time.Second, shows("arena pit"))
}

// TestServeDrainInTmux: SIGTERM with two players in an arena and one in a
// solo game. The server leaves the fleet's directory and takes no new
// player at once, while the players play on, told how long they have; one
// leaves in time. At the deadline the others' games end, saved as games
// they left, the arena's included, and the server exits 0.
func TestServeDrainInTmux(t *testing.T) {
	pg := pgtest.Start(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	hop, metricsAddr := freeAddr(t), freeAddr(t)
	srv := startServe(t, bin, dir, "--scores", pg.URL, "--hop", hop, "--fleet-key", filepath.Join(dir, "fleet_key"),
		"--levels", "levels/pressure", "--metrics", metricsAddr, "--drain", "8s")
	p := newPlayers(t, srv)
	ann := p.login(srv, "ann", "new den")
	ann.waitFor("ann in den", 15*time.Second, shows("arena den"))
	bob := p.login(srv, "bob", "join den")
	bob.waitFor("bob in den", 15*time.Second, shows("arena den", "ann", "bob"))
	carol := p.login(srv, "carol", "")
	carol.startSolo()
	carol.score()
	ann.fire(arenaScore("ann"))
	bob.fire(arenaScore("bob"))

	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	signalled := time.Now()
	for _, pn := range []*pane{ann, carol} {
		pn.waitFor("the drain's notice", 5*time.Second, shows("server stopping in"))
	}
	if code, body := get(t, "http://"+metricsAddr+"/readyz"); code != 503 || !strings.Contains(body, "draining") {
		t.Errorf("/readyz while draining: %d %q", code, body)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var members int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM poolroids_fleet_members WHERE id = $1`, hop).Scan(&members); err != nil || members != 0 {
		t.Errorf("the draining server is listed %d times in the directory (%v)", members, err)
	}
	late := p.login(srv, "late", "")
	late.waitFor("a new player turned away", 10*time.Second, shows("exit=255"))
	bob.send("q", "y") // bob leaves in time
	bob.waitFor("bob's session over", 10*time.Second, shows("exit=0"))

	select {
	case <-srv.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("the server never stopped; its log:\n%s", srv.logText())
	}
	took := time.Since(signalled)
	if srv.err != nil || took < 7*time.Second {
		t.Errorf("the server exited with %v after %v, want status 0 after the 8 s drain", srv.err, took)
	}
	for _, pn := range []*pane{ann, carol} {
		pn.waitFor("the end of the drain", 5*time.Second, shows("poolroids: server shutting down"))
	}
	// A player whose last ship the rocks took played again: one game or more each.
	rows, _ := conn.Query(ctx, `SELECT DISTINCT split_part(name, ' ', 1), arena FROM poolroids_scores ORDER BY 1`)
	var saved []string
	var name, arena string
	if _, err := pgx.ForEachRow(rows, []any{&name, &arena}, func() error {
		saved = append(saved, name+"@"+arena)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"ann@den", "bob@den", "carol@"}; !slices.Equal(saved, want) {
		t.Errorf("saved %q, want %q: every game, left in time or ended by the drain; the log:\n%s", saved, want, srv.logText())
	}
	srv.waitLog(t, "msg=stopped")
	t.Logf("drained in %v", took.Round(100*time.Millisecond))
}

// TestServeSecondSignal: a second SIGTERM ends a drain at once.
func TestServeSecondSignal(t *testing.T) {
	bin := buildBinary(t)
	srv := startServe(t, bin, t.TempDir(), "--drain", "60s")
	p := newPlayers(t, srv)
	ann := p.login(srv, "ann", "")
	ann.waitFor("the lobby", 15*time.Second, shows("Play solo"))
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	ann.waitFor("the drain's notice", 5*time.Second, shows("server stopping in 6"))
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-srv.done:
	case <-time.After(5 * time.Second):
		t.Fatalf("the second SIGTERM did not end the server; its log:\n%s", srv.logText())
	}
	if ee, ok := srv.err.(interface{ ExitCode() int }); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit %v, want status 1", srv.err)
	}
	ann.waitFor("ann told", 5*time.Second, shows("exit="))
}

// TestServeSecrets: a database password on the command line is used, with
// a warning, and pprof, on a listener of its own, refuses the command
// line; the URL in POOLROIDS_SCORES keeps it off the command line, with
// no warning, and pprof shows the command line, password-free.
func TestServeSecrets(t *testing.T) {
	pg := pgtest.Start(t) // trusts its user: any password does
	bin := buildBinary(t)
	withPassword := strings.Replace(pg.URL, "poolroids@", "poolroids:s3cret@", 1)
	const warning = "password is on the command line"
	for _, c := range []struct {
		name   string
		env    []string
		args   []string
		warned bool
		code   int
	}{
		{"on the command line", nil, []string{"--scores", withPassword}, true, 403},
		{"in the environment", []string{"POOLROIDS_SCORES=" + withPassword}, nil, false, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			pprofAddr := freeAddr(t)
			srv := startServeEnv(t, bin, dir, c.env, append(c.args, "--pprof="+pprofAddr, "--scores-queue", filepath.Join(dir, "queue"))...)
			if got := strings.Contains(srv.logText(), warning); got != c.warned {
				t.Errorf("warned %v, want %v; the log:\n%s", got, c.warned, srv.logText())
			}
			code, body := get(t, "http://"+pprofAddr+"/debug/pprof/cmdline")
			if code != c.code || strings.Contains(body, "s3cret") {
				t.Errorf("pprof's cmdline: %d %q, want %d and no password", code, body, c.code)
			}
			if code, _ := get(t, "http://"+pprofAddr+"/debug/pprof/heap"); code != 200 {
				t.Errorf("pprof's heap: %d", code)
			}
		})
	}
}

// TestServeFleetKey: a server that makes the fleet's key file says so; one
// whose key is not the running fleet's refuses to start, saying why.
func TestServeFleetKey(t *testing.T) {
	pg := pgtest.Start(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	a := startServe(t, bin, dir, "--scores", pg.URL, "--hop", freeAddr(t), "--fleet-key", filepath.Join(dir, "fleet_key"))
	a.waitLog(t, "fleet key created", "fingerprint=SHA256:")
	other := t.TempDir()
	var stderr syncBuffer
	code := serveMain(context.Background(), context.Background(), []string{"--listen", freeAddr(t), "--host-key", filepath.Join(other, "host_key"),
		"--scores", pg.URL, "--hop", freeAddr(t), "--fleet-key", filepath.Join(other, "fleet_key")}, &stderr)
	log := stderr.String()
	if code != 1 || !strings.Contains(log, "fleet key created") ||
		!strings.Contains(log, "this server's fleet key is not the fleet's") || !strings.Contains(log, "every server of a fleet needs the same -fleet-key file") {
		t.Errorf("a server with another key: exit %d, log:\n%s", code, log)
	}
}

// TestServeLogJSON: --log-format json writes one JSON object a line.
func TestServeLogJSON(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	srv := startServeEnv(t, bin, dir, []string{"POOLROIDS_LOG_FORMAT=json"}, "--scores", filepath.Join(dir, "scores.json"))
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-srv.done
	lines := strings.Split(strings.TrimSpace(srv.logText()), "\n")
	msgs := map[string]bool{}
	for _, l := range lines {
		var rec struct{ Time, Level, Msg string }
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Time == "" || rec.Level == "" {
			t.Errorf("not a JSON log record: %q (%v)", l, err)
		}
		msgs[rec.Msg] = true
	}
	for _, want := range []string{"flags from the environment", "listening", "draining", "stopped"} {
		if !msgs[want] {
			t.Errorf("no %q in the log:\n%s", want, srv.logText())
		}
	}
}

// lookProgram returns the path of the program name, or skips the test
// without it (but fails it in CI, whose .ci/run installs pkg).
func lookProgram(t *testing.T, name, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing; CI must install %s (.ci/run does)", name, pkg)
		}
		t.Skipf("%s is not installed (apt-get install %s)", name, pkg)
	}
	return path
}

// haproxyConfig is the configuration OPERATIONS.md shows, with the
// addresses of the test's balancer and servers for the example's.
func haproxyConfig(t *testing.T, bind string, servers ...string) string {
	t.Helper()
	doc, err := os.ReadFile("ui/serve/OPERATIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```haproxy\n")
	cfg, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("OPERATIONS.md shows no ```haproxy block")
	}
	for old, new := range map[string]string{
		"bind :22":                "bind " + bind,
		"server a 10.0.0.11:2222": "server a " + servers[0],
		"server b 10.0.0.12:2222": "server b " + servers[1],
	} {
		if !strings.Contains(cfg, old) {
			t.Fatalf("the configuration in OPERATIONS.md has no %q to point at the test's servers:\n%s", old, cfg)
		}
		cfg = strings.Replace(cfg, old, new, 1)
	}
	return cfg
}

// TestHAProxy runs the HAProxy configuration of OPERATIONS.md in front of
// two servers: a player's connection reaches one with their address in
// its PROXY v2 header; HAProxy's health checks, on the SSH port, are no
// refusals and spend no rate limit; a server that drains is taken out by
// the checks, and the next player reaches the other.
func TestHAProxy(t *testing.T) {
	haproxy := lookProgram(t, "haproxy", "haproxy")
	bin := buildBinary(t)
	var servers []*serverProc
	var metricsAt []string
	for range 2 {
		addr := freeAddr(t)
		// One check every 2 s from 127.0.0.1: 30 a minute, past the
		// rate limit's burst of 10, were they counted.
		servers = append(servers, startServe(t, bin, t.TempDir(), "--proxy-protocol-from", "127.0.0.1", "--metrics", addr, "--drain", "30s"))
		metricsAt = append(metricsAt, "http://"+addr+"/metrics")
	}
	front := freeAddr(t)
	cfgPath := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(cfgPath, []byte(haproxyConfig(t, front, servers[0].addr, servers[1].addr)), 0o644); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	cmd := exec.Command(haproxy, "-db", "-f", cfgPath)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	hostKeys := map[string]bool{}
	for _, srv := range servers {
		hostKeys[string(srv.hostKey.Marshal())] = true
	}
	_, key := writeClientKey(t, t.TempDir())
	// login logs in through HAProxy from 127.0.0.2 and opens the lobby.
	login := func() *ssh.Client {
		t.Helper()
		var c *ssh.Client
		if !eventually(10*time.Second, func() bool {
			nc, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, Timeout: 5 * time.Second}).Dial("tcp", front)
			if err != nil {
				return false
			}
			sc, chans, reqs, err := ssh.NewClientConn(nc, front, &ssh.ClientConfig{
				User: "ann", Auth: []ssh.AuthMethod{ssh.PublicKeys(key)}, Timeout: 5 * time.Second,
				HostKeyCallback: func(_ string, _ net.Addr, k ssh.PublicKey) error {
					if !hostKeys[string(k.Marshal())] {
						return fmt.Errorf("not a test server's host key")
					}
					return nil
				},
			})
			if err != nil {
				nc.Close()
				return false
			}
			c = ssh.NewClient(sc, chans, reqs)
			return true
		}) {
			t.Fatalf("no login through HAProxy; its output:\n%s", out.String())
		}
		t.Cleanup(func() { c.Close() })
		startPty(t, c, "", nil)
		return c
	}
	logins := func(i int) int { return strings.Count(servers[i].logText(), "msg=connect addr=127.0.0.2:") }
	first := login()
	on := -1
	if !eventually(10*time.Second, func() bool {
		for i := range servers {
			if logins(i) == 1 {
				on = i
			}
		}
		return on >= 0
	}) {
		t.Fatalf("no server logged a login from 127.0.0.2, the player's address")
	}
	other := 1 - on

	// The server the player is on drains: it closes its port, the checks
	// fail, and HAProxy takes it out.
	if err := servers[on].cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	name := string(rune('a' + on))
	if !eventually(20*time.Second, func() bool { return strings.Contains(out.String(), "Server poolroids/"+name+" is DOWN") }) {
		t.Fatalf("HAProxy never took the draining server %s out; its output:\n%s", name, out.String())
	}
	login()
	if !eventually(10*time.Second, func() bool { return logins(other) == 1 }) || logins(on) != 1 {
		t.Errorf("the next player: logins %d on the draining server, %d on the other; want 1 and 1", logins(on), logins(other))
	}
	first.Close()
	select {
	case <-servers[on].done:
	case <-time.After(10 * time.Second):
		t.Error("the draining server did not stop once its player left")
	}
	// Some seconds of checks every 2 s have passed.
	m := scrape(t, metricsAt[other])
	if n := value(m, "poolroids_connections_accepted_total"); n != 1 {
		t.Errorf("server %d accepted %v connections, want 1: the player's, not the checks", other, n)
	}
	if n := value(m, "poolroids_refused_total"); n > 0 {
		t.Errorf("server %d refused %v connections: HAProxy's checks?", other, n)
	}
	for _, srv := range servers {
		if strings.Contains(srv.logText(), "rejected") {
			t.Errorf("a server refused a connection:\n%s", srv.logText())
		}
	}
}

// TestSystemdUnit: the unit in deploy/ passes systemd-analyze verify
// without a word, with its binary where the test built it, rates as
// hardened in systemd-analyze security, and every POOLROIDS_ variable it
// sets names a flag of poolroids serve.
func TestSystemdUnit(t *testing.T) {
	analyze := lookProgram(t, "systemd-analyze", "systemd")
	unit, err := os.ReadFile("ui/serve/deploy/poolroids.service")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	const exec0 = "ExecStart=/usr/local/bin/poolroids serve"
	if !strings.Contains(string(unit), exec0) {
		t.Fatalf("the unit does not run %q", exec0)
	}
	path := filepath.Join(t.TempDir(), "poolroids.service")
	if err := os.WriteFile(path, []byte(strings.Replace(string(unit), "/usr/local/bin/poolroids", bin, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	out, err = exec.Command(analyze, "security", "--offline=yes", path).CombinedOutput()
	exposure := regexp.MustCompile(`Overall exposure level for poolroids.service: ([0-9.]+)`).FindSubmatch(out)
	if err != nil || exposure == nil {
		t.Fatalf("systemd-analyze security: %v\n%s", err, out)
	}
	if level, _ := strconv.ParseFloat(string(exposure[1]), 64); level > 2 {
		t.Errorf("exposure %v, want 2 or less: hardened", level)
	}
	var help syncBuffer
	serveMain(context.Background(), context.Background(), []string{"-h"}, &help)
	for _, m := range regexp.MustCompile(`(?m)^#?\s*Environment=POOLROIDS_([A-Z_]+)=`).FindAllStringSubmatch(string(unit), -1) {
		flag := strings.ToLower(strings.ReplaceAll(m[1], "_", "-"))
		if !strings.Contains(help.String(), "  -"+flag+" ") && !strings.Contains(help.String(), "  -"+flag+"\n") {
			t.Errorf("the unit sets POOLROIDS_%s, but serve has no -%s", m[1], flag)
		}
	}
}
