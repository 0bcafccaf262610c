package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/play"
	"poolroids/game/replay"
	"poolroids/game/replay/replaytest"
	"poolroids/pool"
	"poolroids/ui/internal/golden"
)

// recorded records steps of the autopilot on the test levels: a solo game
// of seed (ships 1) or an arena of autopilots. Halfway the pools switch to
// bitset, as a player's key would.
func recorded(t testing.TB, seed uint64, ships, steps int) []byte {
	t.Helper()
	opt := replay.Options{}
	if ships == 1 {
		opt.Players = []string{"autopilot"}
	}
	return replaytest.Record(t, game.Config{Levels: testLevels(t), Seed: seed, Ships: ships}, opt, steps)
}

// panelLine is the line of the side panel that starts with label, its
// fields joined by single spaces.
func panelLine(text, label string) string {
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, "│"+label); i >= 0 {
			return strings.Join(strings.Fields(strings.Trim(l[i:], "│ ")), " ")
		}
	}
	return ""
}

// watched is a replay session drawn frame by frame as tview draws it,
// without its goroutines: the test ticks and types.
type watched struct {
	*drawn
	v *replayShow
}

func newWatched(t *testing.T, data []byte, w, h int) *watched {
	t.Helper()
	return newWatchedWith(t, data, w, h, Options{})
}

func newWatchedWith(t *testing.T, data []byte, w, h int, opts Options) *watched {
	t.Helper()
	scr := newSim(t, "UTF-8", w, h)
	s, err := newReplaySession(scr, data, opts)
	if err != nil {
		t.Fatal(err)
	}
	return &watched{drawn: drawnOn(t, scr, s, opts.ASCII), v: s.show.(*replayShow)}
}

func (d *watched) ticks(n int) {
	for range n {
		d.v.g.Tick()
	}
}

func (d *watched) press(keys ...any) {
	for _, k := range keys {
		var ev *tcell.EventKey
		switch k := k.(type) {
		case rune:
			ev = tcell.NewEventKey(tcell.KeyRune, k, tcell.ModNone)
		case tcell.Key:
			ev = tcell.NewEventKey(k, 0, tcell.ModNone)
		}
		d.s.onKey(ev)
	}
}

// view is the replay as it stands; its World is for reading between
// ticks only.
func (d *watched) view() play.View {
	var v play.View
	d.v.g.View(func(rv play.View) { v = rv })
	return v
}

// step is the step the replay is at; sum the world's checksum.
func (d *watched) step() uint64 { return d.view().Replay.Step }

func (d *watched) sum() uint64 { return d.view().World.Checksum() }

// status is the bottom line of the last frame.
func (d *watched) status() string {
	d.frame()
	lines := strings.Split(d.text(), "\n")
	return lines[len(lines)-2] // the text ends with a newline
}

// seekDone ticks until the seek under way is over, at most n ticks.
func (d *watched) seekDone(n int) int {
	d.t.Helper()
	for i := range n {
		d.ticks(1)
		if d.view().Replay.State != play.ReplaySeeking {
			return i + 1
		}
	}
	d.t.Fatalf("still seeking after %d ticks, at step %d", n, d.step())
	return 0
}

// A recorded autopilot game plays at the recording's pace, one step a
// tick, with the arena, the panel and the status line (replay-start-80x24,
// replay-1s-80x24), to the recorded checksums and its end
// (replay-end-80x24).
func TestReplayPlays(t *testing.T) { synctest.Test(t, testReplayPlays) }

func testReplayPlays(t *testing.T) {
	data := recorded(t, 3, 1, 1200)
	d := newWatched(t, data, 80, 24)
	d.looksLike("replay-start-80x24")
	d.ticks(90)
	if got := d.step(); got != 90 {
		t.Errorf("after 90 ticks at ×1: step %d, want 90", got)
	}
	if got, want := d.sum(), replaytest.SumAt(t, data, 90); got != want {
		t.Errorf("checksum at step 90: %016x, want %016x", got, want)
	}
	d.looksLike("replay-1s-80x24")
	d.ticks(1200)
	if d.step() != 1200 || d.view().Replay.Err != nil {
		t.Errorf("at the end: step %d, err %v", d.step(), d.view().Replay.Err)
	}
	d.looksLike("replay-end-80x24")
	d.press(' ') // again, from the start
	d.ticks(2)
	if got := d.step(); got != 1 {
		t.Errorf("space at the end: step %d after two ticks, want 1 (a seek to 0, then a step)", got)
	}
}

// Space pauses: ticks play nothing (replay-paused-100x30); . plays one
// step; space resumes.
func TestReplayPause(t *testing.T) { synctest.Test(t, testReplayPause) }

func testReplayPause(t *testing.T) {
	d := newWatched(t, recorded(t, 4, 1, 600), 100, 30)
	d.ticks(10)
	d.press(' ')
	d.ticks(30)
	if got := d.step(); got != 10 {
		t.Errorf("paused: step %d after 30 more ticks, want 10", got)
	}
	d.looksLike("replay-paused-100x30")
	d.press('.', '.', '.')
	if got := d.step(); got != 13 {
		t.Errorf("three single steps: step %d, want 13", got)
	}
	d.press('p')
	d.ticks(5)
	if got := d.step(); got != 18 {
		t.Errorf("resumed: step %d after 5 ticks, want 18", got)
	}
	d.press('.') // pauses, and steps
	d.ticks(5)
	if got := d.step(); got != 19 {
		t.Errorf(". while playing: step %d, want 19 and paused", got)
	}
}

// + and - double and halve the steps a tick plays, from ×¼ to ×16.
func TestReplaySpeed(t *testing.T) {
	d := newWatched(t, recorded(t, 5, 1, 3000), 100, 30)
	for _, c := range []struct {
		keys  []any
		speed string
		steps uint64 // in 8 ticks
	}{
		{nil, "×1", 8},
		{[]any{'+'}, "×2", 16},
		{[]any{']'}, "×4", 32},
		{[]any{'+', '+', '+', '+'}, "×16", 128}, // no faster than ×16
		{[]any{'-', '[', '-', '-'}, "×1", 8},
		{[]any{'-'}, "×½", 4},
		{[]any{'-', '-'}, "×¼", 2}, // no slower than ×¼
	} {
		d.press(c.keys...)
		from := d.step()
		d.ticks(8)
		if got := d.step() - from; got != c.steps {
			t.Errorf("%s: %d steps in 8 ticks, want %d", c.speed, got, c.steps)
		}
		if st := d.status(); !strings.Contains(st, c.speed+" ") {
			t.Errorf("%s: status %q", c.speed, st)
		}
	}
}

// Seeking back replays from the start, in strides between frames
// (replay-seeking-80x24), and reaches the very world the recording had
// there (replay-sought-80x24); seeking forward too.
func TestReplaySeek(t *testing.T) { synctest.Test(t, testReplaySeek) }

func testReplaySeek(t *testing.T) {
	data := recorded(t, 6, 1, 3000)
	d := newWatched(t, data, 80, 24)
	d.press(tcell.KeyRight, tcell.KeyRight, tcell.KeyRight) // to 0:30
	d.seekDone(100)
	if got, want := d.sum(), replaytest.SumAt(t, data, 1800); d.step() != 1800 || got != want {
		t.Fatalf("seek to 0:30: step %d checksum %016x, want 1800 and %016x", d.step(), got, want)
	}

	d.press(tcell.KeyLeft)
	d.looksLike("replay-seeking-80x24")
	d.seekDone(100)
	if got, want := d.sum(), replaytest.SumAt(t, data, 1200); d.step() != 1200 || got != want {
		t.Errorf("seek back to 0:20: step %d checksum %016x, want 1200 and %016x", d.step(), got, want)
	}
	d.looksLike("replay-sought-80x24")

	d.press(tcell.KeyRight)
	d.seekDone(100)
	if got, want := d.sum(), replaytest.SumAt(t, data, 1800); d.step() != 1800 || got != want {
		t.Errorf("seek forward to 0:30 again: step %d checksum %016x, want 1800 and %016x", d.step(), got, want)
	}
	d.press(tcell.KeyLeft, tcell.KeyLeft, tcell.KeyLeft, tcell.KeyLeft) // before the start: to it
	d.seekDone(100)
	if got, want := d.sum(), replaytest.SumAt(t, data, 0); d.step() != 0 || got != want {
		t.Errorf("seek back past the start: step %d checksum %016x, want 0 and %016x", d.step(), got, want)
	}
}

// The watcher's strategy changes the pools' figures, never the game: the
// checksums keep matching, through seeks, and the recorded switch no
// longer applies.
func TestReplayStrategySwitch(t *testing.T) {
	data := recorded(t, 7, 1, 2400)
	d := newWatched(t, data, 120, 40)
	all := pool.Strategies()
	strategyRow := func() string {
		d.frame()
		return panelLine(d.text(), "strategy ")
	}
	d.press('3')
	if got, want := strategyRow(), "strategy "+string(all[2])+" "+string(all[2]); got != want {
		t.Errorf("after 3: panel %q, want %q", got, want)
	}
	d.press('+', '+', '+', '+')
	d.ticks(80) // to step 1280, past the recorded switch to bitset
	if got, want := strategyRow(), "strategy "+string(all[2])+" "+string(all[2]); got != want {
		t.Errorf("past the recorded switch: panel %q, want %q", got, want)
	}
	if got, want := d.sum(), replaytest.SumAt(t, data, 1280); got != want || d.view().Replay.Err != nil {
		t.Errorf("checksum at 1280: %016x, want %016x (%v)", got, want, d.view().Replay.Err)
	}

	d.press('b', '5') // the bullets only
	want := "strategy " + string(all[4]) + " " + string(all[2])
	if got := strategyRow(); got != want {
		t.Errorf("after b 5: panel %q, want %q", got, want)
	}
	d.press(tcell.KeyLeft)
	d.seekDone(100)
	if got := strategyRow(); got != want || d.step() != 680 {
		t.Errorf("after a seek back to step %d: panel %q, want %q", d.step(), got, want)
	}
	d.ticks(200)
	if d.step() != 2400 || d.view().Replay.Err != nil {
		t.Errorf("to the end with the watcher's strategies: step %d, %v", d.step(), d.view().Replay.Err)
	}
}

// ? shows the replay's keys, which the status line offers at 80 columns
// (replay-help-line-80x24, replay-help-80x24); the next key takes the help
// down (replay-help-closed-80x24) and does nothing else.
func TestReplayHelp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := newWatched(t, recorded(t, 7, 1, 600), 80, 24)
		d.looksLike("replay-help-line-80x24")
		d.press('?')
		d.looksLike("replay-help-80x24")
		d.press('+')
		d.looksLike("replay-help-closed-80x24")
		if d.view().Replay.Speed != play.SpeedNormal {
			t.Errorf("+ under the help: speed %d", d.view().Replay.Speed)
		}
	})
}

// The recorded strategy switch shows in the panel and the list when the
// watcher holds none.
func TestReplayRecordedSwitch(t *testing.T) {
	d := newWatched(t, recorded(t, 7, 1, 600), 120, 40)
	d.ticks(301)
	d.press(tcell.KeyF64) // not the frame key: nothing
	d.frame()
	if row := strings.Fields(panelLine(d.text(), "strategy ")); len(row) != 3 || row[1] != string(pool.Bitset) {
		t.Errorf("after the recorded switch: panel %q", row)
	}
	if got := d.s.list.listed; got != [2]pool.Strategy{pool.Bitset, pool.Bitset} {
		t.Errorf("the list shows %v", got)
	}
}

// Options.Strategy holds the pools from the start: the recorded switch
// does not apply, and the game is the same. An unknown one is an error.
func TestReplayHeldFromStart(t *testing.T) {
	data := recorded(t, 7, 1, 600)
	d := newWatchedWith(t, data, 120, 40, Options{Strategy: pool.Scan})
	d.ticks(600)
	d.frame()
	if got, want := panelLine(d.text(), "strategy "), "strategy scan scan"; got != want || d.view().Replay.Err != nil {
		t.Errorf("held to scan, at the end: panel %q, want %q (%v)", got, want, d.view().Replay.Err)
	}
	if _, err := newReplaySession(newSim(t, "UTF-8", 80, 24), data, Options{Strategy: "heap"}); err == nil {
		t.Error("strategy heap: no error")
	}
}

// A replay that differs from its recording stops at the first checksum
// that differs, and says so (replay-differs-80x24); a key it refuses says
// why (replay-differs-refused-80x24).
func TestReplayDiffers(t *testing.T) { synctest.Test(t, testReplayDiffers) }

func testReplayDiffers(t *testing.T) {
	data := recorded(t, 8, 1, 1500)
	r, err := replay.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var flip replay.Event
	for flip.Step < 600 || flip.Kind != replay.Input || flip.Steps == 0 || flip.In.Hyperspace {
		if flip, err = r.Next(); err != nil {
			t.Fatalf("no input to flip after step 600: %v", err)
		}
	}
	data[flip.Offset] ^= 16 // hyperspace: it always moves a living ship
	due := (flip.Step/replay.DefaultEvery + 1) * replay.DefaultEvery

	d := newWatched(t, data, 80, 24)
	d.press('+', '+', '+', '+')
	d.ticks(100)
	var m *replay.MismatchError
	if err := d.view().Replay.Err; !errors.As(err, &m) || m.Step != due || d.step() != due {
		t.Fatalf("stopped at step %d with %v; want a mismatch at step %d", d.step(), err, due)
	}
	d.looksLike("replay-differs-80x24")
	d.press('.') // refused: the border says why
	d.looksLike("replay-differs-refused-80x24")
	if d.step() != due {
		t.Errorf(". where it differs: step %d, want %d", d.step(), due)
	}
}

// An arena's replay shows every ship with its player's name, and the
// best score in the header, no one ship's lives (replay-arena-120x40).
func TestReplayArenaNames(t *testing.T) { synctest.Test(t, testReplayArenaNames) }

func testReplayArenaNames(t *testing.T) {
	d := newWatched(t, recorded(t, 9, 3, 900), 120, 40)
	d.ticks(400)
	d.frame()
	if got := d.s.arena.names[:3]; got[0] != "autopilot 0" || got[1] != "autopilot 1" || got[2] != "autopilot 2" {
		t.Errorf("names %q", got)
	}
	// Slot 0's name may lie under another's: the ships meet at the centre.
	d.looksLike("replay-arena-120x40")
}

// A tick and the status line allocate nothing in steady state.
func TestReplayAllocs(t *testing.T) {
	d := newWatched(t, recorded(t, 10, 1, 3000), 100, 30)
	d.ticks(100)
	d.frame()
	if n := testing.AllocsPerRun(50, func() { d.v.status.Draw(d.s.screen) }); n != 0 {
		t.Errorf("status line: %v allocs per draw, want 0", n)
	}
	paint := func(v play.View) { d.s.paint(&v) }
	if n := testing.AllocsPerRun(50, func() { d.s.scene.View(paint) }); n != 0 {
		t.Errorf("painting the arena: %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(50, func() { d.s.scene.View(d.s.takeFn) }); n != 0 {
		t.Errorf("a frame's View: %v allocs, want 0", n)
	}
}

// RunReplay plays on its own clock, and q ends it with the terminal
// finalised; a file that is no replay is an error before anything is
// drawn.
func TestRunReplay(t *testing.T) {
	data := recorded(t, 11, 1, 1200)
	synctest.Test(t, func(t *testing.T) {
		scr := golden.NewScreen("UTF-8", 80, 24)
		s, err := newReplaySession(scr, data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan Result)
		go func() {
			res, err := s.run(context.Background())
			if err != nil {
				t.Error(err)
			}
			done <- res
		}()
		time.Sleep(time.Second + 20*time.Millisecond) // 61 ticks of a clock a little fast
		synctest.Wait()
		d := watched{v: s.show.(*replayShow)}
		step := d.step()
		if step != game.TPS {
			t.Errorf("a second in: step %d, want %d", step, game.TPS)
		}
		scr.InjectKey(tcell.KeyRune, ' ', tcell.ModNone)
		time.Sleep(time.Second)
		synctest.Wait()
		paused := d.step()
		if paused > step+1 {
			t.Errorf("paused a second: from step %d to %d", step, paused)
		}
		scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
		if res := <-done; res.Reason != ReasonQuit {
			t.Errorf("q: %+v", res)
		}
	})

	scr := golden.NewScreen("UTF-8", 80, 24)
	var fe *replay.FormatError
	if _, err := RunReplay(context.Background(), scr, []byte("PRPX"), Options{}); !errors.As(err, &fe) || fe.Offset != 0 {
		t.Errorf("a file that is no replay: %v", err)
	}
	if w, _ := scr.Size(); w != 0 {
		t.Errorf("the screen was initialised: %d columns", w)
	}
}

// A replay whose final checksum differs says so at its end
// (replay-differs-at-end-80x24).
func TestReplayDiffersAtTheEnd(t *testing.T) { synctest.Test(t, testReplayDiffersAtTheEnd) }

func testReplayDiffersAtTheEnd(t *testing.T) {
	data := recorded(t, 8, 1, 1001) // ×16 ticks overshoot the end
	data[len(data)-1] ^= 1
	d := newWatched(t, data, 80, 24)
	d.press(tcell.KeyRight)
	d.seekDone(100)
	d.press('+', '+', '+', '+')
	d.ticks(100)
	if err := d.view().Replay.Err; err == nil || d.step() != 1001 {
		t.Errorf("at step %d: %v; want the mismatch at step 1001", d.step(), err)
	}
	d.looksLike("replay-differs-at-end-80x24")
}
