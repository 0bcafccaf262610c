package ui_test

import (
	"context"
	"flag"
	"fmt"
	"os"
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

func init() {
	// Package ui's own tests may define -update too for their goldens, and
	// a test binary holds both packages: the flag is defined once.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files in testdata")
	}
}

// updating reports whether -update was given.
func updating() bool { return flag.Lookup("update").Value.String() == "true" }

// simScreen is a simulation screen that takes its size on Init, as a
// terminal would.
type simScreen struct {
	tcell.SimulationScreen
	w, h int
}

func (s *simScreen) Init() error {
	err := s.SimulationScreen.Init()
	s.SetSize(s.w, s.h)
	return err
}

// term is a session running on a simulation screen in the test's bubble.
type term struct {
	t    *testing.T
	scr  *simScreen
	done chan struct{}
	err  error
}

// start runs session on a w×h simulation screen of charset until the test
// ends, and lets it draw its first frame. It must be called inside
// synctest.Test.
func start(t *testing.T, charset string, w, h int, session func(context.Context, tcell.Screen) (ui.Result, error)) *term {
	t.Helper()
	tm := &term{t: t, scr: &simScreen{SimulationScreen: tcell.NewSimulationScreen(charset), w: w, h: h}, done: make(chan struct{})}
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

// frame is a screen as text: its characters, one line a row with the
// trailing blanks cut, then its styles the same way, a letter a style,
// then the styles the letters stand for.
type frame struct {
	text, styles, legend string
}

func (f frame) String() string {
	return f.text + "\n-- styles (. is the default) --\n" + f.styles + "\n" + f.legend
}

// varying are the panel's process-wide figures (the heap, the GC and the
// allocations of every goroutine in the test binary): the rest of a row
// after one of these labels, up to the panel's border, shows as ~.
var varying = []string{"proc heap", "proc gc", "proc alloc"}

// styleLetters name a frame's styles in the order they first appear.
const styleLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// frame captures what the screen shows. Every other goroutine of the
// bubble must be blocked: after start, press or wait.
func (tm *term) frame() frame {
	tm.t.Helper()
	cells, w, h := tm.scr.GetContents()
	letters := map[tcell.Style]byte{tcell.StyleDefault: '.'}
	var legend []string
	var text, styles strings.Builder
	row := make([]rune, w)
	look := make([]byte, w)
	for y := range h {
		for x := range w {
			c := cells[y*w+x]
			row[x] = ' '
			if len(c.Runes) > 0 {
				row[x] = c.Runes[0]
			}
			st := visible(row[x], c.Style)
			l, ok := letters[st]
			if !ok {
				if len(legend) == len(styleLetters) {
					tm.t.Fatalf("more than %d styles on the screen", len(styleLetters))
				}
				l = styleLetters[len(legend)]
				letters[st] = l
				legend = append(legend, string(l)+" "+describe(st))
			}
			look[x] = l
		}
		mask(row, look)
		text.WriteString(strings.TrimRight(string(row), " "))
		text.WriteByte('\n')
		styles.WriteString(strings.TrimRight(string(look), "."))
		styles.WriteByte('\n')
	}
	return frame{text.String(), styles.String(), strings.Join(legend, "\n") + "\n"}
}

// visible is the part of st that shows in a cell holding r: a blank's
// foreground and attributes do not show, only its background.
func visible(r rune, st tcell.Style) tcell.Style {
	_, bg, attr := st.Decompose()
	if (r == ' ' || r == '\u2800') && attr&tcell.AttrReverse == 0 && st.GetUnderlineStyle() == tcell.UnderlineStyleNone {
		return tcell.StyleDefault.Background(bg)
	}
	return st
}

// mask hides the varying figures of a row.
func mask(row []rune, look []byte) {
	s := string(row)
	for _, label := range varying {
		i := strings.Index(s, label)
		if i < 0 {
			continue
		}
		x := len([]rune(s[:i])) + len(label)
		for x < len(row) && row[x] == ' ' {
			x++
		}
		for ; x < len(row) && !strings.ContainsRune("│|┃", row[x]); x++ {
			row[x], look[x] = '~', '~'
		}
	}
}

// describe is a style as its colours and attributes.
func describe(st tcell.Style) string {
	fg, bg, attr := st.Decompose()
	s := "fg " + colour(fg) + " bg " + colour(bg)
	for _, a := range []struct {
		mask tcell.AttrMask
		name string
	}{{tcell.AttrBold, "bold"}, {tcell.AttrDim, "dim"}, {tcell.AttrItalic, "italic"}, {tcell.AttrReverse, "reverse"}, {tcell.AttrBlink, "blink"}, {tcell.AttrStrikeThrough, "strike"}} {
		if attr&a.mask != 0 {
			s += " " + a.name
		}
	}
	if st.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		s += " underline"
	}
	return s
}

// colour names c by its RGB value: tcell's colour names are ambiguous
// (aqua and cyan are one colour).
func colour(c tcell.Color) string {
	if !c.Valid() {
		return c.String() // default, none or reset
	}
	return fmt.Sprintf("#%06X", c.Hex())
}

// golden compares f with testdata/golden/<name>.txt, or rewrites that
// file with -update. A mismatch lists the rows that differ.
func golden(t *testing.T, name string, f frame) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	got := f.String()
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run Golden -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the screen differs from %s (go test -run Golden -update rewrites it):\n%s", path, diff(string(want), got))
	}
}

// diff lists the lines of want and got that differ, each named by its
// row in the text or in the styles, or as a line of the legend.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	section, row := "row", 1
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		switch {
		case strings.HasPrefix(gl, "-- styles"):
			section, row = "styles row", 0
		case section == "styles row" && gl == "":
			section, row = "legend line", 0
		}
		if wl != gl {
			fmt.Fprintf(&b, "%s %d\n  want: %s\n  got:  %s\n", section, row, wl, gl)
		}
		row++
	}
	return b.String()
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
				golden(t, fmt.Sprintf("title-demo-%dx%d", size[0], size[1]), tm.frame())
			})
		})
	}
}

func TestGoldenPlay(t *testing.T) {
	for _, size := range [][2]int{{bigW, bigH}, {smallW, smallH}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tm := playing(t, size[0], size[1], ui.Options{})
				golden(t, fmt.Sprintf("play-%dx%d", size[0], size[1]), tm.frame())
			})
		})
	}
}

// TestGoldenDeterministic: the same keys at the same times draw the same
// frame, which the goldens rely on.
func TestGoldenDeterministic(t *testing.T) {
	var frames [2]frame
	for i := range frames {
		synctest.Test(t, func(t *testing.T) {
			frames[i] = playing(t, bigW, bigH, ui.Options{}).frame()
		})
	}
	if frames[0] != frames[1] {
		t.Errorf("two runs drew different frames:\n%s", diff(frames[0].String(), frames[1].String()))
	}
}

// TestGoldenInGame: the screens a player opens from a game in play. The
// panel's form depends on the size: full at 120x40 and compact at 80x24
// to begin with, and v takes it on to the next form.
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
		{"panel-full", [][2]int{small}, []any{"vv"}},
	}
	for _, tt := range tests {
		for _, size := range tt.sizes {
			name := fmt.Sprintf("%s-%dx%d", tt.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					tm := playing(t, size[0], size[1], ui.Options{})
					tm.press(tt.keys...)
					tm.wait(100 * time.Millisecond)
					golden(t, name, tm.frame())
				})
			})
		}
	}
}

// TestGoldenGameOver: a game lost by jumping through hyperspace until no
// ship is left, over a table of earlier high scores.
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
		for end := time.Now().Add(5 * time.Minute); !strings.Contains(tm.frame().text, "GAME OVER"); {
			if time.Now().After(end) {
				t.Fatalf("no game over after 5 minutes of hyperspace:\n%s", tm.frame().text)
			}
			tm.press("h")
			tm.wait(500 * time.Millisecond)
		}
		golden(t, "game-over-120x40", tm.frame())
	})
}

func TestGoldenTooSmall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tm := run(t, tinyW, tinyH, ui.Options{Seed: 7})
		tm.wait(time.Second)
		golden(t, "too-small-60x20", tm.frame())
	})
}

// TestGoldenASCII: a game in play drawn in the ASCII fallback.
func TestGoldenASCII(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tm := playing(t, bigW, bigH, ui.Options{ASCII: true})
		golden(t, "ascii-play-120x40", tm.frame())
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
		golden(t, "watch-solo-120x40", tm.frame())
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
		golden(t, "arena-seat-120x40", tm.frame())
		golden(t, "arena-watch-120x40", watcher.frame())
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
				golden(t, tt.name+"-120x40", tm.frame())
			})
		})
	}
}
