package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/match"
	"poolroids/game/scores"
)

// TestLeaveAsks: in a game q and x ask first, on the field's border; n
// and Esc withdraw the question, q again or y answers it; a game the
// player quits goes on the score table with its replay.
func TestLeaveAsks(t *testing.T) { synctest.Test(t, testLeaveAsks) }

func testLeaveAsks(t *testing.T) {
	store, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := startRun(t, "UTF-8", 120, 40, Options{Seed: 6, Scores: store, Player: "ann"})
	r.key(tcell.KeyRune, ' ')
	r.waitFor("play", func() (ok bool) { return r.s.game().Phase() == match.Play })
	// The autopilot scores, its input recorded as a player's would be.
	var ap game.Autopilot
	r.waitFor("a score", func() (ok bool) {
		for range game.TPS {
			var in game.Input
			r.locked(func(w *game.World) { in = ap.Input(w) })
			r.s.game().Step(in)
		}
		r.locked(func(w *game.World) { ok = w.Score() > 0 })
		return ok
	})
	asked := func(what, question string, want bool) {
		t.Helper()
		r.waitFor(what, func() bool { return strings.Contains(r.text(), question) == want })
	}
	r.key(tcell.KeyRune, 'q')
	asked("q to ask", questions['q'], true)
	r.key(tcell.KeyRune, 'n')
	asked("n to withdraw it", questions['q'], false)
	r.key(tcell.KeyRune, 'x')
	asked("x to ask", questions['x'], true)
	r.key(tcell.KeyEscape, 0)
	asked("Esc to withdraw it", questions['x'], false)
	if r.s.game().Stress() || r.s.game().Phase() != match.Play {
		t.Errorf("after x and Esc: stress %v, phase %v; want the game on", r.s.game().Stress(), r.s.game().Phase())
	}
	var score int
	r.locked(func(w *game.World) { score = w.Score() })
	r.key(tcell.KeyRune, 'q')
	r.key(tcell.KeyRune, 'y')
	r.wait()
	if r.res.Reason != ReasonQuit || r.res.Score < score {
		t.Errorf("Run = %+v, want quit with score %d or more", r.res, score)
	}
	top := store.Top(1)
	if len(top) != 1 || top[0].Name != "ann" || top[0].Score != r.res.Score || top[0].Replay == "" {
		t.Fatalf("the table: %+v; want ann's left game, %d, with its replay", top, r.res.Score)
	}
	if got := playStored(t, store, top[0]).World().Score(); got != top[0].Score {
		t.Errorf("the replay ends at %d, the entry scored %d", got, top[0].Score)
	}
}

// TestQuestionExpires: a solo game's question waits until it is
// answered, however long that takes; an arena's counts its seconds down
// on the border, then says it lapsed, and a q after it asks again.
// Outside a game q acts at once.
func TestQuestionExpires(t *testing.T) {
	d := newDrawn(t, "UTF-8", 100, 30, Options{Seed: 2})
	if !d.s.confirmed('q', 0, d.s.player().inGame(), false) {
		t.Error("q on the title asked")
	}
	d.key(tcell.KeyEnter, 0)
	s := time.Second
	for _, tt := range []struct {
		k    rune
		at   time.Duration
		want bool
	}{
		{'q', 10 * s, false}, {'q', 10*s + time.Minute, true}, // answered a minute on
		{'x', 11 * s, false}, {'q', 11*s + 1, false}, // another key's question
		{'q', 11*s + 2, true},
	} {
		if got := d.s.confirmed(tt.k, tt.at, d.s.player().inGame(), false); got != tt.want {
			t.Errorf("%c at %v: confirmed %v, want %v", tt.k, tt.at, got, tt.want)
		}
	}
	if text := d.s.border.text(time.Hour); text != "" {
		t.Errorf("the border says %q after the answer", text)
	}
	d.s.confirmed('q', 20*s, true, false)
	if text := d.s.border.text(time.Hour); text != questions['q'] {
		t.Errorf("a solo game's question, an hour on: %q", text)
	}

	// An arena's.
	d.s.withdraw()
	q := questions['q'] + utf8Glyphs.sep + onQuestion
	d.s.confirmed('q', 30*s, true, true)
	for _, tt := range []struct {
		at   time.Duration
		want string
	}{
		{30 * s, q + " · 3"}, {31*s - 1, q + " · 3"}, {31 * s, q + " · 2"}, {33*s - 1, q + " · 1"},
		{33 * s, lapsed}, {33*s + expiredFor - 1, lapsed}, {33*s + expiredFor, ""},
	} {
		if got := d.s.border.text(tt.at); got != tt.want {
			t.Errorf("the arena's question at %v: %q, want %q", tt.at, got, tt.want)
		}
	}
	if d.s.confirmed('q', 33*s, true, true) {
		t.Error("a q after the arena's question lapsed quits")
	}
}

// TestQuestionHolds: while q's question waits for its answer a solo game
// waits too, the question in a box over the field, and goes on once it
// is withdrawn; an arena plays on, the player's keys with it, and the
// question says so.
func TestQuestionHolds(t *testing.T) {
	d := newDrawn(t, "UTF-8", 100, 30, Options{Seed: 2})
	d.s.startGame()
	d.key(tcell.KeyRune, 'q')
	if _, ok := d.s.stepInput(); ok {
		t.Error("the solo game steps while q's question waits")
	}
	d.frame()
	if text := d.text(); !strings.Contains(text, "QUIT?") {
		t.Errorf("no box over the field asks the question:\n%s", text)
	}
	d.key(tcell.KeyRune, 'n')
	d.frame()
	if _, ok := d.s.stepInput(); !ok {
		t.Error("the solo game still waits after n")
	}
	if text := d.text(); strings.Contains(text, "QUIT?") {
		t.Errorf("the question's box stays after n:\n%s", text)
	}

	synctest.Test(t, func(t *testing.T) {
		s, _ := arenaSession(t, newHub(t, hub.Config{}), "ann", 100, 30)
		s.onKey(tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone))
		if text := drawArena(s, 100, 30); !strings.Contains(text, questions['q']+utf8Glyphs.sep+onQuestion+utf8Glyphs.sep+"3") {
			t.Errorf("an arena's question does not say it plays on:\n%s", text)
		}
		s.frame() // as the loop does: the game waits, or not, from here
		if s.game().Waiting() {
			t.Error("an arena seat's keys wait while q's question does")
		}
	})
}
