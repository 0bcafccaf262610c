package ui

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/pool"
)

// TestSharedRaster: the seats of an arena that draw one step at one size
// paint it once, the others copying that painting (a mark put into it
// shows on their screens); a seat at another size, and every seat after
// a step, paints anew. A copy shows what the seat would have painted.
func TestSharedRaster(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{Size: 8})
		ann, seat := arenaSession(t, h, "ann", 120, 40)
		seat.SetAutopilot(true)
		bob, _ := arenaSession(t, h, "bob", 120, 40)
		cat, _ := arenaSession(t, h, "cat", 100, 30)
		time.Sleep(2 * time.Second) // the arena steps
		set := rastersOf(ann.seat().Arena())
		const mark = "⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿"
		drawArena(ann, 120, 40)
		set.mu.Lock()
		for i := range set.rs {
			if r := &set.rs[i]; r.w == ann.arena.cv.w && r.h == ann.arena.cv.h {
				for j := range r.cells {
					r.cells[j] = cell{bits: 0xff, ink: inkAsteroid}
				}
			}
		}
		set.mu.Unlock()
		if f := fieldText(bob, 120, 40); !strings.Contains(f, mark) {
			t.Errorf("bob painted the step himself, not copying ann's painting:\n%s", f)
		}
		if f := fieldText(cat, 100, 30); strings.Contains(f, mark) {
			t.Errorf("cat, at another size, copied ann's painting:\n%s", f)
		}
		time.Sleep(time.Second / 30) // a step or two
		copied := fieldText(bob, 120, 40)
		if strings.Contains(copied, mark) {
			t.Errorf("bob copied a painting of an earlier step:\n%s", copied)
		}
		set.mu.Lock()
		set.rs = [maxRasters]raster{} // none to copy: ann paints her own
		set.mu.Unlock()
		if own := fieldText(ann, 120, 40); own != copied {
			t.Errorf("bob's field:\n%s\nann's, painted by herself:\n%s", copied, own)
		}
	})
}

// fieldText draws an arena session's frame at w×h and returns the text of
// its field.
func fieldText(s *session, w, h int) string {
	drawArena(s, w, h)
	cells, sw, _ := s.sim().GetContents()
	var b strings.Builder
	f := s.arena.frame
	for y := f.y; y < f.y+f.h; y++ {
		for x := f.x; x < f.x+f.w; x++ {
			b.WriteString(string(cells[y*sw+x].Runes))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestLabelsKept: on the session's screen, the names by ships that did
// not move are not set again: a mark put on one stays through a frame in
// which nothing changed, and goes once the name moves.
func TestLabelsKept(t *testing.T) {
	scr := newSim(t, "UTF-8", 120, 40)
	s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 9, Stress: true})
	if err != nil {
		t.Fatal(err)
	}
	s.root.SetRect(0, 0, 120, 40)
	step := crowd(t, true, s)
	draw := func() {
		s.screen.resize() // as every frame does
		s.root.Draw(s.screen)
		s.screen.Show()
	}
	draw()
	draw()
	_, over := s.arena.overlay()
	x, y, w := visible(&s.arena.cv, s.arena.frame, &s.arena.labels[0], over)
	if w == 0 {
		t.Fatal("the first name does not show")
	}
	marked := func() bool {
		str, _, _ := scr.Get(x, y)
		return str == "#"
	}
	scr.Put(x, y, "#", tcell.StyleDefault)
	draw()
	if !marked() {
		t.Error("a name that stayed was set again")
	}
	for range 30 {
		step()
	}
	draw()
	if marked() {
		t.Error("the mark stays after the ships moved on")
	}
}

// TestPlayersEvery: on the session's screen the players box follows the
// arena every playersEvery, not every frame: a switch of the pools made
// meanwhile shows from the first frame after it.
func TestPlayersEvery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{Size: 8})
		ann, seat := arenaSession(t, h, "ann", 120, 40)
		scr := ann.sim()
		box := func() string { // a frame, as tview draws it; the box's text
			ann.root.SetRect(0, 0, 120, 40)
			ann.screen.resize()
			ann.root.Draw(ann.screen)
			ann.screen.Show()
			cells, w, _ := scr.GetContents()
			var b strings.Builder
			x, y, bw, bh := ann.players.GetRect()
			for r := y; r < y+bh; r++ {
				for c := x; c < x+bw; c++ {
					b.WriteString(string(cells[r*w+c].Runes))
				}
			}
			return b.String()
		}
		box()
		time.Sleep(playersEvery)
		box()
		if err := seat.SetStrategies(pool.Dense, pool.Dense); err != nil {
			t.Fatal(err)
		}
		time.Sleep(playersEvery / 2)
		if text := box(); strings.Contains(text, "ann at") {
			t.Errorf("the box followed the arena within playersEvery: %q", text)
		}
		time.Sleep(playersEvery / 2)
		if text := box(); !strings.Contains(text, "ann at") {
			t.Errorf("the box does not show the switch playersEvery after it: %q", text)
		}
	})
}

// TestSeatFrameAllocs: an arena seat's field on its own terminal (the
// painting made, the names, the output) allocates nothing a frame once
// its buffers have grown, while fifteen autopilots fly. (The seat's own
// player holds still, so that the header's score, whose string is made
// anew when it changes, stays.)
func TestSeatFrameAllocs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, hub.Config{Size: game.MaxShips})
		seat, err := h.Join(hub.Request{Arena: "den", Player: "ann"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(seat.Leave)
		for i := 1; i < game.MaxShips; i++ {
			_, other := arenaSession(t, h, "p"+string(rune('a'+i)), 120, 40)
			other.SetAutopilot(true)
		}
		_, scr := newXterm(t, 120, 40)
		s, err := newPlayerSession(ownTerminal(scr, nil), Options{Arena: seat})
		if err != nil {
			t.Fatal(err)
		}
		startTerm(t, s)
		if !s.term.(*terminal).direct {
			t.Fatal("the screen does not write its own frames")
		}
		s.root.SetRect(0, 0, 120, 40)
		s.root.Draw(s.screen)
		ar := seat.Arena()
		steps := func() (n uint64) {
			ar.View(func(v hub.ArenaView) { n = v.World().Steps() })
			return n
		}
		frame := func() {
			for n := steps(); steps() == n; { // a step: the frame paints it
				time.Sleep(time.Millisecond)
			}
			s.arena.Draw(s.screen)
			s.screen.Show()
		}
		for range 40 {
			frame() // buffers grown, the arena busy
		}
		if n := testing.AllocsPerRun(30, frame); n != 0 {
			t.Errorf("%v allocs per frame, want 0", n)
		}
	})
}
