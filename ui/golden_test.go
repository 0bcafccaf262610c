package ui_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/game/replay"
	"poolroids/game/scores"
	"poolroids/levels"
	"poolroids/pool"
	"poolroids/ui"
	"poolroids/ui/internal/golden"
)

// The golden tests play whole sessions through the package's public API
// (Run, Watch, RunReplay) on a simulation screen inside a synctest bubble,
// and compare frames they draw with the files in testdata/golden. Fake
// time makes a session deterministic: the world steps at 60 Hz and the
// frame clock ticks on the bubble's clock, so a frame taken after the same
// keys and the same time is the same frame, whatever the machine's load.
// go test -run Golden -update rewrites the files; read the ones that
// changed before committing them. A change to when the clocks start may
// shift a moving world by a step or two: the same screen, redrawn.
//
// A simulation screen has no tty, so ui draws it through tcell rather
// than package vt, which drives real terminals: the goldens check what is
// drawn, not the bytes that reach a terminal.

// term is a session running on a simulation screen in the test's bubble.
type term struct {
	t    *testing.T
	scr  *golden.Screen
	done chan struct{}
	err  error
}

// start runs session on a w×h simulation screen of charset until the test
// ends, and lets it draw its first frame. It must be called inside
// synctest.Test.
func start(t *testing.T, charset string, w, h int, session func(context.Context, tcell.Screen) (ui.Result, error)) *term {
	t.Helper()
	tm := &term{t: t, scr: golden.NewScreen(charset, w, h), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		defer close(tm.done)
		_, tm.err = session(ctx, tm.scr)
	}()
	t.Cleanup(func() {
		cancel()
		<-tm.done
		if tm.err != nil {
			t.Errorf("the session ended with %v", tm.err)
		}
	})
	synctest.Wait()
	return tm
}

// run starts [ui.Run] with opts (see start).
func run(t *testing.T, w, h int, opts ui.Options) *term {
	t.Helper()
	return start(t, "UTF-8", w, h, func(ctx context.Context, scr tcell.Screen) (ui.Result, error) {
		return ui.Run(ctx, scr, opts)
	})
}

// press types keys, each taken in before the next: a string's runes, or a
// tcell.Key.
func (tm *term) press(keys ...any) {
	tm.t.Helper()
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			for _, r := range k {
				tm.scr.InjectKey(tcell.KeyRune, r, tcell.ModNone)
				synctest.Wait()
			}
		case tcell.Key:
			tm.scr.InjectKey(k, 0, tcell.ModNone)
			synctest.Wait()
		default:
			tm.t.Fatalf("press %v: not a key", k)
		}
	}
}

// wait lets d pass on the bubble's clock, and the session settle.
func (tm *term) wait(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// frame captures what the screen shows. Every other goroutine of the
// bubble must be blocked: after start, press or wait.
func (tm *term) frame() golden.Frame {
	tm.t.Helper()
	return golden.Capture(tm.t, tm.scr)
}

// The sizes of the goldens: a roomy terminal, the smallest the game is
// laid out for, and one too small for it.
const (
	bigW, bigH     = 120, 40
	smallW, smallH = 80, 24
	tinyW, tinyH   = 60, 20
)

// playing is a solo game of seed 7 on a w×h screen, started with space,
// its ship turned and firing for a second.
func playing(t *testing.T, w, h int, opts ui.Options) *term {
	t.Helper()
	opts.Seed = 7
	tm := run(t, w, h, opts)
	tm.wait(time.Second)
	tm.press(" ")
	tm.wait(500 * time.Millisecond)
	tm.press("aaa", " ")
	tm.wait(300 * time.Millisecond)
	tm.press("d", " ", "w")
	tm.wait(time.Second)
	return tm
}

func TestGoldenTitle(t *testing.T) {
	for _, size := range [][2]int{{bigW, bigH}, {smallW, smallH}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tm := run(t, size[0], size[1], ui.Options{Seed: 7})
				tm.wait(3 * time.Second) // the autopilot's demo moves on
				golden.Check(t, fmt.Sprintf("title-demo-%dx%d", size[0], size[1]), tm.frame())
			})
		})
	}
}

func TestGoldenPlay(t *testing.T) {
	for _, size := range [][2]int{{bigW, bigH}, {smallW, smallH}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tm := playing(t, size[0], size[1], ui.Options{})
				golden.Check(t, fmt.Sprintf("play-%dx%d", size[0], size[1]), tm.frame())
			})
		})
	}
}

// TestGoldenDeterministic: the same keys at the same times draw the same
// frame, which the goldens rely on.
func TestGoldenDeterministic(t *testing.T) {
	var frames [2]golden.Frame
	for i := range frames {
		synctest.Test(t, func(t *testing.T) {
			frames[i] = playing(t, bigW, bigH, ui.Options{}).frame()
		})
	}
	if frames[0] != frames[1] {
		t.Errorf("two runs drew different frames:\n%s", golden.Diff(frames[0].String(), frames[1].String()))
	}
}

// TestGoldenInGame: the screens a player opens from a game in play. The
// panel's form depends on the size: full at 120x40 and compact at 80x24
// to begin with, and v takes it on to the next form, but for one that
// would shrink the field: at 80x24 v twice is back to the compact panel
// (panel-back), and Tab shows the list under it (strategy-list).
func TestGoldenInGame(t *testing.T) {
	big, small := [2]int{bigW, bigH}, [2]int{smallW, smallH}
	tests := []struct {
		name  string
		sizes [][2]int
		keys  []any
	}{
		{"help", [][2]int{big, small}, []any{"?"}},
		{"paused", [][2]int{big, small}, []any{"p"}},
		{"quit-question", [][2]int{big, small}, []any{"q"}},
		{"strategy-3", [][2]int{big, small}, []any{"3"}},
		{"strategy-list", [][2]int{big, small}, []any{tcell.KeyTab, tcell.KeyDown}},
		{"panel-compact", [][2]int{big}, []any{"v"}},
		{"panel-hidden", [][2]int{big}, []any{"vv"}},
		{"panel-hidden", [][2]int{small}, []any{"v"}},
		{"panel-back", [][2]int{small}, []any{"vv"}},
	}
	for _, tt := range tests {
		for _, size := range tt.sizes {
			name := fmt.Sprintf("%s-%dx%d", tt.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					tm := playing(t, size[0], size[1], ui.Options{})
					tm.press(tt.keys...)
					tm.wait(100 * time.Millisecond)
					golden.Check(t, name, tm.frame())
				})
			})
		}
	}
}

// TestGoldenGameOver: a game lost by jumping through hyperspace until no
// ship is left, over a table of earlier high scores. The screen stays at
// least three seconds: space, tapped on in its first two as fire was,
// does nothing; pressed later it starts the next game as the three
// seconds are over.
func TestGoldenGameOver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		table, err := scores.Open(filepath.Join(t.TempDir(), "scores.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []scores.Entry{
			{Name: "ann", Score: 1200, Wave: 3, Strategy: "freelist"},
			{Name: "bob", Score: 640, Wave: 2, Strategy: "bitset"},
			{Name: "cat", Score: 90, Wave: 1, Arena: "den"},
		} {
			e.When = time.Now()
			if _, err := table.Add(e); err != nil {
				t.Fatal(err)
			}
		}
		tm := run(t, bigW, bigH, ui.Options{Seed: 7, Scores: table, Player: "dan", FPS: 5})
		tm.press(" ")
		for end := time.Now().Add(5 * time.Minute); !strings.Contains(tm.frame().Text, "GAME OVER"); {
			if time.Now().After(end) {
				t.Fatalf("no game over after 5 minutes of hyperspace:\n%s", tm.frame().Text)
			}
			tm.press("h")
			tm.wait(50 * time.Millisecond)
		}
		// It ended at most a frame (200 ms) and a wait ago.
		golden.Check(t, "game-over-120x40", tm.frame())
		over := func(when string, want bool) {
			t.Helper()
			if got := strings.Contains(tm.frame().Text, "GAME OVER"); got != want {
				t.Errorf("%s: GAME OVER shows %v, want %v", when, got, want)
			}
		}
		for range 12 {
			tm.press(" ")
			tm.wait(150 * time.Millisecond)
		}
		over("after space tapped in the first two seconds", true)
		tm.wait(450 * time.Millisecond)
		tm.press(" ") // 2.25 to 2.5 s in
		tm.wait(400 * time.Millisecond)
		over("2.65 s in, space pressed 2.25 s in", true)
		tm.wait(600 * time.Millisecond)
		over("3.25 s in, space pressed 2.25 s in", false)
	})
}

func TestGoldenTooSmall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tm := run(t, tinyW, tinyH, ui.Options{Seed: 7})
		tm.wait(time.Second)
		golden.Check(t, "too-small-60x20", tm.frame())
	})
}

// TestGoldenASCII: a game in play drawn in the ASCII fallback.
func TestGoldenASCII(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tm := playing(t, bigW, bigH, ui.Options{ASCII: true})
		golden.Check(t, "ascii-play-120x40", tm.frame())
	})
}

// TestGoldenWatchSolo: a watcher of ann's game in play.
func TestGoldenWatchSolo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		live, err := play.NewLive(nil, play.LiveConfig{})
		if err != nil {
			t.Fatal(err)
		}
		playing(t, bigW, bigH, ui.Options{Live: live, Name: "ann"})
		w, err := live.Watch("ann")
		if err != nil {
			t.Fatal(err)
		}
		tm := start(t, "UTF-8", bigW, bigH, func(ctx context.Context, scr tcell.Screen) (ui.Result, error) {
			return ui.Watch(ctx, scr, w, ui.Options{})
		})
		tm.wait(time.Second)
		golden.Check(t, "watch-solo-120x40", tm.frame())
	})
}

// arena opens the arena den of four ships on a hub closed after the test,
// seats ann, and bob under the autopilot, and offers it to watchers.
func arena(t *testing.T) (ann *hub.Seat, live *play.Live) {
	t.Helper()
	h, err := hub.New(hub.Config{Size: 4, Game: game.Config{Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	if live, err = play.NewLive(h, play.LiveConfig{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ann", "bob"} {
		seat, err := h.Join(hub.Request{Arena: "den", Player: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(seat.Leave)
		if name == "ann" {
			ann = seat
		} else {
			seat.SetAutopilot(true)
		}
	}
	return ann, live
}

// TestGoldenArena: ann's seat in an arena, turning and firing beside bob's
// autopilot, and a watcher of that arena.
func TestGoldenArena(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		seat, live := arena(t)
		tm := run(t, bigW, bigH, ui.Options{Arena: seat})
		w, err := live.Watch("den")
		if err != nil {
			t.Fatal(err)
		}
		watcher := start(t, "UTF-8", bigW, bigH, func(ctx context.Context, scr tcell.Screen) (ui.Result, error) {
			return ui.Watch(ctx, scr, w, ui.Options{})
		})
		tm.wait(time.Second)
		tm.press("aaa", " ")
		tm.wait(300 * time.Millisecond)
		tm.press("d", " ", "w")
		tm.wait(time.Second)
		golden.Check(t, "arena-seat-120x40", tm.frame())
		golden.Check(t, "arena-watch-120x40", watcher.frame())
	})
}

// recording is thirty seconds of the autopilot's solo game of seed 7 on
// the shipped levels, which switches both pools to bitset five seconds in.
func recording(t *testing.T) []byte {
	t.Helper()
	rec, err := replay.NewRecorder(game.Config{Levels: levels.Default(), Seed: 7, Ships: 1}, replay.Options{Players: []string{"ann"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := replay.Autoplay(t.Context(), rec, 5*game.TPS, false); err != nil {
		t.Fatal(err)
	}
	if err := rec.SetStrategies(pool.Bitset, pool.Bitset); err != nil {
		t.Fatal(err)
	}
	if err := replay.Autoplay(t.Context(), rec, 25*game.TPS, false); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return rec.Bytes()
}

// TestGoldenReplay: a replay paused, played at ×2, and after a seek ten
// seconds on.
func TestGoldenReplay(t *testing.T) {
	data := recording(t)
	tests := []struct {
		name string
		keys []any
	}{
		{"replay-paused", []any{" "}},
		{"replay-x2", []any{"+"}},
		{"replay-seek", []any{tcell.KeyRight}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tm := start(t, "UTF-8", bigW, bigH, func(ctx context.Context, scr tcell.Screen) (ui.Result, error) {
					return ui.RunReplay(ctx, scr, data, ui.Options{})
				})
				tm.wait(2 * time.Second)
				tm.press(tt.keys...)
				tm.wait(time.Second)
				golden.Check(t, tt.name+"-120x40", tm.frame())
			})
		})
	}
}
