package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/clock"
	"poolroids/game/input"
	"poolroids/game/match"
	"poolroids/game/play"
	"poolroids/pool"
	"poolroids/ui/internal/golden"
)

// TestFrameClock: a session draws opts.FPS frames a second, each shown
// once, and input never draws: a burst of a thousand keys between two
// ticks of the clock adds no frame, though the keys play. On synctest's
// clock the frames due are exact, and the burst takes no time.
func TestFrameClock(t *testing.T) {
	for _, fps := range []int{4, 25, 60} {
		t.Run(fmt.Sprintf("%dfps", fps), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { testFrameClock(t, fps) })
		})
	}
}

func testFrameClock(t *testing.T, fps int) {
	var frames atomic.Uint64
	r := startRun(t, "UTF-8", 120, 40, Options{Seed: 11, FPS: fps, Frame: func(bool, uint64) { frames.Add(1) }})
	counts := func() (drawn, shown uint64) {
		synctest.Wait() // the loop has drawn what was due
		return frames.Load(), r.scr.Shows()
	}

	drawn, shown := counts()
	start := time.Now()
	for range 1000 {
		r.key(tcell.KeyRune, ' ') // the first starts a game, the others fire
	}
	afterDrawn, afterShown := counts()
	if took := time.Since(start); took != 0 {
		t.Fatalf("the burst took %v on the bubble's clock", took)
	}
	if afterDrawn != drawn || afterShown != shown {
		t.Errorf("a burst of 1000 keys drew %d frames and showed %d, want none", afterDrawn-drawn, afterShown-shown)
	}
	if phase := r.s.game().Phase(); phase != match.Play {
		t.Fatalf("after the burst the game is in phase %v, want play", phase)
	}

	time.Sleep(2 * time.Second)
	d, s := counts()
	if want := uint64(2 * fps); d-drawn != want || s-shown != want {
		t.Errorf("in 2s at %d fps: %d frames drawn, %d shown, want %d", fps, d-drawn, s-shown, want)
	}
	var fired uint64
	r.locked(func(w *game.World) { fired = w.Bullets().Stats().Acquires })
	if fired == 0 {
		t.Error("the burst fired no bullet")
	}
}

// TestLoopPanic: a panic in a key handler, as in a draw, ends the root
// shown with ReasonPanic's ending and the panic, and leaves the loop as
// it was: the next root it shows takes keys.
func TestLoopPanic(t *testing.T) {
	for _, tt := range []struct {
		name      string
		key, draw bool
	}{{"key", true, false}, {"draw", false, true}} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				scr := newSim(t, "UTF-8", 80, 24)
				l := testLoop(t, scr)
				frames := 0
				r := newTestRoot(pace{fps: 10})
				r.onFrame = func() {
					if frames++; tt.draw && frames > 1 {
						panic("a draw")
					}
				}
				r.onKey = func(ev *tcell.EventKey) *tcell.EventKey {
					if tt.key {
						panic("a key")
					}
					return nil
				}
				done := make(chan struct{})
				go func() {
					defer close(done)
					l.show(r)
				}()
				scr.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
				<-done
				if r.why != endPanic || r.err == nil || !strings.Contains(r.err.Error(), "a "+tt.name) {
					t.Fatalf("the root ended with %v, %v; want its panic", r.why, r.err)
				}
				next := newTestRoot(pace{fps: 10})
				keys := make(chan rune, 1)
				next.onKey = func(ev *tcell.EventKey) *tcell.EventKey {
					keys <- ev.Rune()
					return nil
				}
				go l.show(next)
				defer next.stop(endCanceled, nil)
				scr.InjectKey(tcell.KeyRune, 'n', tcell.ModNone)
				if r := <-keys; r != 'n' {
					t.Errorf("the next root read %q, want n", r)
				}
			})
		})
	}
}

// testLoop is a loop on a started terminal of scr.
func testLoop(t testing.TB, scr tcell.Screen) *loop {
	return newLoop(startedTerminal(t, scr), nil)
}

// testRoot is a root of a Box, with the hooks a test sets: its frames,
// its keys, its refreshes.
type testRoot struct {
	box       *tview.Box
	pc        pace
	onFrame   func()
	onKey     func(*tcell.EventKey) *tcell.EventKey // nil: every key to the box
	onRefresh func() bool
	done      chan struct{}
	once      sync.Once
	why       ending // how the loop ended it; read once done is closed
	err       error
}

func newTestRoot(pc pace) *testRoot {
	return &testRoot{box: tview.NewBox(), pc: pc, onFrame: func() {}, done: make(chan struct{})}
}

func (r *testRoot) primitive() tview.Primitive { return r.box }
func (r *testRoot) first() tview.Primitive     { return r.box }
func (r *testRoot) pace() pace                 { return r.pc }
func (r *testRoot) frame()                     { r.onFrame() }
func (r *testRoot) over() <-chan struct{}      { return r.done }
func (r *testRoot) gone() <-chan struct{}      { return nil }

func (r *testRoot) key(ev *tcell.EventKey) *tcell.EventKey {
	if r.onKey == nil {
		return ev
	}
	return r.onKey(ev)
}

func (r *testRoot) mouse(ev *tcell.EventMouse, a tview.MouseAction) (*tcell.EventMouse, tview.MouseAction) {
	return ev, a
}

func (r *testRoot) refresh() bool { return r.onRefresh != nil && r.onRefresh() }

func (r *testRoot) stop(why ending, err error) {
	r.once.Do(func() {
		r.why, r.err = why, err
		close(r.done)
	})
}

// TestKeyPanicEndsRun: a panic in a key's handler that the session's
// own key handler passed on (the strategy list's Enter, which picks) ends
// the Run with ReasonPanic, the screen finalised and nothing left behind.
func TestKeyPanicEndsRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startRun(t, "UTF-8", 120, 40, Options{Seed: 3})
		r.onLoop(func() {
			r.s.list.SetSelectedFunc(func(int, string, string, rune) { panic("a pick") })
		})
		r.key(tcell.KeyTab, 0)
		r.key(tcell.KeyEnter, 0)
		r.wait()
		if r.res.Reason != ReasonPanic || r.err == nil || !strings.Contains(r.err.Error(), "a pick") {
			t.Errorf("Run = %+v, %v; want ReasonPanic and the panic", r.res, r.err)
		}
		if w, _ := r.scr.Size(); w != 0 {
			t.Error("screen not finalised")
		}
		synctest.Wait()
		if left := leftBehind(); len(left) > 0 {
			t.Errorf("%d goroutines left behind:\n%s", len(left), strings.Join(left, "\n\n"))
		}
	})
}

// TestListMouse: a click on an item of the strategy list gives it the
// keys and picks the item's strategy; the wheel scrolls a list too long
// for its box.
func TestListMouse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := startRun(t, "UTF-8", 120, 30, Options{Seed: 8, Strategy: pool.FreeList})
		x, y := r.find("6 queue")
		r.scr.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
		r.scr.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
		r.waitFor("a click on queue", func() (ok bool) {
			r.locked(func(w *game.World) { ok = w.Bullets().Strategy() == pool.Queue && w.Debris().Strategy() == pool.Queue })
			return ok
		})
		var focused bool
		var from int
		r.onLoop(func() { focused, from = r.s.list.HasFocus(), offset(r.s.list) })
		if !focused {
			t.Error("the clicked list has not the keys")
		}
		var down, up int
		r.scr.InjectMouse(x, y, tcell.WheelDown, tcell.ModNone)
		r.onLoop(func() { down = offset(r.s.list) })
		r.scr.InjectMouse(x, y, tcell.WheelUp, tcell.ModNone)
		r.onLoop(func() { up = offset(r.s.list) })
		if down != from+1 || up != from {
			t.Errorf("the list scrolled from %d to %d down and %d up, want %d and %d", from, down, up, from+1, from)
		}
	})
}

// TestReplayListMouse: in a replay, whose layout has a line of its own,
// a click on the strategy list holds the replay's pools on the item's
// strategy.
func TestReplayListMouse(t *testing.T) {
	data := recorded(t, 7, 1, 600)
	synctest.Test(t, func(t *testing.T) {
		scr := golden.NewScreen("UTF-8", 120, 40)
		s, err := newReplaySession(scr, data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := startSession(t, scr, s)
		x, y := r.find("6 queue")
		r.scr.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
		r.scr.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
		r.waitFor("a click on queue", func() (ok bool) {
			s.show.(*replayShow).g.View(func(v play.View) {
				ok = v.World.Bullets().Strategy() == pool.Queue && v.World.Debris().Strategy() == pool.Queue
			})
			return ok
		})
	})
}

func offset(l *strategyList) int {
	off, _ := l.GetOffset()
	return off
}

// find returns the cell where text starts on the screen, and fails the
// test where it shows nowhere.
func (r *running) find(text string) (x, y int) {
	r.t.Helper()
	screen := r.text()
	for row, line := range strings.Split(screen, "\n") {
		if i := strings.Index(line, text); i >= 0 {
			return len([]rune(line[:i])), row
		}
	}
	r.t.Fatalf("no %q on screen:\n%s", text, screen)
	return -1, -1
}

// TestLazyLoop: a lazy root draws only what changed, at most once a
// tick. Idle, it draws nothing; the first change after a pause (a key, a
// click, a resize, a refresh that changed what shows) draws at once, and
// the rest of a burst at the next tick only.
func TestLazyLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scr := newSim(t, "UTF-8", 80, 24)
		const fps, every = 10, time.Minute
		var frames, updates atomic.Int64
		l := testLoop(t, scr)
		r := newTestRoot(pace{fps: fps, lazy: true, refreshes: every})
		r.onFrame = func() { frames.Add(1) }
		r.onRefresh = func() bool { return updates.Add(1) > 1 } // the first changes nothing
		start := time.Now()
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			l.show(r)
		}()
		defer func() { r.stop(endCanceled, nil); <-stopped }()
		tick := time.Second / fps
		// check counts the frames drawn since the last check, once the
		// loop has handled what was sent.
		var last int64
		check := func(what string, want int64) {
			t.Helper()
			synctest.Wait()
			n := frames.Load()
			if n-last != want {
				t.Errorf("%s: %d frames, want %d", what, n-last, want)
			}
			last = n
		}
		check("the start", 1)
		time.Sleep(5 * time.Second)
		check("idle", 0)

		for _, change := range []struct {
			name string
			send func()
		}{
			{"a key", func() { scr.InjectKey(tcell.KeyRune, 'z', tcell.ModNone) }},
			{"a click", func() { scr.InjectMouse(3, 4, tcell.Button1, tcell.ModNone) }},
			{"a resize", func() {
				scr.SetSize(100, 30)
				_ = scr.PostEvent(tcell.NewEventResize(100, 30))
			}},
		} {
			change.send()
			check(change.name, 1)
			time.Sleep(tick)
			check(change.name+", a tick after", 0)
		}

		for range 1000 {
			scr.InjectKey(tcell.KeyRune, 'z', tcell.ModNone)
		}
		check("a burst of 1000 keys", 1)
		time.Sleep(tick)
		check("a tick after the burst", 1)
		time.Sleep(2 * tick)
		check("idle again", 0)

		time.Sleep(time.Until(start.Add(every - tick)))
		check("idle till the update", 0)
		if n := updates.Load(); n != 0 {
			t.Fatalf("%d updates before their time", n)
		}
		time.Sleep(tick)
		check("an update that changes nothing", 0)
		if n := updates.Load(); n != 1 {
			t.Errorf("%d updates after %v, want 1", n, every)
		}
		time.Sleep(every)
		check("an update that changes what shows", 1)
	})
}

// TestManualFrames: a session on a Manual clock draws a frame as it
// starts, then one each time the clock has moved a frame's time, and
// none on input: a test drives it frame by frame, outside a synctest
// bubble, without waiting for time to pass.
func TestManualFrames(t *testing.T) {
	const fps = 20
	period := time.Second / fps
	clk := clock.NewManual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	frames := make(chan struct{}, 1)
	scr := golden.NewScreen("UTF-8", 120, 40)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 11, FPS: fps, Clock: clk, Frame: func(bool, uint64) { frames <- struct{}{} }})
	if err != nil {
		t.Fatal(err)
	}
	r := connected(t, scr, s)
	<-frames            // the first, at once
	r.onLoop(func() {}) // the loop waits for its clock now
	none := func(what string) {
		t.Helper()
		r.onLoop(func() {})
		select {
		case <-frames:
			t.Errorf("%s: a frame drawn", what)
		default:
		}
	}
	if !strings.Contains(screenText(scr), "press space to play") {
		t.Fatalf("the first frame shows no title:\n%s", screenText(scr))
	}
	shows := scr.Shows()
	r.key(tcell.KeyRune, ' ') // play: shows at the next frame
	none("a key")
	if phase := s.game().Phase(); phase != match.Play {
		t.Fatalf("after space the game is in phase %v, want play", phase)
	}
	clk.Advance(period - 1)
	none("a frame's time less a nanosecond")
	clk.Advance(1)
	<-frames
	if text := r.text(); strings.Contains(text, "press space to play") {
		t.Errorf("the frame after space still shows the title:\n%s", text)
	}
	for range 10 {
		clk.Advance(period / 2)
		none("half a frame's time")
		clk.Advance(period / 2)
		<-frames
	}
	none("the last frame's time")
	if n := scr.Shows() - shows; n != 11 {
		t.Errorf("%d frames shown in 11 frames' time, want 11", n)
	}
}

// TestHeldKeysCarry: the player's held keys are the loop's, not a
// session's: a key a terminal reports held while the lobby shows (the
// kitty protocol's) is held in the game the lobby starts, without a
// press of its own, until it is let go.
func TestHeldKeysCarry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scr := golden.NewScreen("UTF-8", 120, 40)
		l := newLoop(startedTerminal(t, scr), nil)
		l.keys.Down(input.Fire) // before the session: in the lobby
		s, err := l.playerSession(Options{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		r := connected(t, scr, s)
		synctest.Wait()
		r.onLoop(s.startGame)
		fired := func() (n uint64) {
			r.locked(func(w *game.World) { n = w.Bullets().Stats().Acquires })
			return n
		}
		time.Sleep(time.Second)
		held := fired()
		if held < 3 {
			t.Fatalf("a second into the game with fire held %d shots, want it firing", held)
		}
		l.keys.Up(input.Fire)
		time.Sleep(time.Second / 10) // the last shot of the hold
		after := fired()
		time.Sleep(time.Second)
		if n := fired(); n != after {
			t.Errorf("fire let go: %d more shots", n-after)
		}
	})
}

// connected runs s on its loop, as an entry point does, until the test
// ends; unlike startSession, it waits for nothing.
func connected(t *testing.T, scr *golden.Screen, s *session) *running {
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{t: t, s: s, scr: scr, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.res, r.err = s.run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		r.wait()
	})
	return r
}
