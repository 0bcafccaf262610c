package route

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/scores"
	"poolroids/ui"
	"poolroids/ui/serve"
	"poolroids/ui/serve/servetest"
)

// postServer is a server on loopback whose Exec is a Router's, on a file
// store of its own, with no limit on posts.
type postServer struct {
	addr    string
	hostKey ssh.PublicKey
	store   *scores.Store
}

func startPostServer(tb testing.TB) *postServer {
	tb.Helper()
	store, err := scores.Open(filepath.Join(tb.TempDir(), "scores.json"))
	if err != nil {
		tb.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	r, err := New(Config{Game: ui.Options{Scores: store}, Logger: log})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(r.Close)
	addr, hk := servetest.Start(tb, serve.Config{Play: r.Play, Exec: r.Exec, PostsPerHour: -1})
	return &postServer{addr: addr, hostKey: hk, store: store}
}

// run runs cmd on the server as user with key (nil: none), in as its
// input, and returns its exit status, output and error output.
func (ps *postServer) run(tb testing.TB, user string, key ssh.Signer, cmd string, in []byte) (status int, out, errs string) {
	tb.Helper()
	auth := []ssh.AuthMethod{ssh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
	if key != nil {
		auth = []ssh.AuthMethod{ssh.PublicKeys(key)}
	}
	c, err := ssh.Dial("tcp", ps.addr, &ssh.ClientConfig{User: user, Auth: auth, HostKeyCallback: ssh.FixedHostKey(ps.hostKey), Timeout: 10 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	var o, e bytes.Buffer
	sess.Stdout, sess.Stderr, sess.Stdin = &o, &e, bytes.NewReader(in)
	err = sess.Run(cmd)
	if ee, ok := errors.AsType[*ssh.ExitError](err); ok {
		return ee.ExitStatus(), o.String(), e.String()
	} else if err != nil {
		tb.Fatalf("%s: %v", cmd, err)
	}
	return 0, o.String(), e.String()
}

// proven reads the score and wave of a post's answer.
var proven = regexp.MustCompile(`^proven: the daily game of (\S+), score (\d+), wave (\d+), `)

// refusedAs reads the reason of a post's refusal.
var refusedAs = regexp.MustCompile(`^poolroids: refused, ([a-z-]+): `)

// TestPostMutants posts 100 mutated replays of a real daily game
// (dailytest.Mutants), each from a key of its own, to a server, which
// proves each: every one is refused for a reason its mutation allows
// (the reason the replay's own proof gives), or for being a game posted
// before, or ranks with exactly the score and wave its replay proves,
// never another; and the day's board then holds exactly the games ranked.
func TestPostMutants(t *testing.T) {
	t.Parallel()
	now := time.Now()
	d := daily.DayOf(now)
	data, _ := dailytest.HandGame(t, d, nil, "ann", 3, 20000)
	other, _ := dailytest.HandGame(t, d, nil, "bob", 13, 20000)
	ms := dailytest.Mutants(t, d, data, other)
	if len(ms) != 100 {
		t.Fatalf("%d mutants", len(ms))
	}
	ps := startPostServer(t)
	ranked := make(map[uint64]int) // the games ranked: their sums, and scores
	tally := make(map[string]int)
	for i, m := range ms {
		name := fmt.Sprintf("%d %s", i, m.Kind)
		st, out, errs := ps.run(t, fmt.Sprint("p", i), servetest.NewKey(t), "post", m.Data)
		want, werr := daily.Verify(t.Context(), m.Data, time.Now(), nil)
		if st != 0 {
			reason := refusedAs.FindStringSubmatch(errs)
			switch {
			case st != 1 || reason == nil:
				t.Errorf("%s: status %d, %q; want a refusal with its reason", name, st, errs)
			case reason[1] == "posted":
				if _, ok := ranked[want.Sum]; werr != nil || !ok {
					t.Errorf("%s: refused as posted (%q), but its game (%v) was not", name, errs, werr)
				}
			case werr == nil:
				t.Errorf("%s: refused as %s, but its replay proves %+v", name, reason[1], want)
			case !strings.Contains(werr.Error(), "refused, "+reason[1]+": "):
				t.Errorf("%s: refused as %s; its replay is refused as %v", name, reason[1], werr)
			case !slices.ContainsFunc(m.May, func(r daily.Reason) bool { return r.String() == reason[1] }):
				t.Errorf("%s: refused as %s, not one of %v", name, reason[1], m.May)
			case m.Must:
				t.Errorf("%s: refused (%q), want it ranked", name, errs)
			}
			if reason != nil {
				tally["refused, "+reason[1]]++
			}
			continue
		}
		got := proven.FindStringSubmatch(out)
		if got == nil || !strings.Contains(out, "\ncounted: #") {
			t.Errorf("%s: answered %q", name, out)
			continue
		}
		score, _ := strconv.Atoi(got[2])
		wave, _ := strconv.Atoi(got[3])
		switch {
		case werr != nil:
			t.Errorf("%s: ranked with score %d; its replay is refused: %v", name, score, werr)
		case !m.Accept:
			t.Errorf("%s: ranked, want it refused as one of %v", name, m.May)
		case score != want.Score || wave != want.Wave || got[1] != want.Day.String():
			t.Errorf("%s: ranked as %s, score %d, wave %d; its replay proves %s, %d, %d", name, got[1], score, wave, want.Day, want.Score, want.Wave)
		}
		ranked[want.Sum] = want.Score
		tally["ranked"]++
	}
	board := ps.store.Daily(d, 0)
	for _, e := range board {
		if s, ok := ranked[e.Sum]; !ok || s != e.Score {
			t.Errorf("the board holds %s's %d (sum %x), not a game ranked so", e.Name, e.Score, e.Sum)
		}
	}
	if len(board) != len(ranked) || len(ranked) == 0 {
		t.Errorf("the board holds %d games, %d were ranked", len(board), len(ranked))
	}
	t.Logf("100 posts: %v", tally)
}

// TestPostAnswers: what a post is told, counted, practice, posted before
// or refused; and scores prints the boards with the names cleaned.
func TestPostAnswers(t *testing.T) {
	t.Parallel()
	now := time.Now()
	d := daily.DayOf(now)
	ps := startPostServer(t)
	ann := servetest.NewKey(t)
	var games [3][]byte
	var proofs [3]daily.Proof
	for i := range games {
		games[i], _ = dailytest.HandGame(t, d, nil, "ann", uint64(40+i), 2000+1000*i)
		var err error
		if proofs[i], err = daily.Verify(t.Context(), games[i], now, nil); err != nil {
			t.Fatal(err)
		}
	}

	st, out, errs := ps.run(t, "ann", ann, "post", games[0])
	if want := fmt.Sprintf("proven: the daily game of %s, score %d, wave %d, ", d, proofs[0].Score, proofs[0].Wave); st != 0 || !strings.HasPrefix(out, want) ||
		!strings.HasSuffix(out, fmt.Sprintf("\ncounted: #1 of 1 on the board of %s\n", d)) {
		t.Errorf("ann's first game: %d %q %q", st, out, errs)
	}
	st, out, _ = ps.run(t, "annie", ann, "post", games[1])
	if st != 0 || !strings.Contains(out, "\npractice: your game that counts on "+d.String()+" scored ") {
		t.Errorf("ann's second game, as annie: %d %q", st, out)
	}
	st, _, errs = ps.run(t, "eve", nil, "post", games[0])
	if st != 1 || !strings.HasPrefix(errs, "poolroids: refused, posted: this game of "+d.String()+" is kept already: ann's, #1 on the board") {
		t.Errorf("ann's game posted by eve: %d %q", st, errs)
	}
	st, _, errs = ps.run(t, "eve", nil, "post", []byte("PRPL"))
	if st != 1 || !strings.HasPrefix(errs, "poolroids: refused, truncated: ") {
		t.Errorf("four bytes: %d %q", st, errs)
	}
	old, _ := dailytest.HandGame(t, d-2, nil, "old", 1, 600)
	st, _, errs = ps.run(t, "eve", nil, "post", old)
	if st != 1 || !strings.HasPrefix(errs, "poolroids: refused, other-day: the game of "+(d-2).String()) {
		t.Errorf("a game of two days ago: %d %q", st, errs)
	}
	if st, _, _ := ps.run(t, "\x1b]0;PWNED\x07mal", nil, "post", games[2]); st != 0 {
		t.Errorf("mal's game: %d", st)
	}

	st, out, _ = ps.run(t, "eve", nil, "scores", nil)
	lines := strings.Split(out, "\n")
	if st != 0 || len(lines) != 5 || lines[0] != fmt.Sprintf("the daily game of %s, games counted: 2", d) ||
		!strings.HasPrefix(strings.TrimSpace(lines[2]), "1  mal ") || !strings.HasPrefix(strings.TrimSpace(lines[3]), "2  ann ") ||
		!strings.Contains(lines[3], strings.TrimPrefix(ssh.FingerprintSHA256(ann.PublicKey()), "SHA256:")[:8]) || strings.Contains(out, "\x1b") {
		t.Errorf("scores: %d\n%s", st, out)
	}
	if st, out, _ := ps.run(t, "eve", nil, "scores daily "+(d-1).String(), nil); st != 0 || !strings.HasPrefix(out, "the daily game of "+(d-1).String()+", games counted: 0\n") {
		t.Errorf("yesterday's board: %d %q", st, out)
	}
	if _, err := ps.store.Add(scores.Entry{Name: "zed", Score: 5, Wave: 1}); err != nil {
		t.Fatal(err)
	}
	if st, out, _ := ps.run(t, "eve", nil, "scores week", nil); st != 0 || !strings.HasPrefix(out, "high scores, this week: 1\n") || !strings.Contains(out, "zed") {
		t.Errorf("this week's board: %d %q", st, out)
	}
}

// BenchmarkPost posts a 20-minute daily game (dailytest.Assisted) to a
// server on loopback, which proves it: the server's path from the
// connection to the answer, the SSH handshake included. The game is
// ranked by the first post; each later one is proven, then refused as
// posted. Metrics: median-ms, the median post's wall time; cpu-ms, the
// CPU of the process (server and client) a post.
//
//	go test -run '^$' -bench Post -benchtime 20x ./ui/serve/route/
func BenchmarkPost(b *testing.B) {
	d := daily.DayOf(time.Now())
	data := dailytest.Rerecord(b, daily.Config(d, nil), "ann", dailytest.Assisted(b, d, 20*60*60))
	ps := startPostServer(b)
	key := servetest.NewKey(b)
	var times []time.Duration
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if st, _, errs := ps.run(b, "ann", key, "post", data); st != 0 && !strings.Contains(errs, "refused, posted") {
			b.Fatalf("%d %q", st, errs)
		}
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/1000/float64(len(times)), "cpu-ms")
	b.ReportMetric(float64(len(data)), "file-bytes")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
