package web

import (
	"context"
	"testing"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/input"
)

// TestScreen plays a Screen as ui does: the cells it is shown reach the
// page, a frame shown again as it is sends nothing, keys come as tcell's,
// and the game's keys go down and up in the Keys held, a control held
// while any of its keys is.
func TestScreen(t *testing.T) {
	t.Parallel()
	var keys input.Keys
	marks := make(chan rune, 16) // the z keys the session saw, after the keys before them
	srv, _ := serve(t, SessionFunc(func(ctx context.Context, c *Conn) error {
		scr := NewScreen(ctx, c)
		scr.Hold(&keys)
		defer scr.Hold(nil)
		f := scr.Cells()
		f.Resize(scr.Size())
		put := func(s string) {
			for x := 0; s != ""; x++ {
				s, _ = f.Put(x, 0, s, tcell.StyleDefault.Foreground(tcell.ColorYellow))
			}
			scr.Show()
		}
		put("hello")
		for {
			select {
			case <-ctx.Done():
				return nil
			case ev := <-scr.Events():
				k, ok := ev.(*tcell.EventKey)
				switch {
				case !ok:
				case k.Rune() == 'r':
					put("hello") // the same cells again
				case k.Rune() == 'm':
					put("moved")
				case k.Rune() == 'z':
					marks <- 'z'
				}
			}
		}
	}), Config{})
	c := lobby(t, srv)
	if got := c.row(0); got != "hello" || c.grid.At(0, 0).Fg != PaletteColor(11) {
		t.Fatalf("the first frame shows %q in %v", got, c.grid.At(0, 0).Fg)
	}
	for range 10 {
		c.send(AppendKey(nil, Event{Type: KeyPress, Key: 'r'}))
	}
	c.send(AppendKey(nil, Event{Type: KeyPress, Key: 'm'}))
	frames := 0
	c.until("the moved frame", func() bool { frames++; return c.row(0) == "moved" })
	if frames != 2 {
		t.Errorf("the page got %d frames after the first, want 1: ten frames the same sent nothing", frames-1)
	}

	step := func(evs ...Event) game.Input {
		t.Helper()
		for _, ev := range evs {
			c.send(AppendKey(nil, ev))
		}
		c.send(AppendKey(nil, Event{Type: KeyPress, Key: 'z'}))
		<-marks
		return keys.Step(true)
	}
	down := func(k Key) Event { return Event{Type: KeyPress, Key: k} }
	up := func(k Key) Event { return Event{Type: KeyRelease, Key: k} }
	if in := step(down(KeyLeft), down('a')); !in.Left {
		t.Error("← and a held: not turning left")
	}
	if in := step(up(KeyLeft)); !in.Left {
		t.Error("a still held after ← went up: not turning left")
	}
	if in := step(up('a')); in.Left {
		t.Error("no key of Left held: still turning")
	}
	if in := step(down(' ')); !in.Fire {
		t.Error("space held: not firing")
	}
	if in := step(down(KeyUp)); !in.Fire || !in.Thrust {
		t.Errorf("space and ↑ held: %+v", in)
	}
	if in := step(up(' '), up(KeyUp), Event{Type: KeyPress, Key: 'w', Mod: ModCtrl}); in.Thrust || in.Fire {
		t.Errorf("after letting go, ctrl-w: %+v, want nothing", in)
	}
}
