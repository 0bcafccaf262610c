package ui

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
)

// BenchmarkArenaFrame measures what one arena frame costs the terminal: a
// 120×40 xterm-256color screen of a session in an arena of sixteen ships,
// every one flown by the max-pressure autopilot (holding fire, as the load
// benchmark's arenas), two world steps a frame (60 steps a second at 30
// frames a second). bytes/frame is what tcell writes, of which moves/frame
// cursor moves and sgr-bytes/frame the bytes of style changes.
func BenchmarkArenaFrame(b *testing.B) {
	tty, scr := newTerminal(b, 120, 40)
	s := benchSession(b, scr)
	step := crowd(b, false, s)
	s.root.SetRect(0, 0, 120, 40)
	frame := func() {
		step()
		step()
		s.screen.Clear()
		s.root.Draw(s.screen)
		s.screen.Show()
	}
	frame()
	var st frameStats
	tty.tap = st.add
	b.ReportAllocs()
	for b.Loop() {
		frame()
	}
	tty.tap = nil
	n := float64(b.N)
	b.ReportMetric(float64(st.bytes)/n, "bytes/frame")
	b.ReportMetric(float64(st.moves)/n, "moves/frame")
	b.ReportMetric(float64(st.sgrBytes)/n, "sgr-bytes/frame")
	b.ReportMetric(float64(st.bytes)*30/1024/n, "KiB/s@30fps")
}

// crowd gives the sessions ss one world of sixteen ships flown by the
// max-pressure autopilot, named as in an arena, busy after ten seconds of
// play, and returns what steps it. The autopilots mostly hold still; with
// restless every ship also thrusts, so that ships and names move about.
func crowd(t testing.TB, restless bool, ss ...*session) (step func()) {
	t.Helper()
	w, err := game.New(game.Config{Seed: 9, Ships: game.MaxShips})
	if err != nil {
		t.Fatal(err)
	}
	var aps [game.MaxShips]game.Autopilot
	for i := range aps {
		if err := w.Join(i); err != nil {
			t.Fatal(err)
		}
		aps[i] = game.Autopilot{Pressure: true, Slot: i}
		for _, s := range ss {
			s.names[i] = "player" + string(rune('a'+i))
		}
	}
	for _, s := range ss {
		s.world = w
	}
	var in game.Inputs
	step = func() {
		for i := range aps {
			in[i] = aps[i].Input(w)
			if restless {
				in[i].Thrust = true
				in[i].Left = w.Steps()/30%2 == 0
			}
		}
		w.StepAll(&in)
	}
	for range 10 * game.TPS {
		step()
	}
	return step
}

// TestKeptArenaFrames checks that arena frames drawn over the last one,
// as the game draws them, show what a whole redraw shows, the players'
// names too, while sixteen ships fly about and the names move with them:
// at once but for debris and rocks on the rows whose changes to them
// wait, and all of it once drawn lateRows times.
func TestKeptArenaFrames(t *testing.T) {
	const w, h = 120, 40
	var ss [2]*session
	var scrs [2]tcell.SimulationScreen
	for i := range ss {
		scrs[i] = newSim(t, "UTF-8", w, h)
		s, err := newSession(scrs[i], Options{Seed: 9, Stress: true})
		if err != nil {
			t.Fatal(err)
		}
		s.root.SetRect(0, 0, w, h)
		ss[i] = s
	}
	step := crowd(t, true, ss[0], ss[1])
	kept, whole := ss[0], ss[1]
	// compare fails on a cell of the field that differs, but for debris
	// and rocks (or their absence) on the rows that wait.
	compare := func(frame, draw int, waits func(y int) bool) {
		t.Helper()
		a, aw, ah := scrs[0].GetContents()
		b, _, _ := scrs[1].GetContents()
		f := kept.arena.frame
		for y := f.y; y < f.y+f.h && y < ah; y++ {
			for x := f.x; x < f.x+f.w && x < aw; x++ {
				ca, cb := a[y*aw+x], b[y*aw+x]
				if sameLook(ca, cb) || waits(y-f.y) && slowOrBlank(ca) && slowOrBlank(cb) {
					continue
				}
				t.Fatalf("frame %d, draw %d: cell (%d,%d) shows %q, a whole redraw %q\nkept:\n%s\nwhole:\n%s",
					frame, draw, x, y, string(ca.Runes), string(cb.Runes), screenText(scrs[0]), screenText(scrs[1]))
			}
		}
	}
	waited := 0
	for i := range 120 {
		step()
		step()
		scrs[1].Clear()
		whole.root.Draw(scrs[1])
		scrs[1].Show()
		first := kept.arena.shown.frames + 1 // the frames of the draws below
		for draw := range lateRows {
			kept.screen.Clear()
			kept.root.Draw(kept.screen)
			scrs[0].Show()
			// A row waits until a draw's now (frames%lateRows) is its own.
			compare(i, draw, func(y int) bool {
				return (uint(y)+lateRows-uint(first%lateRows))%lateRows > uint(draw)
			})
			if draw == 0 && screenText(scrs[0]) != screenText(scrs[1]) {
				waited++
			}
		}
	}
	if waited == 0 {
		t.Error("no debris waited for the next frame")
	}
}

// slowOrBlank tells whether c shows debris, a rock or nothing.
func slowOrBlank(c tcell.SimCell) bool {
	if strings.TrimSpace(string(c.Runes)) == "" {
		return true
	}
	for k := inkRock2; k <= inkAsteroid; k++ {
		if c.Style == inkStyles[k] {
			return true
		}
	}
	return false
}

// frameStats sorts the bytes of tcell's frames into cursor moves, style
// changes and the rest.
type frameStats struct {
	mu                     sync.Mutex
	bytes, moves, sgrBytes int64
}

func (f *frameStats) add(p []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bytes += int64(len(p))
	for len(p) > 0 {
		i := bytes.IndexByte(p, 0x1b)
		if i < 0 {
			return
		}
		p = p[i:]
		if len(p) >= 3 && p[1] == '(' { // designate G0: part of sgr0
			f.sgrBytes += 3
			p = p[3:]
			continue
		}
		if len(p) < 2 || p[1] != '[' {
			p = p[1:]
			continue
		}
		j := 2
		for j < len(p) && (p[j] < 0x40 || p[j] > 0x7e) {
			j++
		}
		if j == len(p) {
			return
		}
		switch p[j] {
		case 'H':
			f.moves++
		case 'm':
			f.sgrBytes += int64(j + 1)
		}
		p = p[j+1:]
	}
}

// monoScreen is a screen without colours, as with NO_COLOR.
type monoScreen struct{ tcell.SimulationScreen }

func (monoScreen) Colors() int { return 0 }

// TestMonoBlanks: on a screen without colours, where tcell shows dark
// colours in reverse video, the field's blanks are in the default style,
// never in the style of a dot before them.
func TestMonoBlanks(t *testing.T) {
	for _, mono := range []bool{false, true} {
		sim := newSim(t, "UTF-8", 120, 40)
		var scr tcell.Screen = sim
		if mono {
			scr = monoScreen{sim}
		}
		s, err := newSession(scr, Options{Seed: 9, Stress: true})
		if err != nil {
			t.Fatal(err)
		}
		s.root.SetRect(0, 0, 120, 40)
		step := crowd(t, true, s)
		styled := 0
		for range 30 {
			step()
			step()
			s.screen.Clear()
			s.root.Draw(s.screen)
			sim.Show()
			cells, w, _ := sim.GetContents()
			f := s.arena.frame
			for y := f.y; y < f.y+f.h; y++ {
				for x := f.x; x < f.x+f.w; x++ {
					if c := cells[y*w+x]; strings.TrimSpace(string(c.Runes)) == "" && c.Style != tcell.StyleDefault {
						styled++
					}
				}
			}
		}
		if mono && styled > 0 {
			t.Errorf("without colours: %d blanks of the field in a style, want none", styled)
		}
		if !mono && styled == 0 {
			t.Error("with colours: no blank took the style of the dot before it")
		}
	}
}
