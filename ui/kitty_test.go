package ui

import (
	"context"
	"io"
	"math"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"poolroids/game"
	"poolroids/game/match"
	"poolroids/ui/kitty"
)

// pipeTty is a 120×40 terminal whose keyboard is a pipe.
type pipeTty struct {
	r    *io.PipeReader
	w    *io.PipeWriter
	once sync.Once
}

func newPipeTty() *pipeTty {
	r, w := io.Pipe()
	return &pipeTty{r: r, w: w}
}

func (t *pipeTty) Start() error                { return nil }
func (t *pipeTty) Stop() error                 { return nil }
func (t *pipeTty) Drain() error                { t.once.Do(func() { t.r.Close() }); return nil }
func (t *pipeTty) Close() error                { return t.Drain() }
func (t *pipeTty) NotifyResize(func())         {}
func (t *pipeTty) Read(p []byte) (int, error)  { return t.r.Read(p) }
func (t *pipeTty) Write(p []byte) (int, error) { return len(p), nil }
func (t *pipeTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 120, Height: 40}, nil
}

// TestKittyHeldKeys plays through the kitty filter on a terminal that
// confirms the protocol: a held key turns the ship for as long as it is
// held, with no repeat events at all, and stops on its release report.
// It runs on synctest's clock: the session's loops and tview's are in the
// bubble, so the hold's timings are exact and take no real time.
func TestKittyHeldKeys(t *testing.T) {
	t.Setenv("LANG", "C.UTF-8")
	synctest.Test(t, func(t *testing.T) {
		tty := newPipeTty()
		ktty := kitty.NewTty(tty)
		ti, err := terminfo.LookupTerminfo("xterm-256color")
		if err != nil {
			t.Fatal(err)
		}
		scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(ktty, ti)
		if err != nil {
			t.Fatal(err)
		}
		s, err := newPlayerSession(ownTerminal(scr, ktty.Keys()), Options{Seed: 6, Keys: ktty.Keys()})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = s.run(ctx)
		}()
		defer func() {
			cancel()
			<-done
		}()
		r := &running{t: t, s: s, done: done}
		typeIn := func(b string) {
			if _, err := tty.w.Write([]byte(b)); err != nil {
				t.Fatal(err)
			}
		}
		typeIn("\x1b[?31u") // the terminal confirms flags 31
		r.waitFor("kitty mode", ktty.Keys().Active)
		typeIn("\x1b[32u") // space: play
		r.waitFor("play", func() (ok bool) { return s.game().Phase() == match.Play })

		angle := func() (a float64) { r.locked(func(w *game.World) { a = w.Ship().Angle }); return a }
		turned := func(from float64) float64 { return math.Abs(math.Remainder(angle()-from, 2*math.Pi)) }
		typeIn("\x1b[97u") // a, pressed: held from now on
		time.Sleep(700 * time.Millisecond)
		a0 := angle()
		time.Sleep(150 * time.Millisecond)
		if d := turned(a0); d < 0.2 {
			t.Errorf("0.7 s into a hold without repeats the ship turned %.2f rad in 0.15 s; want it still turning", d)
		}
		typeIn("\x1b[97;1:3u") // a, released
		time.Sleep(100 * time.Millisecond)
		a1 := angle()
		time.Sleep(150 * time.Millisecond)
		if d := turned(a1); d > 1e-9 {
			t.Errorf("after the release the ship turned %.2f rad", d)
		}
	})
}
