package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"poolroids/game"
	"poolroids/game/input"
	"poolroids/game/match"
	"poolroids/game/play"
	"poolroids/game/scores"
	"poolroids/levels"
	"poolroids/pool"
	"poolroids/ui/internal/golden"
)

// screenText is the simulation screen's text, one line a row, trailing
// blanks cut.
func screenText(scr tcell.SimulationScreen) string {
	cells, w, h := scr.GetContents()
	var b strings.Builder
	for y := range h {
		var line strings.Builder
		for x := range w {
			r := ' '
			if c := cells[y*w+x]; len(c.Runes) > 0 {
				r = c.Runes[0]
			}
			line.WriteRune(r)
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// looksLike checks the frame scr last showed against the golden file
// testdata/golden/<name>.txt (see package golden; -update rewrites it).
func looksLike(t *testing.T, scr tcell.SimulationScreen, name string) {
	t.Helper()
	golden.Check(t, name, golden.Capture(t, scr))
}

// newSim is an initialised simulation screen of w×h cells.
func newSim(t testing.TB, charset string, w, h int) tcell.SimulationScreen {
	t.Helper()
	scr := tcell.NewSimulationScreen(charset)
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	scr.SetSize(w, h)
	t.Cleanup(scr.Fini)
	return scr
}

// testLevels is the level set of the tests (testdata/levels).
func testLevels(t testing.TB) *levels.Set {
	t.Helper()
	set, err := levels.LoadDir(filepath.Join("testdata", "levels"))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// busyWorld steps a session's world under the pressure autopilot until
// bullets and debris fly: the same world every time.
func busyWorld(t testing.TB, s *session, steps int) {
	t.Helper()
	ap := game.Autopilot{Pressure: true}
	for range steps {
		s.world().Step(ap.Input(s.world()))
	}
	if s.world().Bullets().Len() == 0 || s.world().Debris().Len() == 0 {
		t.Fatalf("after %d steps: %d bullets, %d debris; want some of each", steps, s.world().Bullets().Len(), s.world().Debris().Len())
	}
}

func TestArena(t *testing.T) {
	tests := []struct {
		name    string
		charset string
		ascii   bool
	}{
		{"braille", "UTF-8", false},
		{"ascii", "UTF-8", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scr := newSim(t, tt.charset, 90, 34)
			s, err := newPlayerSession(ownTerminal(scr, nil), Options{Levels: testLevels(t), Seed: 7, Stress: true})
			if err != nil {
				t.Fatal(err)
			}
			s.ascii = tt.ascii
			busyWorld(t, s, 150)
			s.arena.SetRect(0, 0, 90, 34)
			s.handWidgets(scr)
			s.arena.Draw(scr)
			scr.Show()
			looksLike(t, scr, "arena-"+tt.name+"-90x34")
			text := screenText(scr)
			if got := strings.ContainsFunc(text, isBraille); got == tt.ascii {
				t.Errorf("braille shown: %v, want %v", got, !tt.ascii)
			}
		})
	}
}

func isBraille(r rune) bool { return r > 0x2800 && r <= 0x28ff }

func TestFieldSize(t *testing.T) {
	tests := []struct{ w, h, fw, fh int }{
		{86, 38, 86, 32},  // limited by the width
		{200, 30, 88, 30}, // limited by the height: 80 columns widened by a tenth
		{60, 21, 60, 21},  // 80×24 with the compact panel: 56 widened to fill the width
		{1, 1, 0, 0},
	}
	for _, tt := range tests {
		fw, fh := fieldSize(tt.w, tt.h)
		if fw != tt.fw || fh != tt.fh {
			t.Errorf("fieldSize(%d, %d) = %d, %d; want %d, %d", tt.w, tt.h, fw, fh, tt.fw, tt.fh)
		}
	}
}

// TestPanelShowsPoolNumbers: the panel's rows show each pool's figures,
// and every row shows (panel-busy at the panel's size).
func TestPanelShowsPoolNumbers(t *testing.T) { synctest.Test(t, testPanelShowsPoolNumbers) }

func testPanelShowsPoolNumbers(t *testing.T) {
	scr := newSim(t, "UTF-8", panelWidth, panelHeight)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 3, Strategy: pool.Bitset, Bullets: 123, Debris: 4567})
	if err != nil {
		t.Fatal(err)
	}
	busyWorld(t, s, 300)
	s.sampleAt(time.Second)
	s.panel.SetRect(0, 0, panelWidth, panelHeight)
	s.handWidgets(scr)
	s.panel.Draw(scr)
	scr.Show()
	text := screenText(scr)
	b, d := s.world().Bullets().Stats(), s.world().Debris().Stats()
	if s.world().OverShare() == 0 {
		t.Fatal("the busy world refused no shot over its ship's share")
	}
	rows := []struct{ label, want string }{
		{"strategy", "bitset bitset"},
		{"capacity", "123 4567"},
		{"active", itoa(b.Active) + " " + itoa(d.Active)},
		{"free", itoa(b.Capacity-b.Active) + " " + itoa(d.Capacity-d.Active)},
		{"high-water", itoa(b.HighWater) + " " + itoa(d.HighWater)},
		{"misses", itoa(int(b.Misses+s.world().OverShare())) + " " + itoa(int(d.Misses))}, // with the shots over the ship's share
		{"rejects", "0 0"},
		{"input", "press-only"},
	}
	for _, r := range rows {
		line := findLine(text, r.label)
		if got := strings.Join(strings.Fields(line)[1:], " "); !strings.HasPrefix(got, r.want) {
			t.Errorf("row %q = %q, want %q\n%s", r.label, got, r.want, text)
		}
	}
	looksLike(t, scr, fmt.Sprintf("panel-busy-%dx%d", panelWidth, panelHeight))
	// The golden masks the process-wide rows, whose figures vary: their
	// labels are checked here.
	for _, want := range []string{"last pause", "per frame"} {
		if !strings.Contains(text, want) {
			t.Errorf("panel lacks %q:\n%s", want, text)
		}
	}
}

// TestPanelAllocsPerSecond checks the allocs/s row against the pools'
// own counts: alloc takes an item from the heap for every acquire, a
// pooled strategy never does.
func TestPanelAllocsPerSecond(t *testing.T) {
	scr := newSim(t, "UTF-8", panelWidth, panelHeight)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 3, Strategy: pool.Alloc})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.world().Debris().SetStrategy(pool.FreeList); err != nil {
		t.Fatal(err)
	}
	s.sampleAt(0)
	busyWorld(t, s, 300)
	s.sampleAt(2 * time.Second)
	s.panel.SetRect(0, 0, panelWidth, panelHeight)
	s.handWidgets(scr)
	s.panel.Draw(scr)
	scr.Show()
	text := screenText(scr)
	b := s.world().Bullets().Stats()
	if b.Allocs == 0 || b.Allocs != b.Acquires {
		t.Fatalf("alloc bullets: %d allocs for %d acquires, want one each", b.Allocs, b.Acquires)
	}
	want := string(appendFloatRight(nil, float64(b.Allocs)/2, 0, 0)) + " 0"
	if got := strings.Join(strings.Fields(findLine(text, "allocs/s"))[1:], " "); got != want {
		t.Errorf("allocs/s row = %q, want %q\n%s", got, want, text)
	}
}

func itoa(v int) string { return string(appendIntRight(nil, int64(v), 0)) }

// findLine returns the line of text that holds label after the border.
func findLine(text, label string) string {
	for _, l := range strings.Split(text, "\n") {
		l = strings.Trim(l, "│ ")
		if strings.HasPrefix(l, label) {
			return l
		}
	}
	return ""
}

// running is a Run in progress on a simulation screen.
type running struct {
	t      *testing.T
	s      *session
	scr    *golden.Screen
	cancel context.CancelFunc
	done   chan struct{}
	res    Result
	err    error
}

// startRun runs a session on a simulation screen of w×h cells until the
// test ends. Inside synctest.Test, as most of its callers are, the
// session's loops, tview's and the waits below run on the fake clock.
func startRun(t *testing.T, charset string, w, h int, opts Options) *running {
	t.Helper()
	scr := golden.NewScreen(charset, w, h)
	s, err := newPlayerSession(ownTerminal(scr, nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	return startSession(t, scr, s)
}

// startSession runs s, made on scr, as startRun does.
func startSession(t *testing.T, scr *golden.Screen, s *session) *running {
	t.Helper()
	r := connected(t, scr, s)
	r.waitFor("the first frame", func() bool { return scr.Shows() > 0 }) // the screen started
	r.waitFor("the first frame", func() bool { return strings.TrimSpace(r.text()) != "" })
	return r
}

// onLoop runs f on the loop's goroutine, where nothing draws meanwhile.
func (r *running) onLoop(f func()) {
	ok := make(chan struct{})
	go func() {
		run := tcell.NewEventInterrupt(func() { f(); close(ok) })
		for r.scr.PostEvent(run) != nil { // the queue is full
			select {
			case <-r.done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	select {
	case <-ok:
	case <-r.done:
		r.t.Fatal("Run ended")
	case <-time.After(5 * time.Second):
		r.t.Fatal("event loop stuck")
	}
}

func (r *running) text() (s string) {
	r.onLoop(func() { s = screenText(r.scr) })
	return s
}

// looksLike checks the frame on the screen, taken on the loop's
// goroutine, against the golden file name.
func (r *running) looksLike(name string) {
	r.t.Helper()
	var f golden.Frame
	r.onLoop(func() { f = golden.Capture(r.t, r.scr) })
	golden.Check(r.t, name, f)
}

// locked runs f with the world under its game's lock: it does not step
// meanwhile.
func (r *running) locked(f func(w *game.World)) { r.s.game().View(func(v play.View) { f(v.World) }) }

func (r *running) key(k tcell.Key, ch rune) { r.scr.InjectKey(k, ch, tcell.ModNone) }

func (r *running) waitFor(what string, cond func() bool) {
	r.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			screen := "(not a simulation)"
			if r.scr != nil {
				screen = r.text()
			}
			r.t.Fatalf("timed out waiting for %s; screen:\n%s", what, screen)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (r *running) wait() {
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
		r.t.Fatal("Run did not return")
	}
}

// TestKeys plays the keys one after the other in one game, on the
// bubble's clock.
func TestKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startRun(t, "UTF-8", 120, 40, Options{Seed: 11, Strategy: pool.FreeList})
		if !strings.Contains(r.text(), "press space to play") {
			t.Fatalf("no title screen:\n%s", r.text())
		}
		r.key(tcell.KeyRune, ' ')
		r.waitFor("play", func() (ok bool) { return r.s.game().Phase() == match.Play })

		{ // rotate
			var before float64
			r.locked(func(w *game.World) { before = w.Ship().Angle })
			r.key(tcell.KeyLeft, 0)
			r.waitFor("the ship to turn left", func() (ok bool) {
				r.locked(func(w *game.World) { ok = math.Remainder(w.Ship().Angle-before, 2*math.Pi) < 0 })
				return ok
			})
		}
		{ // fire
			var before uint64
			r.locked(func(w *game.World) { before = w.Bullets().Stats().Acquires })
			r.key(tcell.KeyRune, ' ')
			r.waitFor("a bullet", func() (ok bool) {
				r.locked(func(w *game.World) { ok = w.Bullets().Stats().Acquires > before })
				return ok
			})
		}
		{ // pause
			r.key(tcell.KeyRune, 'p')
			r.waitFor("pause", func() (ok bool) { r.locked(func(w *game.World) { ok = w.Paused() }); return ok })
			var steps uint64
			r.locked(func(w *game.World) { steps = w.Steps() })
			time.Sleep(100 * time.Millisecond)
			r.locked(func(w *game.World) {
				if w.Steps() != steps {
					t.Errorf("paused world stepped from %d to %d", steps, w.Steps())
				}
			})
			r.waitFor("the pause screen", func() bool { return strings.Contains(r.text(), "PAUSED") })
		}
		{ // switch strategy, paused, keeps every object
			type objects struct {
				bullets map[pool.Handle]game.Bullet
				debris  map[pool.Handle]game.Particle
			}
			snap := func(w *game.World) objects {
				o := objects{map[pool.Handle]game.Bullet{}, map[pool.Handle]game.Particle{}}
				for h, b := range w.Bullets().All() {
					o.bullets[h] = *b
				}
				for h, p := range w.Debris().All() {
					o.debris[h] = *p
				}
				return o
			}
			var before objects
			r.locked(func(w *game.World) { before = snap(w) })
			r.key(tcell.KeyRune, '3')
			r.waitFor("listremove", func() (ok bool) {
				r.locked(func(w *game.World) {
					ok = w.Bullets().Strategy() == pool.ListRemove && w.Debris().Strategy() == pool.ListRemove
				})
				return ok
			})
			r.locked(func(w *game.World) {
				after := snap(w)
				if len(before.bullets) == 0 {
					t.Error("no bullets to carry over")
				}
				if !maps.Equal(before.bullets, after.bullets) || !maps.Equal(before.debris, after.debris) {
					t.Errorf("objects changed: %d/%d bullets, %d/%d debris before/after",
						len(before.bullets), len(after.bullets), len(before.debris), len(after.debris))
				}
			})
			r.waitFor("the panel to name listremove", func() bool {
				return strings.Contains(findLine(r.text(), "strategy"), "listremove listremove")
			})
		}
		{ // switch one pool
			r.key(tcell.KeyRune, 'b') // target: bullets
			r.key(tcell.KeyRune, '0')
			r.waitFor("dense bullets", func() (ok bool) {
				r.locked(func(w *game.World) {
					ok = w.Bullets().Strategy() == pool.Dense && w.Debris().Strategy() == pool.ListRemove
				})
				return ok
			})
			r.waitFor("the list title to name the target", func() bool { return strings.Contains(r.text(), "strategy → bullets") })
		}
		{ // resume and quit
			r.key(tcell.KeyRune, 'p')
			r.waitFor("resume", func() (ok bool) { r.locked(func(w *game.World) { ok = !w.Paused() }); return ok })
			r.key(tcell.KeyRune, 'q') // in a game, q asks first
			r.key(tcell.KeyRune, 'q')
			r.wait()
			if r.err != nil || r.res.Reason != ReasonQuit {
				t.Errorf("Run = %+v, %v; want reason %q, no error", r.res, r.err, ReasonQuit)
			}
		}
	})
}

// TestTooSmall: a terminal too small says so (too-small-60x20, the
// golden TestGoldenTooSmall shares), and the game shows once it grows
// (too-small-grown-100x30).
func TestTooSmall(t *testing.T) { synctest.Test(t, testTooSmall) }

func testTooSmall(t *testing.T) {
	r := startRun(t, "UTF-8", 60, 20, Options{})
	r.looksLike("too-small-60x20")
	r.onLoop(func() { r.scr.SetSize(100, 30) })
	_ = r.scr.PostEvent(tcell.NewEventResize(100, 30))
	r.waitFor("the game after resizing", func() bool {
		text := r.text()
		return !strings.Contains(text, "needs at least") && strings.Contains(text, "pools")
	})
	r.looksLike("too-small-grown-100x30")
}

// TestASCIIFallback: a screen whose character set has no braille falls
// back to ASCII, arena and panel (ascii-charset-120x40).
func TestASCIIFallback(t *testing.T) { synctest.Test(t, testASCIIFallback) }

func testASCIIFallback(t *testing.T) {
	r := startRun(t, "US-ASCII", 120, 40, Options{Seed: 5, Stress: true})
	if !r.s.ascii {
		t.Fatal("a screen that cannot show braille did not fall back to ASCII")
	}
	r.waitFor("bullets drawn", func() bool { return strings.Contains(r.text(), "*") })
	if text := r.text(); strings.ContainsFunc(text, isBraille) {
		t.Errorf("braille on an ASCII screen:\n%s", text)
	}
	r.looksLike("ascii-charset-120x40")
}

func TestRunEnds(t *testing.T) {
	tests := []struct {
		name   string
		end    func(r *running)
		reason string
		err    bool
	}{
		{"q", func(r *running) { r.key(tcell.KeyRune, 'q') }, ReasonQuit, false},
		{"ctrl-c", func(r *running) { r.key(tcell.KeyCtrlC, 0) }, ReasonQuit, false},
		{"context", func(r *running) { r.cancel() }, ReasonCanceled, false},
		{"input error", func(r *running) { _ = r.scr.PostEvent(tcell.NewEventError(errors.New("link down"))) }, ReasonError, true},
		{"panic", func(r *running) { r.onLoop(func() { r.s.arena.cv.cells = nil }) }, ReasonPanic, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := startRun(t, "UTF-8", 100, 30, Options{Stress: true})
				tt.end(r)
				r.wait()
				if r.res.Reason != tt.reason || (r.err != nil) != tt.err {
					t.Errorf("Run = %+v, %v; want reason %q, error %v", r.res, r.err, tt.reason, tt.err)
				}
				if w, _ := r.scr.Size(); w != 0 {
					t.Error("screen not finalised")
				}
				synctest.Wait() // the session's goroutines have returned, or are stuck
				if left := leftBehind(); len(left) > 0 {
					t.Errorf("%d goroutines left behind:\n%s", len(left), strings.Join(left, "\n\n"))
				}
			})
		})
	}
}

// leftBehind returns the stacks of the goroutines of the calling test's
// synctest bubble that run the game's code or its libraries', the test's
// own aside. (runtime.NumGoroutine counts the whole process, the
// testing package's goroutines too, which come and go under load.)
func leftBehind() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var left []string
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		ours := strings.Contains(g, "poolroids/") || strings.Contains(g, "rivo/tview") || strings.Contains(g, "gdamore/tcell")
		test := strings.Contains(g, "testing.tRunner(") || strings.Contains(g, "synctest.Run(")
		if strings.Contains(g, "synctest bubble") && ours && !test {
			left = append(left, g)
		}
	}
	return left
}

// TestStressKey: x starts the stress autopilot, which fills both pools
// until they miss, under a badge (stress-key-120x40).
func TestStressKey(t *testing.T) { synctest.Test(t, testStressKey) }

func testStressKey(t *testing.T) {
	r := startRun(t, "UTF-8", 120, 40, Options{Seed: 2, Bullets: 4, Debris: 16})
	r.key(tcell.KeyRune, 'x')
	r.waitFor("the pools to fill and miss", func() (ok bool) {
		r.locked(func(w *game.World) { ok = w.Bullets().Stats().Misses > 0 && w.Debris().Stats().Misses > 0 })
		return ok
	})
	r.looksLike("stress-key-120x40")
}

// TestDrawAllocs checks that drawing the arena, the stats panel (full and
// compact) and the help line allocates nothing once the canvas exists.
func TestDrawAllocs(t *testing.T) {
	scr := newSim(t, "UTF-8", 200, 60)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 9, Stress: true})
	if err != nil {
		t.Fatal(err)
	}
	busyWorld(t, s, 400)
	s.arena.SetRect(0, 0, 200-panelWidth, 59)
	s.panel.SetRect(200-panelWidth, 0, panelWidth, panelHeight)
	help := newHelpLine(func(g *glyphs) []helpItem { return g.keyLine })
	help.SetRect(0, 59, 200, 1)
	s.handWidgets(scr)
	s.arena.Draw(scr)
	s.panel.Draw(scr)
	for _, tt := range []struct {
		name string
		draw func()
	}{
		{"arena", func() { s.arena.Draw(scr) }},
		{"panel", func() { s.panel.Draw(scr) }},
		{"panel refresh", func() { s.view.gen++; s.handWidgets(scr); s.panel.Draw(scr) }},
		{"help", func() { help.Draw(scr) }},
		{"compact panel", func() { s.panel.setForm(formCompact); s.view.gen++; s.handWidgets(scr); s.panel.Draw(scr) }},
	} {
		if n := testing.AllocsPerRun(50, tt.draw); n != 0 {
			t.Errorf("%s: %v allocs per draw, want 0", tt.name, n)
		}
	}
}

// TestTerminalFrameAllocs: a whole frame on an xterm-256color terminal,
// the world stepped, drawn and sent, allocates nothing.
func TestTerminalFrameAllocs(t *testing.T) {
	_, scr := newXterm(t, 200, 60)
	s := benchSession(t, scr)
	if !s.term.(*terminal).direct {
		t.Fatal("the screen leaves its frames to tcell")
	}
	ap := game.Autopilot{Pressure: true}
	frame := func() {
		s.world().Step(ap.Input(s.world()))
		s.world().Step(ap.Input(s.world()))
		s.screen.resize()
		s.root.Draw(s.screen)
		s.screen.Show()
	}
	for range 30 {
		frame() // buffers grown
	}
	if n := testing.AllocsPerRun(50, frame); n != 0 {
		t.Errorf("%v allocs per frame, want 0", n)
	}
}

// BenchmarkRender measures one frame at 200×60 with a busy world.
//
//   - whole: the whole layout (arena, panel, strategy list, help line)
//     drawn onto a cleared screen's cell buffer, as after a resize: the
//     work of a frame in this package and in tview, without output.
//   - draw: a frame as the game draws it, without output: two world steps
//     (60 steps a second at 30 frames a second), then the layout drawn over
//     the last frame, only what changed.
//   - terminal: what a frame costs in the game: the draw, and the
//     screen's Show (package vt) encoding the changed cells for an
//     xterm-256color terminal; bytes/frame is what it writes.
func BenchmarkRender(b *testing.B) {
	b.Run("whole", func(b *testing.B) {
		scr := newSim(b, "UTF-8", 200, 60)
		s := benchSession(b, scr)
		b.ReportAllocs()
		for b.Loop() {
			scr.Clear()
			s.root.Draw(scr)
		}
	})
	b.Run("draw", func(b *testing.B) {
		scr := newSim(b, "UTF-8", 200, 60)
		s := benchSession(b, scr)
		ap := game.Autopilot{Pressure: true}
		b.ReportAllocs()
		for b.Loop() {
			s.world().Step(ap.Input(s.world()))
			s.world().Step(ap.Input(s.world()))
			s.screen.resize()
			s.root.Draw(s.screen)
		}
	})
	b.Run("terminal", func(b *testing.B) {
		tty, scr := newXterm(b, 200, 60)
		s := benchSession(b, scr)
		ap := game.Autopilot{Pressure: true}
		b.ReportAllocs()
		start := tty.n.Load()
		for b.Loop() {
			s.world().Step(ap.Input(s.world()))
			s.world().Step(ap.Input(s.world()))
			s.screen.resize()
			s.root.Draw(s.screen)
			s.screen.Show()
		}
		b.ReportMetric(float64(tty.n.Load()-start)/float64(b.N), "bytes/frame")
	})
}

// newXterm is an xterm-256color screen, not initialised, on a w×h
// terminal that counts the bytes written to it.
func newXterm(t testing.TB, w, h int) (*countingTty, tcell.Screen) {
	t.Helper()
	t.Setenv("LANG", "C.UTF-8")
	tty := &countingTty{w: w, h: h, closed: make(chan struct{})}
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	return tty, scr
}

// TestRunUnknownCharset starts the game on a terminal whose locale names a
// character set tcell has no table for: Run returns tcell's error instead
// of drawing on a screen that did not start (which panicked), and writes
// nothing to the terminal.
func TestRunUnknownCharset(t *testing.T) {
	tty, scr := newXterm(t, 80, 24)
	t.Setenv("LC_ALL", "ru_RU.KOI8-R")
	_, err := Run(context.Background(), scr, Options{Seed: 1})
	if !errors.Is(err, tcell.ErrNoCharset) || !strings.Contains(err.Error(), "starting the terminal") {
		t.Fatalf("Run: %v, want tcell.ErrNoCharset while starting the terminal", err)
	}
	if n := tty.n.Load(); n != 0 {
		t.Errorf("%d bytes written to a terminal that did not start", n)
	}
}

// TestShowSendsOnlyChanges checks that a frame sends the terminal only
// the cells that changed: nothing at all for a world that did not move, a
// fraction of the screen for one that did.
func TestShowSendsOnlyChanges(t *testing.T) { synctest.Test(t, testShowSendsOnlyChanges) }

func testShowSendsOnlyChanges(t *testing.T) {
	tty, scr := newXterm(t, 120, 40)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	startTerm(t, s)
	s.root.SetRect(0, 0, 120, 40)
	frame := func() int64 {
		n := tty.n.Load()
		s.screen.resize() // as every frame does
		s.root.Draw(s.screen)
		s.screen.Show()
		return tty.n.Load() - n
	}
	first, same := frame(), frame()
	s.world().Step(game.Input{Thrust: true})
	s.world().Step(game.Input{Thrust: true})
	moved := frame()
	if same != 0 || moved <= same || moved > first/4 {
		t.Errorf("bytes written: first frame %d, same frame again %d, after two steps %d", first, same, moved)
	}
}

func benchSession(b testing.TB, scr tcell.Screen) *session {
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 9, Stress: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, sim := scr.(tcell.SimulationScreen); !sim {
		startTerm(b, s)
	}
	s.ascii = !utf8Charset(s.screen.CharacterSet())
	busyWorld(b, s, 400)
	s.root.SetRect(0, 0, 200, 60)
	return s
}

// countingTty is a terminal of w×h that types nothing and counts what is
// written to it.
type countingTty struct {
	w, h    int
	n       atomic.Int64
	tap     func([]byte) // when set, sees every write
	mu      sync.Mutex
	resized func() // tcell's resize callback
	once    sync.Once
	closed  chan struct{}
}

func (t *countingTty) Start() error { return nil }
func (t *countingTty) Stop() error  { return nil }
func (t *countingTty) Drain() error { t.once.Do(func() { close(t.closed) }); return nil }
func (t *countingTty) Close() error { return t.Drain() }
func (t *countingTty) NotifyResize(cb func()) {
	t.mu.Lock()
	t.resized = cb
	t.mu.Unlock()
}

// resize calls tcell's resize callback, as a window change would.
func (t *countingTty) resize() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.resized != nil {
		t.resized()
	}
}

func (t *countingTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: t.w, Height: t.h}, nil
}
func (t *countingTty) Read([]byte) (int, error) { <-t.closed; return 0, io.EOF }
func (t *countingTty) Write(p []byte) (int, error) {
	t.n.Add(int64(len(p)))
	if t.tap != nil {
		t.tap(p)
	}
	return len(p), nil
}

// TestStrategyList picks strategies through the list: Tab gives it the
// focus, Down and Enter select, a mouse click picks at once, but for one
// that takes the key help down.
func TestStrategyList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startRun(t, "UTF-8", 120, 40, Options{Seed: 8, Strategy: pool.Queue})
		strategies := func() (b, d pool.Strategy) {
			r.locked(func(w *game.World) { b, d = w.Bullets().Strategy(), w.Debris().Strategy() })
			return b, d
		}
		r.key(tcell.KeyTab, 0)
		r.key(tcell.KeyDown, 0)
		r.key(tcell.KeyEnter, 0)
		r.waitFor("freelist, the item below queue", func() bool {
			b, d := strategies()
			return b == pool.FreeList && d == pool.FreeList
		})

		x, y := r.find("5 scan")
		click := func() {
			r.scr.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
			r.scr.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
		}
		r.key(tcell.KeyRune, '?')
		r.waitFor("the key help", func() bool { return strings.Contains(r.text(), "any key closes this help") })
		click() // takes the help down, and picks nothing
		r.waitFor("the help to go", func() (gone bool) { r.onLoop(func() { gone = !r.s.fit.help }); return gone })
		if b, d := strategies(); b != pool.FreeList || d != pool.FreeList {
			t.Fatalf("a click on the key help picked %s/%s", b, d)
		}
		click()
		r.waitFor("a click on scan", func() bool {
			b, d := strategies()
			return b == pool.Scan && d == pool.Scan
		})
	})
}

// TestKeptFrames checks that the frames drawn over the last one on the
// session's screen, as the game draws them, show what a whole redraw on a
// cleared screen shows: two sessions play the same game, one drawn as in
// the game (appScreen, showing only the cells that changed), the other
// cleared and drawn whole on every frame, and their screens must match
// after every frame through every mode, overlay, focus, strategy switch,
// resize and a terminal too small.
func TestKeptFrames(t *testing.T) {
	const w, h = 120, 40
	type side struct {
		s   *session
		scr tcell.SimulationScreen
	}
	sides := [2]side{}
	for i := range sides {
		scr := newSim(t, "UTF-8", w, h)
		s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		s.root.SetRect(0, 0, w, h)
		sides[i] = side{s, scr}
	}
	kept, whole := sides[0], sides[1]
	var now time.Duration
	frame := func(sd side, scr tcell.Screen) {
		if _, ok := scr.(*surface); !ok {
			scr.Clear()
			sd.s.draw(scr)
			scr.Show()
			return
		}
		sd.s.screen.resize() // as a frame does
		sd.s.draw(scr)
		sd.s.screen.Show()
	}
	// The panel's lines that depend on the clock differ between the two
	// sessions: acquires/s and allocs/s (a strategy switch samples at the
	// real time), and the runtime and frame figures (go heap, gc, go
	// allocs, fps; the compact panel's fps is on its line 10). They are
	// left out.
	timed := map[int]bool{1 + 9: true, 1 + 10: true, 1 + 13: true, 1 + 14: true, 1 + 15: true, 1 + 16: true}
	compare := func(step string) {
		t.Helper()
		a, aw, ah := kept.scr.GetContents()
		b, _, _ := whole.scr.GetContents()
		for y := range ah {
			for x := range aw {
				if timed[y] && x > aw-panelWidth && ah >= minHeight {
					continue
				}
				ca, cb := a[y*aw+x], b[y*aw+x]
				if !sameLook(ca, cb) {
					t.Fatalf("%s: cell (%d,%d) shows %q %v, a whole redraw %q %v\nkept:\n%s\nwhole:\n%s",
						step, x, y, string(ca.Runes), ca.Style, string(cb.Runes), cb.Style, screenText(kept.scr), screenText(whole.scr))
				}
			}
		}
	}
	for _, tt := range []struct {
		name   string
		act    func(s *session)
		frames int
	}{
		{"title", func(*session) {}, 40},
		{"play", func(s *session) { s.startGame() }, 30},
		{"thrust and fire", func(s *session) { s.keys.Press(input.Thrust, now); s.keys.Press(input.Fire, now) }, 20},
		{"pause", func(s *session) { s.onRune('p', now) }, 5},
		{"resume", func(s *session) { s.onRune('p', now) }, 5},
		{"stress", func(s *session) { s.onRune('x', now); s.onRune('x', now) }, 40}, // asked, and confirmed: no question left to expire on the real clock
		{"list focused", func(s *session) { s.arena.Blur(); s.list.Focus(nil) }, 5},
		{"strategy", func(s *session) { s.onRune('b', now); s.onRune('4', now) }, 10},
		{"arena focused", func(s *session) { s.list.Blur(); s.arena.Focus(nil) }, 5},
		{"help", func(s *session) { s.onRune('?', now) }, 5},
		{"help closed", func(s *session) { s.onKey(tcell.NewEventKey(tcell.KeyRune, 'z', tcell.ModNone)) }, 5},
		{"compact panel", func(s *session) { s.onRune('v', now) }, 10},
		{"hidden panel", func(s *session) { s.onRune('v', now) }, 10},
		{"full panel", func(s *session) { s.onRune('v', now) }, 10},
		{"game over", func(s *session) {
			s.mu.Lock()
			for s.world().Phase() != game.GameOver {
				s.world().Step(game.Input{Hyperspace: true})
			}
			s.mu.Unlock()
		}, 5},
		{"title again", func(s *session) { s.onRune('x', now) }, 20},
		{"resize", func(s *session) {
			s.sim().SetSize(140, 50)
			s.root.SetRect(0, 0, 140, 50)
		}, 5},
		{"too small", func(s *session) {
			s.sim().SetSize(60, 20)
			s.root.SetRect(0, 0, 60, 20)
		}, 3},
		{"large again", func(s *session) {
			s.sim().SetSize(w, h)
			s.root.SetRect(0, 0, w, h)
		}, 20},
	} {
		for _, sd := range sides {
			tt.act(sd.s)
		}
		for i := range tt.frames {
			for range 2 {
				now += time.Second / game.TPS
				for _, sd := range sides {
					sd.s.step()
				}
			}
			frame(kept, kept.s.screen)
			for range lateRows - 1 { // the debris and rocks that waited
				frame(kept, kept.s.screen)
			}
			frame(whole, whole.scr)
			compare(fmt.Sprintf("%s, frame %d", tt.name, i))
		}
	}
}

// sameLook tells whether two cells look the same: a blank shows its
// background, reverse video, underline and strike-through, but not its
// foreground colour nor boldness.
func sameLook(a, b tcell.SimCell) bool {
	if string(a.Runes) != string(b.Runes) {
		return false
	}
	if a.Style == b.Style {
		return true
	}
	if strings.TrimSpace(string(a.Runes)) != "" {
		return false
	}
	shows := func(st tcell.Style) (tcell.Color, tcell.AttrMask, tcell.UnderlineStyle, tcell.Color) {
		_, bg, attr := st.Decompose()
		return bg, attr &^ (tcell.AttrBold | tcell.AttrDim | tcell.AttrItalic | tcell.AttrBlink), st.GetUnderlineStyle(), st.GetUnderlineColor()
	}
	bga, ata, ula, uca := shows(a.Style)
	bgb, atb, ulb, ucb := shows(b.Style)
	return bga == bgb && ata == atb && ula == ulb && uca == ucb
}

// drawn is a session drawn frame by frame on a simulation screen as tview
// draws it, without its goroutines: the test steps the world and types.
type drawn struct {
	t   *testing.T
	s   *session
	scr tcell.SimulationScreen
	now time.Duration
}

func newDrawn(t *testing.T, charset string, w, h int, opts Options) *drawn {
	t.Helper()
	scr := newSim(t, charset, w, h)
	s, err := newPlayerSession(ownTerminal(scr, nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	return drawnOn(t, scr, s, opts.ASCII)
}

// drawnOn is s, made on scr, drawn as newDrawn draws it.
func drawnOn(t *testing.T, scr tcell.SimulationScreen, s *session, ascii bool) *drawn {
	s.ascii = ascii || !utf8Charset(scr.CharacterSet()) // as run decides
	s.syncList()
	d := &drawn{t: t, s: s, scr: scr}
	d.frame()
	return d
}

// frame draws a frame on the session's screen, as the loop does.
func (d *drawn) frame() { d.s.frame() }

func (d *drawn) steps(n int) {
	for range n {
		d.now += time.Second / game.TPS
		d.s.step()
	}
}

func (d *drawn) key(k tcell.Key, r rune) { d.s.onKey(tcell.NewEventKey(k, r, tcell.ModNone)) }

func (d *drawn) resize(w, h int) {
	d.scr.SetSize(w, h)
	d.frame()
}

func (d *drawn) text() string { return screenText(d.scr) }

// looksLike draws a frame and checks it against the golden file name.
func (d *drawn) looksLike(name string) {
	d.t.Helper()
	d.frame()
	looksLike(d.t, d.scr, name)
}

// TestLayout checks how the screen is shared at the smallest size the
// game plays at and at a common one: the arena has most of the screen, the
// panel the form that fits, with the pools' figures and at 120×40 the
// whole strategy list, and the help line names the move, fire, help and
// quit keys (the goldens layout-80x24 and layout-120x40).
func TestLayout(t *testing.T) {
	tests := []struct {
		w, h        int
		form        form
		arena, want int // the arena's width (border included), the field's at least
	}{
		{80, 24, formCompact, 62, 60},
		{120, 40, formFull, 86, 84},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%dx%d", tt.w, tt.h)
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDrawn(t, "UTF-8", tt.w, tt.h, Options{Seed: 1, Strategy: pool.FreeList})
				_, _, aw, _ := d.s.arena.GetRect()
				if d.s.fit.form != tt.form || aw != tt.arena || d.s.arena.frame.w < tt.want {
					t.Errorf("form %d, arena %d columns, field %d×%d; want form %d, arena %d, field at least %d wide\n%s",
						d.s.fit.form, aw, d.s.arena.frame.w, d.s.arena.frame.h, tt.form, tt.arena, tt.want, d.text())
				}
				d.looksLike("layout-" + name)
			})
		})
	}
}

// TestLayoutKey cycles the panel's forms with v: each gives the arena the
// width the panel leaves (hidden: layout-key-hidden-80x24), but at 80×24
// v skips the full panel, which would shrink the field; the list keeps no
// focus it cannot show, tab shows the list under the compact panel with
// the field as it was (layout-key-tab-80x24), and a new size chooses the
// form again.
func TestLayoutKey(t *testing.T) { synctest.Test(t, testLayoutKey) }

func testLayoutKey(t *testing.T) {
	d := newDrawn(t, "UTF-8", 80, 24, Options{Seed: 2})
	rows := d.s.arena.frame.h
	for _, want := range []struct {
		form  form
		arena int
	}{{formHidden, 80}, {formCompact, 80 - compactWidth}, {formHidden, 80}} {
		d.key(tcell.KeyRune, 'v')
		d.frame()
		if _, _, aw, _ := d.s.arena.GetRect(); d.s.fit.form != want.form || aw != want.arena || d.s.arena.frame.h != rows {
			t.Fatalf("after v: form %d, arena %d columns, field %d rows; want form %d, %d columns, %d rows\n%s",
				d.s.fit.form, aw, d.s.arena.frame.h, want.form, want.arena, rows, d.text())
		}
	}
	d.looksLike("layout-key-hidden-80x24")
	d.key(tcell.KeyTab, 0)
	d.looksLike("layout-key-tab-80x24")
	if d.s.fit.form != formCompact || !d.s.fit.list || !d.s.list.HasFocus() || d.s.arena.frame.h != rows {
		t.Errorf("tab: form %d, list %v, focused %v, field %d rows; want the list under the compact panel, focused, %d rows",
			d.s.fit.form, d.s.fit.list, d.s.list.HasFocus(), d.s.arena.frame.h, rows)
	}
	d.key(tcell.KeyRune, 'v') // hidden: the list is gone, the arena takes the focus
	if d.s.list.HasFocus() || !d.s.arena.HasFocus() {
		t.Error("the hidden list kept the focus")
	}
	d.resize(120, 40)
	if d.s.fit.form != formFull {
		t.Errorf("at 120×40 after a resize: form %d, want full", d.s.fit.form)
	}
	// There, v goes through every form: each leaves the field as many
	// rows as the full panel does, or more.
	for _, want := range []form{formCompact, formHidden, formFull} {
		if d.key(tcell.KeyRune, 'v'); d.s.fit.form != want {
			t.Errorf("at 120×40, v: form %d, want %d", d.s.fit.form, want)
		}
	}
}

// TestTabGivesFieldBack: at 80×24 Tab shows the strategy list under the
// compact panel, the field as large as it was; Tab again, or Esc, takes
// the list away and gives the keys back to the field.
func TestTabGivesFieldBack(t *testing.T) { synctest.Test(t, testTabGivesFieldBack) }

func testTabGivesFieldBack(t *testing.T) {
	for _, back := range []tcell.Key{tcell.KeyTab, tcell.KeyEscape} {
		d := newDrawn(t, "UTF-8", 80, 24, Options{Seed: 2})
		d.s.startGame()
		field := func() [2]int { d.frame(); return [2]int{d.s.arena.cv.w, d.s.arena.cv.h} }
		before, form := field(), d.s.fit.form
		d.key(tcell.KeyTab, 0)
		if got := field(); got != before || !d.s.list.HasFocus() || !strings.Contains(d.text(), "4 activelist") {
			t.Fatalf("Tab: field %v (was %v), list focused %v; want the list, the field as it was\n%s", got, before, d.s.list.HasFocus(), d.text())
		}
		d.key(back, 0)
		if got := field(); got != before || d.s.fit.form != form || !d.s.arena.HasFocus() || strings.Contains(d.text(), "4 activelist") {
			t.Errorf("Tab, then %v: field %v, form %d, arena focused %v; want the list gone, the field %v, form %d\n%s",
				tcell.KeyNames[back], got, d.s.fit.form, d.s.arena.HasFocus(), before, form, d.text())
		}
	}
}

// TestHelp checks the key help: ? puts it up over the arena with every
// key (key-help-{utf8,ascii}-80x24), the game waits meanwhile, and any key
// takes it down (key-help-closed-{utf8,ascii}-80x24) without acting.
func TestHelp(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
	}{{"utf8", Options{Seed: 3}}, {"ascii", Options{Seed: 3, ASCII: true}}} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDrawn(t, "UTF-8", 80, 24, tt.opts)
				d.s.startGame()
				d.steps(10)
				d.key(tcell.KeyUp, 0) // held into the help
				d.key(tcell.KeyRune, '?')
				d.looksLike("key-help-" + tt.name + "-80x24")
				steps := d.s.world().Steps()
				d.steps(30)
				if got := d.s.world().Steps(); got != steps {
					t.Errorf("the world stepped from %d to %d under the help", steps, got)
				}
				d.key(tcell.KeyRune, 'p') // closes the help, and does not pause
				d.looksLike("key-help-closed-" + tt.name + "-80x24")
				if d.s.fit.help || d.s.world().Paused() {
					t.Errorf("after p: help %v, paused %v; want neither", d.s.fit.help, d.s.world().Paused())
				}
				d.steps(1)
				if in, _ := d.s.stepInput(); in != (game.Input{}) {
					t.Errorf("a key held into the help acts after it: %+v", in)
				}
				if got := d.s.world().Steps(); got != steps+1 {
					t.Errorf("the world stepped from %d to %d after the help, want one step", steps, got)
				}
			})
		})
	}
}

// TestTooSmallHoldsGame makes the terminal too small in the middle of a
// game (the notice: too-small-in-game-60x20) and plays on: the world must
// not step, and neither the keys pressed before nor those typed behind
// the notice may reach the ship; at 80×24 again, the game shows
// (too-small-resized-80x24).
func TestTooSmallHoldsGame(t *testing.T) { synctest.Test(t, testTooSmallHoldsGame) }

func testTooSmallHoldsGame(t *testing.T) {
	d := newDrawn(t, "UTF-8", 80, 24, Options{Seed: 4})
	d.s.startGame()
	d.steps(30)
	d.key(tcell.KeyUp, 0) // held into the notice
	d.resize(60, 20)
	looksLike(t, d.scr, "too-small-in-game-60x20")
	w := d.s.world()
	steps, ship, lives, acq := w.Steps(), w.Ship(), w.Lives(), w.Bullets().Stats().Acquires
	strategy := w.Bullets().Strategy()
	for _, k := range []rune{' ', 'h', 'p', 'x', '3', 'b', 'v', '?'} {
		d.key(tcell.KeyRune, k)
	}
	d.key(tcell.KeyUp, 0)
	d.key(tcell.KeyLeft, 0)
	d.key(tcell.KeyTab, 0)
	d.steps(600)
	d.frame()
	switch {
	case w.Steps() != steps:
		t.Errorf("the world stepped from %d to %d behind the notice", steps, w.Steps())
	case w.Ship() != ship || w.Lives() != lives || w.Bullets().Stats().Acquires != acq:
		t.Errorf("the ship changed behind the notice: %+v, %d lives, %d shots; was %+v, %d, %d",
			w.Ship(), w.Lives(), w.Bullets().Stats().Acquires, ship, lives, acq)
	case w.Paused() || d.s.game().Stress() || d.s.fit.help || d.s.fit.form != formCompact || d.s.list.HasFocus() || w.Bullets().Strategy() != strategy:
		t.Errorf("keys acted behind the notice: paused %v, stress %v, help %v, form %d, list focused %v, strategy %s",
			w.Paused(), d.s.game().Stress(), d.s.fit.help, d.s.fit.form, d.s.list.HasFocus(), w.Bullets().Strategy())
	}
	d.resize(80, 24)
	looksLike(t, d.scr, "too-small-resized-80x24")
	if in, _ := d.s.stepInput(); in != (game.Input{}) {
		t.Errorf("a key held into the notice acts after it: %+v", in)
	}
	d.steps(5)
	if w.Steps() != steps+5 {
		t.Errorf("the world stepped %d times in 5 steps after the notice", w.Steps()-steps)
	}
	d.resize(60, 20)
	d.key(tcell.KeyRune, 'q')
	select {
	case <-d.s.life.quit:
	default:
		t.Error("q behind the notice did not quit")
	}
}

// TestASCIIText checks that where the ASCII fallback is on, everything on
// the screen is ASCII, whichever way it was asked for: a local terminal
// whose locale is not UTF-8 (the screen's character set) and an SSH client
// whose locale is not (Options.ASCII, on the server's UTF-8 screen). The
// stress autopilot's frame, ascii-stress-{local,ssh}-120x40, shows the
// separators drawn as dots.
func TestASCIIText(t *testing.T) {
	for _, tt := range []struct {
		name, charset string
		opts          Options
	}{
		{"local", "US-ASCII", Options{Seed: 6}},
		{"ssh", "UTF-8", Options{Seed: 6, ASCII: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := newDrawn(t, tt.charset, 120, 40, tt.opts)
				check := func(what string) {
					t.Helper()
					d.frame()
					text := d.text()
					if i := strings.IndexFunc(text, func(r rune) bool { return r >= utf8.RuneSelf }); i >= 0 {
						t.Errorf("%s: %q beyond ASCII:\n%s", what, []rune(text[i:])[0], text)
					}
				}
				check("title")
				d.key(tcell.KeyRune, 'x')
				d.steps(300)
				d.s.sampleAt(d.now)
				check("stress")
				looksLike(t, d.scr, "ascii-stress-"+tt.name+"-120x40")
				if !strings.Contains(d.text(), " . last pause") { // a row the golden masks
					t.Errorf("no . separator in the GC row:\n%s", d.text())
				}
				d.key(tcell.KeyTab, 0)
				check("list focused")
				d.key(tcell.KeyTab, 0)
				d.key(tcell.KeyRune, 'v')
				check("compact")
				d.key(tcell.KeyRune, 'v')
				check("hidden")
				d.key(tcell.KeyRune, '?')
				check("help")
				d.key(tcell.KeyRune, 'p')
				d.key(tcell.KeyRune, 'p')
				check("paused")
				d.s.mu.Lock()
				d.s.world().SetPaused(false)
				for w := d.s.world(); w.Phase() != game.GameOver; {
					w.Step(game.Input{Hyperspace: true})
				}
				d.s.mu.Unlock()
				d.steps(1) // the match sees the game end
				check("game over")
				d.resize(60, 20)
				check("too small")
			})
		})
	}
}

func TestAppendDuration(t *testing.T) {
	for _, tt := range []struct {
		d         time.Duration
		utf8, asc string
	}{
		{850, "850ns", "850ns"},
		{6 * time.Microsecond, "6µs", "6us"},
		{1250 * time.Microsecond, "1.25ms", "1.25ms"},
		{2 * time.Second, "2.0s", "2.0s"},
	} {
		if got := string(appendDuration(nil, tt.d, utf8Glyphs.micro)); got != tt.utf8 {
			t.Errorf("appendDuration(%v) = %q, want %q", tt.d, got, tt.utf8)
		}
		if got := string(appendDuration(nil, tt.d, plainGlyphs.micro)); got != tt.asc {
			t.Errorf("appendDuration(%v) in ASCII = %q, want %q", tt.d, got, tt.asc)
		}
	}
}

// TestCompactPair: a compact line keeps a label where the figure is wide,
// cut to three letters, and always fits the compact panel.
func TestCompactPair(t *testing.T) { synctest.Test(t, testCompactPair) }

func testCompactPair(t *testing.T) {
	var p panel
	for _, tt := range []struct{ label, val, want string }{
		{"active", "0/64", " active     0/64"},
		{"active", "1013/1024", " act   1013/1024"},
		{"misses", "123456789012", "    123456789012"},
	} {
		var l textLine
		p.pair(&l, tt.label, valueStyle, []byte(tt.val))
		if got := string(l.b); got != tt.want || utf8.RuneCountInString(got) > compactWidth-2 {
			t.Errorf("pair(%q, %q) = %q, want %q", tt.label, tt.val, got, tt.want)
		}
	}
}

// A window made smaller while the strategy list has the keys takes the
// list away with the full panel: the game goes on, and its keys play
// again. The layout used to move the focus from within tview's draw,
// which holds the lock SetFocus takes, and the session hung for good.
func TestListFocusResize(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startRun(t, "UTF-8", 120, 40, Options{Seed: 8})
		r.key(tcell.KeyTab, 0)
		r.waitFor("the list to have the keys", func() (ok bool) { r.onLoop(func() { ok = r.s.list.HasFocus() }); return ok })
		r.onLoop(func() { r.scr.SetSize(80, 24) })
		_ = r.scr.PostEvent(tcell.NewEventResize(80, 24))
		r.waitFor("the compact panel", func() (ok bool) { r.onLoop(func() { ok = r.s.fit.form == formCompact }); return ok })
		r.looksLike("list-focus-resized-80x24") // the compact panel, without the list
		r.key(tcell.KeyRune, ' ')               // the title's key: play
		r.waitFor("play", func() (ok bool) { return r.s.game().Phase() == match.Play })
		if r.onLoop(func() {}); r.s.list.HasFocus() {
			t.Error("the hidden list kept the keys")
		}
		r.key(tcell.KeyRune, 'q') // in a game, q asks first
		r.key(tcell.KeyRune, 'q')
		r.wait()
		if r.res.Reason != ReasonQuit {
			t.Errorf("Run ended with %q, want %q", r.res.Reason, ReasonQuit)
		}
	})
}

// The arena's top border keeps the score and lives where the whole title
// does not fit: the level's name gives way first, then the high score
// (header-full-panel-80x24, beside header-play-80x24 where it all fits).
// The title's demo shows the high score alone: its score is no one's
// (header-title-80x24).
func TestHeaderKeepsScore(t *testing.T) { synctest.Test(t, testHeaderKeepsScore) }

func testHeaderKeepsScore(t *testing.T) {
	d := newDrawn(t, "UTF-8", 80, 24, Options{Seed: 2})
	d.looksLike("header-title-80x24")
	d.s.startGame()
	d.looksLike("header-play-80x24")
	d.s.arrange(formFull) // the full panel, and a narrower arena
	d.looksLike("header-full-panel-80x24")
}

// The game-over table's rows are as wide as each other, so that centred
// on the screen their columns line up: long strategy pairs, arenas and
// names that are not ASCII included.
func TestOverTableAligned(t *testing.T) {
	top := []scores.Entry{
		{Name: "ann", Score: 280, Wave: 1, Strategy: "freelist"},
		{Name: "Ünïcødé", Score: 40, Wave: 1, Strategy: "dense/bitset"},
		{Name: "bob", Score: 30, Wave: 2, Arena: "quakepit"},
		{Name: "Wolfgang_Amadeus", Score: 20, Wave: 1, Arena: "den"},
	}
	lines := overLines(play.Over{Entry: top[0], Rank: 1, Top: top}, false, false)
	var rows []string
	for i, l := range lines {
		if l == "HIGH SCORES" {
			rows = lines[i+1 : i+1+len(top)]
		}
	}
	if len(rows) != len(top) {
		t.Fatalf("no table of %d rows in\n%s", len(top), strings.Join(lines, "\n"))
	}
	for _, r := range rows {
		if utf8.RuneCountInString(r) != utf8.RuneCountInString(rows[0]) {
			t.Errorf("rows of different widths:\n%s", strings.Join(rows, "\n"))
			break
		}
	}
}

// A strategy list scrolled to its end in a small window
// (list-scrolled-80x24) shows every item once the window grows again, not
// the last few above empty rows (list-grown-120x40).
func TestListScrollsBackOnGrow(t *testing.T) { synctest.Test(t, testListScrollsBackOnGrow) }

func testListScrollsBackOnGrow(t *testing.T) {
	d := newDrawn(t, "UTF-8", 80, 24, Options{Seed: 2})
	d.key(tcell.KeyTab, 0) // under the compact panel: a list of a few rows
	d.s.list.SetCurrentItem(len(pool.Strategies()) - 1)
	d.looksLike("list-scrolled-80x24")
	d.resize(120, 40)
	looksLike(t, d.scr, "list-grown-120x40")
}

// TestSIsHyperspace: s jumps as h does, so that the help's wasd holds.
func TestSIsHyperspace(t *testing.T) {
	for _, k := range []rune{'h', 's'} {
		d := newDrawn(t, "UTF-8", 100, 30, Options{Seed: 4})
		d.s.startGame()
		d.steps(game.TPS)
		before := d.s.world().Ship().Pos
		d.key(tcell.KeyRune, k)
		d.steps(1)
		if after := d.s.world().Ship(); after.Pos == before && after.Alive {
			t.Errorf("%c: the ship stayed at %v", k, before)
		}
	}
}
