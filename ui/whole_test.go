package ui

import (
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/ui/internal/golden"
)

// xtermSurface is the surface of a started xterm-256color terminal of
// w×h, which package vt drives, sized for a frame, and the count of the
// bytes written to the terminal.
func xtermSurface(t *testing.T, w, h int) (*surface, func() int64) {
	t.Helper()
	tty, scr := newXterm(t, w, h)
	sf := newSurface(startedTerminal(t, scr))
	sf.resize()
	return sf, tty.n.Load
}

// TestWholeTwiceSendsNothing: each widget draws all of itself every frame
// into the back buffer, and a frame drawn as the last sends the terminal
// nothing: the first draw sends the widget, the second not a byte.
func TestWholeTwiceSendsNothing(t *testing.T) {
	const w, h = 120, 40
	list := &strategyList{List: tview.NewList(), g: utf8Glyphs, title: " strategy "}
	for _, it := range []string{"1 stack", "2 scan", "3 ring"} {
		list.AddItem(it, "", 0, nil)
	}
	list.SetCurrentItem(1)
	p := newPanel()
	p.fresh = true
	wld, err := game.New(game.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 * game.TPS {
		wld.Step(game.Input{Fire: true})
	}
	a := newArena()
	a.hud.level, a.hud.lives = "rocks", 3
	paint := func() { // as the session does for each frame
		a.place()
		a.paintWorld(wld)
	}
	for _, tt := range []struct {
		name  string
		p     tview.Primitive
		paint func()
	}{
		{"arena", a, paint},
		{"panel", p, func() {}},
		{"strategy list", list, func() {}},
		{"help line", newHelpLine(func(g *glyphs) []helpItem { return g.keyLine }), func() {}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sf, sent := xtermSurface(t, w, h)
			tt.p.SetRect(2, 1, w-4, h-2)
			tt.paint()
			tt.p.Draw(sf)
			sf.Show()
			first := sent()
			if first == 0 {
				t.Fatal("the first draw sent nothing")
			}
			for i := range 2 {
				tt.paint()
				tt.p.Draw(sf)
				sf.Show()
				if n := sent() - first; n != 0 {
					t.Fatalf("draw %d sent %d bytes over an unchanged frame, want 0", i+2, n)
				}
			}
		})
	}
}

// TestChangedBackSendsNothing: a cell set to something else and set back
// within a frame is not sent: a widget drawn over a scribble of the same
// frame sends nothing.
func TestChangedBackSendsNothing(t *testing.T) {
	sf, sent := xtermSurface(t, 80, 24)
	help := newHelpLine(func(g *glyphs) []helpItem { return g.keyLine })
	help.SetRect(0, 23, 80, 1)
	help.Draw(sf)
	sf.Show()
	first := sent()
	for x := range 80 {
		sf.Put(x, 23, "#", alertStyle)
	}
	help.Draw(sf)
	sf.Show()
	if n := sent() - first; n != 0 {
		t.Errorf("a line scribbled over and drawn back sent %d bytes, want 0", n)
	}
}

// TestLineDrawsWhole: a box's lines drawn every frame over the last, on
// the screen of a terminal that tcell draws, show what the same lines
// drawn on a cleared screen show, whether their bytes changed (in runes
// of one byte or more), a run's style, or the number of runs.
func TestLineDrawsWhole(t *testing.T) {
	red := tcell.StyleDefault.Foreground(tcell.ColorRed)
	type run struct {
		s  string
		st tcell.Style
	}
	frames := [][]run{
		{{"ann ", headStyle}, {"  120", valueStyle}, {" 3", red}},
		{{"ann ", headStyle}, {"  125", valueStyle}, {" 3", red}},    // digits
		{{"ann ", headStyle}, {"  125", red}, {" 3", red}},           // a run's style
		{{"ann ", headStyle}, {"  125", red}},                        // a run fewer
		{{"añn ", headStyle}, {"  125", red}},                        // a rune of two bytes
		{{"añn ", headStyle}, {"  12", red}, {"5", valueStyle}},      // a run more
		{{"añé ", headStyle}, {"  12", red}, {"5", valueStyle}},      // after one of two bytes
		{{"aéé ", headStyle}, {"  12", red}, {"5 and more", red}},    // within a rune of two bytes; a run
		{{"aéé ", headStyle}, {"  12", red}, {"5 and more", red}},    // nothing
		{{"x", valueStyle}, {"", red}, {"yz", headStyle}, {"", red}}, // empty runs
	}
	drawn := golden.NewScreen("UTF-8", 30, 1)
	sf := newSurface(startedTerminal(t, drawn))
	sf.resize()
	whole := newSim(t, "UTF-8", 30, 1)
	lines := newTextLines(1)
	for i, f := range frames {
		l := lines.next()
		for _, r := range f {
			l.style(r.st).str(r.s)
		}
		lines.settle()
		lines.draw(sf, 0, 0, 30, 1)
		sf.Show()
		whole.Clear()
		lines.draw(whole, 0, 0, 30, 1)
		whole.Show()
		a, _, _ := drawn.GetContents()
		b, _, _ := whole.GetContents()
		for x := range a {
			if !sameLook(a[x], b[x]) {
				t.Fatalf("frame %d, cell %d: drawn over %q in %v, on a cleared screen %q in %v", i, x, string(a[x].Runes), a[x].Style, string(b[x].Runes), b[x].Style)
			}
		}
	}
}

// TestDrawOverScribbles: what another widget scribbles over a widget's
// cells between its frames is gone after its next frame, though it
// draws only what changed where its area holds what it drew (see
// vt.Frame.Stamp): twins drawn on two screens, one scribbled over now
// and then, show the same in the widget's cells after every frame.
func TestDrawOverScribbles(t *testing.T) {
	const w, h = 100, 30
	wld, err := game.New(game.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	twins := func() tview.Primitive {
		a := newArena()
		a.hud.level, a.hud.lives = "rocks", 3
		return a
	}
	for _, tt := range []struct {
		name string
		make func() tview.Primitive
	}{
		{"arena", twins},
		{"strategy list", func() tview.Primitive {
			list := &strategyList{List: tview.NewList(), g: utf8Glyphs, title: " strategy "}
			for _, it := range []string{"1 stack", "2 scan", "3 ring"} {
				list.AddItem(it, "", 0, nil)
			}
			return list
		}},
		{"help line", func() tview.Primitive { return newHelpLine(func(g *glyphs) []helpItem { return g.keyLine }) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var scrs [3]*golden.Screen
			var sfs [3]*surface
			var ps [3]tview.Primitive
			for i := range 3 {
				scrs[i] = golden.NewScreen("UTF-8", w, h)
				sfs[i] = newSurface(startedTerminal(t, scrs[i]))
				sfs[i].resize()
				ps[i] = tt.make()
				ps[i].SetRect(1, 1, w-2, h-2)
			}
			// The widget's cells: those it draws over a screen full of §.
			for y := range h {
				for x := range w {
					sfs[2].Put(x, y, "§", tcell.StyleDefault)
				}
			}
			if a, ok := ps[2].(*arena); ok {
				a.place()
				a.paintWorld(wld)
			}
			ps[2].Draw(sfs[2])
			sfs[2].Show()
			owned, _, _ := scrs[2].GetContents()
			rnd := rand.New(rand.NewPCG(7, 8))
			for frame := range 60 {
				for range 3 {
					wld.Step(game.Input{Fire: true, Left: frame%20 < 10})
				}
				if frame%3 == 1 { // another widget's drawing over this one's cells
					for range 1 + rnd.IntN(40) {
						x, y := rnd.IntN(w), rnd.IntN(h)
						sfs[0].Put(x, y, "#", alertStyle)
						if rnd.IntN(4) == 0 {
							sfs[0].Put(x, y, string(rune('a'+rnd.IntN(26))), tcell.StyleDefault)
						}
					}
				}
				for i, p := range ps[:2] {
					if a, ok := p.(*arena); ok {
						a.place()
						a.paintWorld(wld)
					}
					p.Draw(sfs[i])
					sfs[i].Show()
				}
				a, _, _ := scrs[0].GetContents()
				b, _, _ := scrs[1].GetContents()
				for i := range a {
					if string(owned[i].Runes) != "§" && !sameLook(a[i], b[i]) {
						t.Fatalf("frame %d, cell (%d,%d): %q in %v over scribbles, %q in %v without", frame, i%w, i/w,
							string(a[i].Runes), a[i].Style, string(b[i].Runes), b[i].Style)
					}
				}
			}
		})
	}
}
