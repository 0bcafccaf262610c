package main

import (
	"context"
	"fmt"
	"os"
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
	var hosts strings.Builder
	for _, srv := range servers {
		fmt.Fprintf(&hosts, "[127.0.0.1]:%d %s", srv.port, ssh.MarshalAuthorizedKey(srv.hostKey))
	}
	if err := os.WriteFile(p.knownHosts, []byte(hosts.String()), 0o600); err != nil {
		t.Fatal(err)
	}
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

// score fires until the game's header shows a score, then pauses the
// game: on the pressure levels a volley soon breaks a rock, and the rocks
// soon end the game.
func (p *pane) score() {
	p.s.t.Helper()
	p.waitFor("a score", 30*time.Second, func(s string) bool {
		if scoreShown.MatchString(s) {
			return true
		}
		p.send("Space")
		return false
	})
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
// In a second outage a player quits with a score queued and is told so;
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
	ann.waitFor("the lobby", 15*time.Second, shows("Play solo"))
	ann.send("Enter")
	ann.waitFor("the title", 15*time.Second, shows("P O O L R O I D S"))
	ann.send("Space")
	ann.score()

	pg.Stop()
	var shown []int
	shown = append(shown, ann.leave("saved, will be posted when the score database is back"))
	ann.send("Enter") // play again, the database still away
	ann.waitFor("the title", 15*time.Second, shows("P O O L R O I D S"))
	ann.send("Space")
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

	pg.Start()
	if !eventually(20*time.Second, func() bool { return value(scrape(t, url+"/metrics"), "poolroids_scores_queued") == 0 }) {
		t.Fatalf("the queue was never posted; the log:\n%s", srv.logText())
	}
	m = scrape(t, url+"/metrics")
	if posted, up := value(m, "poolroids_scores_posted_total"), value(m, "poolroids_scores_database_up"); posted != 2 || up != 1 {
		t.Errorf("after the outage: %v posted, up %v; want 2 and 1", posted, up)
	}
	srv.waitLog(t, "score database back", "failures=")
	if log := srv.logText(); strings.Count(log, "score database unreachable") != 1 || strings.Count(log, "score database back") != 1 {
		t.Errorf("the outage should be logged twice, as it starts and ends; the log:\n%s", log)
	}

	ann.waitFor("the notice gone, the scores posted", 15*time.Second, func(s string) bool { return !strings.Contains(s, "will be posted") })
	pg.Stop()
	ann.send("Enter")
	ann.waitFor("the title", 15*time.Second, shows("P O O L R O I D S"))
	ann.send("Space")
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
