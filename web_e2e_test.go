package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/replay"
	"poolroids/game/replay/replaytest"
	"poolroids/game/scores"
	"poolroids/ui/web"
	"poolroids/ui/web/webtest"
)

// startWeb runs bin serve with -web on a free port, and returns the
// server and the page's URL.
func startWeb(t *testing.T, bin, dir string, args ...string) (*serverProc, string) {
	t.Helper()
	addr := freeAddr(t)
	srv := startServe(t, bin, dir, append([]string{"--web", addr}, args...)...)
	srv.waitLog(t, "listening for browsers")
	return srv, "http://" + addr
}

// shoot saves a screenshot of tab as name under $POOLROIDS_SCREENSHOTS,
// when it is set.
func shoot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	dir := os.Getenv("POOLROIDS_SCREENSHOTS")
	if dir == "" {
		return
	}
	shot := webtest.Run(t, tab, "a screenshot", chromedp.CaptureScreenshot())
	if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWebInBrowser plays the built server's page in headless Chromium:
// the lobby, a name given in the page, a solo game played with keys held
// down and let go, a strategy switched from the page; the metrics count
// the web session; SIGTERM's drain tells the page, then ends it.
func TestWebInBrowser(t *testing.T) {
	tab := webtest.Browser(t)
	bin := buildBinary(t)
	metrics := freeAddr(t)
	srv, url := startWeb(t, bin, t.TempDir(), "--metrics", metrics, "--drain", "2s")

	webtest.Open(t, tab, url+"/")
	webtest.WaitText(t, tab, "the lobby", func(s string) bool { return strings.Contains(s, "Play solo") && strings.Contains(s, "ARENAS") })
	shoot(t, tab, "web-lobby.png")

	webtest.Run(t, tab, "naming", chromedp.Steps(
		chromedp.Click(chromedp.ID("name")),
		chromedp.KeyEvent("zoe"),
		chromedp.KeyEvent("\r"),
	))
	webtest.WaitText(t, tab, "the new name", func(s string) bool { return strings.Contains(s, "you play as zoe") })

	webtest.Run(t, tab, "playing solo", webtest.Tap("Enter"))
	webtest.WaitText(t, tab, "the title screen", func(s string) bool {
		return strings.Contains(s, "P O O L R O I D S") && panelRow(s, "capacity") != nil
	})
	webtest.Run(t, tab, "starting", webtest.Tap(" "))
	webtest.WaitText(t, tab, "a game in play", func(s string) bool {
		return strings.Contains(s, "held keys") && !strings.Contains(s, "P O O L R O I D S")
	})

	// ← held down turns the ship, its nose's cell (in reverse video)
	// going round, for as long as it is held; let go, it stops.
	nose := func() string {
		g := webtest.Read(t, tab)
		for i, a := range g.Attr {
			if x, y := i%g.W, i/g.W; web.Attr(a)&web.Reverse != 0 && x < g.W*2/3 && y > 0 && y < g.H-3 {
				return fmt.Sprint(x, ",", y)
			}
		}
		return ""
	}
	webtest.Run(t, tab, "holding ←", webtest.Key("ArrowLeft", true, false))
	seen := map[string]bool{}
	if !eventually(10*time.Second, func() bool { seen[nose()] = true; return len(seen) >= 4 }) {
		t.Fatalf("holding ←, the ship's nose was at %v only", seen)
	}
	webtest.Run(t, tab, "letting go of ←", webtest.Key("ArrowLeft", false, false))
	// Within a tap's steps of the release (the page's message may take
	// longer on a loaded machine), the nose stops where it is.
	still, same := nose(), 0
	if !eventually(5*time.Second, func() bool {
		at := nose()
		if at == still {
			same++
		} else {
			still, same = at, 0
		}
		return same >= 5
	}) {
		t.Fatal("the ship never stopped turning after ← was let go")
	}
	for range 10 {
		if at := nose(); at != still {
			t.Fatalf("the ship turned on after ← was let go: its nose from %s to %s", still, at)
		}
		time.Sleep(50 * time.Millisecond)
	}

	webtest.Run(t, tab, "switching the strategy", webtest.Tap("3"))
	webtest.WaitText(t, tab, "the panel to name listremove", func(s string) bool {
		row := panelRow(s, "strategy")
		return len(row) == 2 && row[0] == "listremove" && row[1] == "listremove"
	})
	shoot(t, tab, "web-game.png")
	srv.waitLog(t, "msg=\"game start\"", "web=true", "path=/")
	resp, err := http.Get("http://" + metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"\npoolroids_web_sessions 1\n", "\npoolroids_sessions 1\n"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the metrics have no %q", strings.TrimSpace(want))
		}
	}

	// SIGTERM drains the server: the page is told how long it has, then
	// that the server is shutting down, and the server exits 0.
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	webtest.WaitText(t, tab, "the drain's notice", func(s string) bool { return strings.Contains(s, "server stopping in ") })
	bye := webtest.Run(t, tab, "the goodbye", chromedp.Poll[string](`!document.getElementById('notice').hidden && document.getElementById('notice-text').textContent`))
	if bye != "the server is shutting down" {
		t.Errorf("the page was told %q, want the server is shutting down", bye)
	}
	if !eventually(8*time.Second, func() bool { return closed(srv.done) }) || srv.err != nil {
		t.Errorf("the server did not exit 0 after the drain: %v", srv.err)
	}
}

// named loads the page in tab as name: the name the page says hello
// with, kept in the browser's storage (shared by its tabs: the hello
// reads it as the page loads).
func named(t *testing.T, tab context.Context, url, path, name string) {
	t.Helper()
	webtest.Run(t, tab, "naming "+name, chromedp.Steps(
		chromedp.Navigate(url+"/page.css"), // the origin's, without a session
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`localStorage.setItem('poolroids.name', %q)`, name)),
	))
	webtest.Open(t, tab, url+path)
}

// fieldRows returns the playfield's rows of a screen's text, inside its
// borders (the field's left border to the panel's, ││), but those of its
// overlay's box, whose text, and so width, a player's and a watcher's
// differ in: the rows from the one above its first line of text to the
// one below its last.
func fieldRows(screen string) []string {
	var rows []string
	lo, hi := -1, -1
	for _, line := range strings.Split(screen, "\n") {
		if !strings.HasPrefix(line, "│") {
			continue
		}
		if i := strings.Index(line, "││"); i > 0 {
			if strings.ContainsAny(line[:i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
				if lo < 0 {
					lo = len(rows)
				}
				hi = len(rows)
			}
			rows = append(rows, line[len("│"):i])
		}
	}
	if lo < 0 {
		return rows
	}
	return append(rows[:max(lo-1, 0)], rows[min(hi+2, len(rows)):]...)
}

// TestWebWithSSH plays the page beside an OpenSSH client in tmux: a
// browser watches the SSH player's paused game and draws its field cell
// for cell as the player's terminal does; then the SSH player and two
// browsers play one arena, each seeing the others.
func TestWebWithSSH(t *testing.T) {
	sshPath := lookSSH(t)
	s := newTmux(t)
	tab := webtest.Browser(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	key, _ := writeClientKey(t, dir)
	srv, url := startWeb(t, bin, dir)
	knownHosts := filepath.Join(dir, "known_hosts")
	writeKnownHosts(t, knownHosts, srv)
	sshCmd := func(cmd string) string {
		return fmt.Sprintf("%s -t -F /dev/null -p %d -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s "+
			"-o LogLevel=ERROR -o IdentitiesOnly=yes -i %s -l sshy 127.0.0.1 %s; echo exit=$?", sshPath, srv.port, knownHosts, key, cmd)
	}

	// The terminal at the page's size, so that both lay the game out alike.
	named(t, tab, url, "/", "web")
	st := webtest.Run(t, tab, "the page's size", chromedp.Evaluate[struct{ Cols, Rows int }](`poolroids.state()`))
	if out, err := s.run("resize-window", "-t", "e2e", "-x", fmt.Sprint(st.Cols), "-y", fmt.Sprint(st.Rows)); err != nil {
		t.Fatalf("tmux resize-window: %v\n%s", err, out)
	}
	s.send("clear; "+sshCmd(""), "Enter")
	s.waitFor("the lobby", func(p string) bool { return strings.Contains(p, "Play solo") }, nil)
	s.send("Enter")
	s.waitFor("the title screen", func(p string) bool { return strings.Contains(p, "P O O L R O I D S") }, nil)
	s.send("Space")
	s.waitFor("a game in play", func(p string) bool { return !strings.Contains(p, "P O O L R O I D S") }, nil)
	s.waitFor("the ship's keys", func(p string) bool { return strings.Contains(p, "hyperspace") }, nil)
	s.send("p")
	// The paused field, once two captures agree: a capture may come as a
	// frame is half written.
	var field string
	s.waitFor("the game paused", func(p string) bool {
		f := strings.Join(fieldRows(p), "\n")
		still := strings.Contains(p, "PAUSED") && f == field
		field = f
		return still
	}, nil)
	webtest.Open(t, tab, url+"/watch/sshy")
	want := strings.Split(field, "\n")
	defer func() {
		if t.Failed() {
			t.Logf("the terminal now:\n%s", s.capture())
		}
	}()
	var got []string
	webtest.WaitText(t, tab, "the SSH player's field, as their terminal shows it", func(s string) bool {
		got = fieldRows(s)
		return strings.Contains(s, "sshy's game") && strings.Join(got, "\n") == strings.Join(want, "\n")
	})
	if len(want) < 20 || !strings.ContainsAny(strings.Join(want, ""), "⠁⠂⠄⡀⠈⠐⠠⢀") {
		t.Errorf("the field compared is too small or holds no dots:\n%s", strings.Join(want, "\n"))
	}
	shoot(t, tab, "web-watch.png")

	// One arena: the SSH player and two browsers.
	s.send("q")
	s.send("y")
	s.waitFor("the lobby again", func(p string) bool { return strings.Contains(p, "Play solo") }, nil)
	s.send("q")
	s.waitFor("ssh to exit", func(p string) bool { return strings.Contains(p, "exit=0") }, nil)
	s.send("clear; "+sshCmd("join den"), "Enter")
	s.waitFor("sshy in the arena", func(p string) bool { return strings.Contains(p, "arena den") }, nil)
	named(t, tab, url, "/join/den", "ann")
	tab2 := webtest.Tab(t, tab)
	named(t, tab2, url, "/join/den", "bob")
	s.waitFor("the browsers' players on the terminal", func(p string) bool { return strings.Contains(p, "ann") && strings.Contains(p, "bob") }, nil)
	for _, tb := range []context.Context{tab, tab2} {
		webtest.WaitText(t, tb, "the arena's three players", func(s string) bool {
			return strings.Contains(s, "arena den") && strings.Contains(s, "sshy") && strings.Contains(s, "ann") && strings.Contains(s, "bob")
		})
	}
	srv.waitLog(t, "msg=\"game start\"", "web=true", "user=bob", "path=/join/den")
}

// TestWebScores serves the boards at /scores, where a game's replay is
// downloaded as it was kept and played in the page.
func TestWebScores(t *testing.T) {
	tab := webtest.Browser(t)
	bin := buildBinary(t)
	dir := t.TempDir()
	store, err := scores.Open(filepath.Join(dir, "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	annGame := replaytest.Record(t, game.Config{Seed: 12}, replay.Options{Players: []string{"ann"}}, 20*game.TPS)
	if _, err := store.AddReplay(scores.Entry{Name: "ann", Score: 4321, Wave: 2, Strategy: "freelist"}, annGame); err != nil {
		t.Fatal(err)
	}
	kept := store.Top(1)[0].Replay
	// A daily game of today's, on the daily board with its replay.
	day := daily.DayOf(time.Now())
	dailyGame, _ := dailytest.HandGame(t, day, nil, "bea", 5, 30*game.TPS)
	proof, err := daily.Verify(context.Background(), dailyGame, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.AddDaily("bea", proof, dailyGame); err != nil {
		t.Fatal(err)
	}
	keptDaily := store.Daily(day, 1)[0].Replay
	store.Close()
	_, url := startWeb(t, bin, dir)

	webtest.Run(t, tab, "the boards", chromedp.Steps(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(url+"/scores")))
	text := webtest.Run(t, tab, "the boards' text", chromedp.Evaluate[string](`document.body.innerText`))
	for _, want := range []string{"HIGH SCORES", "WEEK", "TODAY", "DAILY", "ann", "4321", "download"} {
		if !strings.Contains(text, want) {
			t.Errorf("the scores page has no %q:\n%s", want, text)
		}
	}
	shoot(t, tab, "web-scores.png")

	resp, err := http.Get(url + "/replays/" + kept)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(got, annGame) {
		t.Errorf("GET /replays/%s: %d, %d bytes, want 200 and the %d bytes kept", kept, resp.StatusCode, len(got), len(annGame))
	}
	resp, err = http.Get(url + "/replays/" + keptDaily)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(got, dailyGame) {
		t.Errorf("GET /replays/%s, today's daily game: %d, %d bytes, want 200 and the %d bytes kept", keptDaily, resp.StatusCode, len(got), len(dailyGame))
	}
	if !strings.Contains(text, "bea") {
		t.Errorf("the daily board does not list bea's game:\n%s", text)
	}
	for _, bad := range []string{"../scores.json", "x.prpl"} {
		if resp, err := http.Get(url + "/replays/" + bad); err != nil || resp.StatusCode != 404 {
			t.Errorf("GET /replays/%s: %v %v, want 404", bad, resp.Status, err)
		}
	}

	play := webtest.Run(t, tab, "the replay's link", chromedp.Evaluate[string](`document.querySelector('a[href^="/replay/"]').getAttribute('href')`))
	if play != "/replay/"+kept {
		t.Errorf("the replay's link is %q, want /replay/%s", play, kept)
	}
	webtest.Open(t, tab, url+play)
	webtest.WaitText(t, tab, "the replay playing", func(s string) bool { return strings.Contains(s, "PLAYING") && strings.Contains(s, "/ 00:20") })
}
