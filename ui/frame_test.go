package ui

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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
	tty, scr := newXterm(b, 120, 40)
	s := benchSession(b, scr)
	step := crowd(b, false, s)
	s.root.SetRect(0, 0, 120, 40)
	frame := func() {
		step()
		step()
		s.screen.resize()
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
	for _, s := range ss {
		showWorld(s, w)
	}
	for i := range aps {
		if err := w.Join(i); err != nil {
			t.Fatal(err)
		}
		aps[i] = game.Autopilot{Pressure: true, Slot: i}
		for _, s := range ss {
			s.show.(*worldShow).names[i] = "player" + string(rune('a'+i))
		}
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
		s, err := newPlayerSession(ownTerminal(scrs[i], nil), Options{Seed: 9, Stress: true})
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
		first := kept.arena.field.frames + 1 // the frames of the draws below
		for draw := range lateRows {
			kept.screen.resize()
			kept.root.Draw(kept.screen)
			kept.screen.Show()
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
		s, err := newPlayerSession(ownTerminal(scr, nil), Options{Seed: 9, Stress: true})
		if err != nil {
			t.Fatal(err)
		}
		s.root.SetRect(0, 0, 120, 40)
		step := crowd(t, true, s)
		styled := 0
		for range 30 {
			step()
			step()
			s.screen.resize()
			s.root.Draw(s.screen)
			s.screen.Show()
			cells, w, _ := sim.GetContents()
			f := s.arena.frame
			for y := f.y; y < f.y+f.h; y++ {
				for x := f.x; x < f.x+f.w; x++ {
					if c := cells[y*w+x]; strings.TrimSpace(string(c.Runes)) == "" && c.Style != tcell.StyleDefault && !inLabel(s.arena, x, y) {
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

// inLabel tells whether the screen cell (x, y) is in a name or a
// countdown a drew over its field: text, whose spaces are its own.
func inLabel(a *arena, x, y int) bool {
	_, over := a.overlay()
	for i := range a.labels {
		if lx, ly, lw := visible(&a.cv, a.frame, &a.labels[i], over); y == ly && x >= lx && x < lx+lw {
			return true
		}
	}
	return false
}

// BenchmarkFrameBytes sets what the game writes to a 120×40
// xterm-256color terminal against the least the same frames could cost
// (see floorBytes): a solo game of the max-pressure autopilot and an
// arena of sixteen (as BenchmarkArenaFrame), two world steps a frame.
// bytes/frame is what the screen wrote, floor/frame the bound, and
// emitted/floor their ratio over the run; cells/frame is the cells it
// sent (package vt's count).
func BenchmarkFrameBytes(b *testing.B) {
	for _, scene := range []string{"solo", "arena"} {
		b.Run(scene, func(b *testing.B) {
			tty, scr := newXterm(b, 120, 40)
			s := benchSession(b, scr)
			s.root.SetRect(0, 0, 120, 40)
			var step func()
			if scene == "arena" {
				step = crowd(b, false, s)
			} else {
				ap := game.Autopilot{Pressure: true}
				step = func() { s.world().Step(ap.Input(s.world())) }
			}
			f := s.term.Cells()
			if f == nil {
				b.Fatal("the screen does not write its own frames")
			}
			var shown, drawn []look
			frame := func() {
				step()
				step()
				s.screen.resize()
				s.root.Draw(s.screen)
				drawn = looks(drawn[:0], f.Get, 120, 40)
				s.screen.Show()
			}
			frame()
			shown = append(shown[:0], drawn...)
			var emitted, floor int64
			b.ReportAllocs()
			for b.Loop() {
				n := tty.n.Load()
				frame()
				emitted += tty.n.Load() - n
				floor += int64(floorBytes(shown, drawn, 120))
				shown, drawn = drawn, shown
			}
			n := float64(b.N)
			b.ReportMetric(float64(emitted)/n, "bytes/frame")
			b.ReportMetric(float64(floor)/n, "floor/frame")
			b.ReportMetric(float64(emitted)/float64(max(floor, 1)), "emitted/floor")
		})
	}
}

// look is a cell as the terminal shows it: its cluster, its width and
// its style as an xterm-256color terminal is sent it; a blank's only as
// far as it shows (see blankLook).
type look struct {
	s     string
	width int
	st    tcell.Style
}

// looks appends the looks of a w×h screen's cells, read with get.
func looks(dst []look, get func(x, y int) (string, tcell.Style, int), w, h int) []look {
	for y := range h {
		for x := range w {
			s, st, width := get(x, y)
			fg, bg, attrs := st.Decompose()
			st = tcell.StyleDefault.Foreground(fit256(fg)).Background(fit256(bg)).Attributes(attrs)
			if s == " " {
				st = blankLook(st)
			}
			dst = append(dst, look{s, width, st})
		}
	}
	return dst
}

// blankLook is what of style st a blank shows: its background, and in
// reverse video its foreground.
func blankLook(st tcell.Style) tcell.Style {
	fg, bg, attrs := st.Decompose()
	if attrs&tcell.AttrReverse == 0 {
		return tcell.StyleDefault.Background(bg)
	}
	return tcell.StyleDefault.Foreground(fg).Background(bg).Reverse(true)
}

// fit256 is c as a 256-colour terminal is sent it.
func fit256(c tcell.Color) tcell.Color {
	if c.IsRGB() {
		return tcell.FindColor(c, palette256)
	}
	return c
}

var palette256 = func() []tcell.Color {
	p := make([]tcell.Color, 256)
	for i := range p {
		p[i] = tcell.PaletteColor(i)
	}
	return p
}()

// floorBytes is a lower bound on the bytes that take a w columns wide
// terminal from showing shown to showing drawn, cell by cell in reading
// order from an unknown cursor and the default colours: the glyph bytes of
// the cells that changed; before each, the cheapest way to the cell from
// the end of the last one — none when it follows it, else the shortest of
// CUP (defaults elided), CUF, HPA and reprinting the cells in between
// (their glyphs only); and the SGR parameters of the attributes and
// colours that changed since the last cell sent (for a blank, of what it
// shows), with ESC [ and m.
func floorBytes(shown, drawn []look, w int) int {
	n := 0
	cx, cy := -1, -1
	pen := tcell.StyleDefault
	for i := 0; i < len(drawn); i++ {
		c := drawn[i]
		if c == shown[i] {
			i += max(c.width-1, 0)
			continue
		}
		x, y := i%w, i/w
		switch {
		case cx == x && cy == y:
		case cy == y && cx >= 0 && cx < x:
			gap := 0
			for _, g := range drawn[i-(x-cx) : i] {
				gap += len(g.s)
			}
			n += min(len("\x1b[C")+param(x-cx), len("\x1b[`")+param(x+1), gap)
		default:
			n += len("\x1b[H") + param(y+1) + param(x+1)
			if x > 0 {
				n++ // the ;
			}
		}
		to := c.st
		if c.s == " " {
			fg, bg, attrs := c.st.Decompose()
			to = pen.Background(bg).Reverse(attrs&tcell.AttrReverse != 0)
			if attrs&tcell.AttrReverse != 0 {
				to = to.Foreground(fg)
			}
		}
		if p := sgrParams(pen, to); p > 0 {
			n += len("\x1b[m") + p
		}
		pen = to
		n += len(c.s)
		cx, cy = x+max(c.width, 1), y
		if cx >= w {
			cx, cy = -1, -1
		}
		i += max(c.width-1, 0)
	}
	return n
}

// param is the length of a numeric parameter v that defaults to 1: none
// when it is 1.
func param(v int) int {
	if v == 1 {
		return 0
	}
	return len(strconv.Itoa(v))
}

// sgrParams is the length of the fewest SGR parameters, with their
// separators, that take a terminal's colours and attributes from from to
// to: one for each attribute switched (1 on, 22 off, …), a colour's own
// (91, 38;5;202, 39 for the default).
func sgrParams(from, to tcell.Style) int {
	ffg, fbg, fa := from.Decompose()
	tfg, tbg, ta := to.Decompose()
	var lens []int
	for _, a := range []tcell.AttrMask{tcell.AttrBold, tcell.AttrDim, tcell.AttrItalic, tcell.AttrBlink, tcell.AttrReverse, tcell.AttrStrikeThrough} {
		switch {
		case fa&a == ta&a:
		case ta&a != 0:
			lens = append(lens, 1)
		default:
			lens = append(lens, 2)
		}
	}
	if fu, tu := from.GetUnderlineStyle() != tcell.UnderlineStyleNone, to.GetUnderlineStyle() != tcell.UnderlineStyleNone; fu != tu {
		lens = append(lens, map[bool]int{true: 1, false: 2}[tu])
	}
	for _, c := range [][2]tcell.Color{{ffg, tfg}, {fbg, tbg}} {
		if c[0] == c[1] {
			continue
		}
		switch n := int(c[1] & 0xff); {
		case !c[1].Valid():
			lens = append(lens, 2)
		case n < 16:
			lens = append(lens, 2+n/8) // 31, 91; 41, 101
		default:
			lens = append(lens, len("38;5;")+len(strconv.Itoa(n)))
		}
	}
	if len(lens) == 0 {
		return 0
	}
	n := len(lens) - 1
	for _, l := range lens {
		n += l
	}
	return n
}

// TestPanelShowsOutput: on a screen that writes its own frames, the
// panel's out/frame line shows the bytes and cells sent a frame between
// two samples, as the terminal counted them.
func TestPanelShowsOutput(t *testing.T) {
	tty, scr := newXterm(t, 120, 40)
	s := benchSession(t, scr)
	s.root.SetRect(0, 0, 120, 40)
	ap := game.Autopilot{Pressure: true}
	frame := func() (sent int64) {
		s.world().Step(ap.Input(s.world()))
		s.world().Step(ap.Input(s.world()))
		s.screen.resize()
		s.root.Draw(s.screen)
		n := tty.n.Load()
		s.screen.Show()
		return tty.n.Load() - n
	}
	frame() // the whole screen
	s.sampleAt(time.Second)
	const frames = 20
	sent := frame() // the panel measures in its draw, before its Show
	for range frames - 1 {
		sent += frame()
	}
	s.sampleAt(2 * time.Second)
	s.screen.resize()
	s.root.Draw(s.screen) // the panel measures again, before this frame's Show
	var text strings.Builder
	x, y, w, h := s.panel.GetRect()
	for r := y; r < y+h; r++ {
		for c := x; c < x+w; c++ {
			str, _, _ := s.term.Cells().Get(c, r)
			text.WriteString(str)
		}
		text.WriteByte('\n')
	}
	line := findLine(text.String(), "out/frame")
	want := fmt.Sprintf("out/frame  %.0f B · ", float64(sent)/frames)
	if !strings.HasPrefix(line, want) || !strings.HasSuffix(line, " cells") || strings.HasSuffix(line, " 0 cells") {
		t.Errorf("the panel's line %q, want it to start %q and count cells\n%s", line, want, text.String())
	}
}
