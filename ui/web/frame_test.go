package web

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"poolroids/ui/vt"
)

// shows reports where a page showing got differs from one showing want:
// "" when they look the same (a covered cell's content does not show).
func shows(got, want *Grid) string {
	if got.w != want.w || got.h != want.h {
		return fmt.Sprintf("size %d×%d, want %d×%d", got.w, got.h, want.w, want.h)
	}
	for y := range want.h {
		var coverGot, coverWant bool
		for x := range want.w {
			a, b := got.At(x, y), want.At(x, y)
			cg, cw := coverGot, coverWant
			coverGot = !cg && a.Wide && x+1 < got.w
			coverWant = !cw && b.Wide && x+1 < want.w
			switch {
			case cg != cw:
				return fmt.Sprintf("cell %d,%d covered %v, want %v", x, y, cg, cw)
			case !cg && !same(a, b):
				return fmt.Sprintf("cell %d,%d is %+v, want %+v", x, y, a, b)
			}
		}
	}
	return ""
}

// roundTrip sends after to a page showing before and checks that it then
// shows after; it returns the message.
func roundTrip(t testing.TB, before, after *Grid) []byte {
	t.Helper()
	msg := AppendFrame(nil, before, after)
	page := new(Grid)
	page.CopyFrom(before)
	if len(msg) > 0 {
		if err := page.Apply(msg); err != nil {
			t.Fatalf("Apply: %v (message % x)", err, msg)
		}
	}
	if d := shows(page, after); d != "" {
		t.Fatalf("after the frame, %s (message % x)", d, msg)
	}
	return msg
}

func TestFrameRoundTrip(t *testing.T) {
	t.Parallel()
	text := func(w, h int, lines ...string) *Grid {
		g := NewGrid(w, h)
		for y, l := range lines {
			g.SetText(0, y, l, DefaultColor, DefaultColor, 0)
		}
		return g
	}
	styled := text(20, 3, "plain ⣿⣿⣿ text", "────────────────────")
	for x := 6; x < 9; x++ {
		c := styled.At(x, 0)
		c.Fg, c.Bg, c.Attr = PaletteColor(9), RGBColor(1, 2, 3), Bold|Underline
		styled.Set(x, 0, c)
	}
	blanks := NewGrid(20, 3)
	for x := range 20 {
		blanks.Set(x, 1, Cell{Bg: PaletteColor(4)})
	}
	for _, tc := range []struct {
		name          string
		before, after *Grid
	}{
		{"first frame", new(Grid), text(10, 2, "hello", "⠁⠂⠄ box ─│┌")},
		{"resize", text(10, 2, "hello"), text(12, 3, "", "hello")},
		{"to empty", text(10, 2, "hello"), new(Grid)},
		{"one cell", text(10, 2, "hello"), text(10, 2, "hallo")},
		{"cells far apart", text(100, 3, "a"), text(100, 3, "b", "", "                                                                              c")},
		{"styles", text(20, 3), styled},
		{"styles back", styled, text(20, 3)},
		{"coloured blanks", text(20, 3), blanks},
		{"runs", text(200, 2), text(200, 2, string(make([]rune, 0))+"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")},
		{"wide", text(10, 2, "abcdefghij"), text(10, 2, "a日本b", "語x")},
		{"wide to narrow", text(10, 2, "a日本b"), text(10, 2, "abcdefghij")},
		{"wide shifted", text(10, 2, "a日本b"), text(10, 2, "日本語")},
		{"wide at the margin", text(5, 1), text(5, 1, "abcd日")},
		{"clusters", text(10, 1), text(10, 1, "e\u0301 🇫🇷 👍🏽 ok")},
		{"pages", text(30, 1), text(30, 1, "a⠁b⠂c─d→e€f𝄞g")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roundTrip(t, tc.before, tc.after)
		})
	}
}

func TestStillFrameSendsNothing(t *testing.T) {
	t.Parallel()
	g := newScene(1, false).grid()
	again := new(Grid)
	again.CopyFrom(g)
	if msg := AppendFrame(nil, g, again); len(msg) != 0 {
		t.Errorf("a frame the page shows already sent % x", msg)
	}
	// A blank is a blank, "" or " ".
	a := NewGrid(3, 1)
	a.Set(1, 0, Cell{Bg: PaletteColor(4)})
	b := NewGrid(3, 1)
	b.cells[1] = Cell{Text: " ", Bg: PaletteColor(4)}
	if msg := AppendFrame(nil, a, b); len(msg) != 0 {
		t.Errorf("a blank as \" \" sent % x", msg)
	}
}

// TestFrameEncoding pins the bytes of a small frame, each operation once.
func TestFrameEncoding(t *testing.T) {
	t.Parallel()
	g := NewGrid(80, 3)
	g.SetText(0, 0, "ab", DefaultColor, DefaultColor, 0)
	g.SetText(40, 0, "⣿⣿⣿⣿", PaletteColor(11), DefaultColor, 0)
	g.SetText(0, 1, "x  日", DefaultColor, DefaultColor, 0)
	g.Set(70, 2, Cell{Bg: RGBColor(0x10, 0x20, 0x30)})
	g.Set(71, 2, Cell{Bg: RGBColor(0x10, 0x20, 0x30)})
	got := fmt.Sprintf("% x", AppendFrame(nil, new(Grid), g))
	want := "01 " + // frame
		"c5 50 03 " + // size 80×3
		"01 61 62 " + // cells a b
		"5f 45 " + // skip 32, skip 6
		"c9 01 0b " + // style: fg palette 11
		"c2 28 83 ff " + // page 0x28, repeat 4 × ff
		"c1 " + // next row
		"c9 00 " + // style: fg default
		"c2 00 00 78 " + // page 0, cell x
		"41 " + // skip 2 (blanks as before)
		"c4 03 e6 97 a5 " + // wide 日
		"c0 02 46 " + // goto row 2, column 70
		"ca 02 10 20 30 61" // style: bg RGB; 2 blanks
	if got != want {
		t.Errorf("frame\n got %s\nwant %s", got, want)
	}
}

func TestApplyRefuses(t *testing.T) {
	t.Parallel()
	for _, msg := range [][]byte{
		{},
		{MsgTitle, 'x'},
		{MsgFrame, 0x01, 'a'},            // two cells, one byte
		{MsgFrame, opSize, 2, 1, 0x02},   // three cells off a 2×1 grid
		{MsgFrame, 0x00, 'a', opSize, 1}, // a size after a cell
		{MsgFrame, opStyle | 1, 7},       // a colour of kind 7
		{MsgFrame, opStyle | 4, 0x80},    // an attribute unknown
		{MsgFrame, opText, 1, 0xff},      // not UTF-8
		{MsgFrame, 0xd0},                 // no such operation
		{MsgFrame, opGoto, 0x80},         // a number cut short
		{MsgFrame, opSize, 0xff, 0xff, 0x7f, 0xff, 0xff, 0x7f},
	} {
		g := NewGrid(4, 2)
		if err := g.Apply(msg); !errors.Is(err, ErrFrame) {
			t.Errorf("Apply(% x) = %v, want ErrFrame", msg, err)
		}
	}
}

// FuzzFrame sends a grid of random changes to a page showing another and
// checks that the page then shows it.
func FuzzFrame(f *testing.F) {
	f.Add(uint64(1), uint8(10), uint8(3), uint8(10), uint8(3), uint8(40))
	f.Add(uint64(2), uint8(80), uint8(24), uint8(80), uint8(24), uint8(3))
	f.Add(uint64(3), uint8(5), uint8(5), uint8(7), uint8(2), uint8(100))
	f.Fuzz(func(t *testing.T, seed uint64, w0, h0, w1, h1, density uint8) {
		rng := rand.New(rand.NewPCG(seed, 2))
		before, after := randomGrid(rng, int(w0), int(h0)%64, density), randomGrid(rng, int(w1), int(h1)%64, density)
		roundTrip(t, before, after)
		// And a few cells changed on the same grid.
		next := new(Grid)
		next.CopyFrom(after)
		for range int(density) / 8 {
			if next.w > 0 && next.h > 0 {
				next.Set(rng.IntN(next.w), rng.IntN(next.h), randomCell(rng))
			}
		}
		roundTrip(t, after, next)
	})
}

// randomGrid is a w×h grid with density percent (of 255) of its cells
// drawn from a few of each kind: so that runs, repeats and changes of
// style and page all happen.
func randomGrid(rng *rand.Rand, w, h int, density uint8) *Grid {
	g := NewGrid(w, h)
	for y := range h {
		for x := range w {
			if rng.IntN(256) < int(density) {
				g.Set(x, y, randomCell(rng))
			}
		}
	}
	return g
}

var (
	randomTexts  = []string{"", " ", "a", "b", "⠁", "⣿", "─", "€", "日", "語", "e\u0301", "🇫🇷", "\x00", "\xff", "𝄞"}
	randomColors = []Color{DefaultColor, PaletteColor(1), PaletteColor(255), RGBColor(1, 2, 3)}
)

func randomCell(rng *rand.Rand) Cell {
	c := Cell{
		Text: randomTexts[rng.IntN(len(randomTexts))],
		Fg:   randomColors[rng.IntN(len(randomColors))],
		Bg:   randomColors[rng.IntN(len(randomColors))],
		Attr: Attr(rng.IntN(int(allAttrs) + 1)),
	}
	c.Wide = c.Text == "日" || c.Text == "語" || c.Text == "🇫🇷" || (c.Text == "a" && rng.IntN(8) == 0)
	if c.Text == "\xff" { // not UTF-8: the page shows U+FFFD
		c.Text = "\uFFFD"
	}
	return c
}

// TestFrameAllocs checks that a frame allocates nothing once its buffer
// has room.
func TestFrameAllocs(t *testing.T) {
	s := newScene(1, false)
	a := s.grid()
	s.step()
	b := s.grid()
	empty := new(Grid)
	buf := AppendFrame(nil, empty, a)
	if n := testing.AllocsPerRun(100, func() {
		buf = AppendFrame(buf[:0], a, b)
		buf = AppendFrame(buf[:0], b, a)
		buf = AppendFrame(buf[:0], empty, a)
	}); n != 0 {
		t.Errorf("a frame allocates %v times, want 0", n)
	}
}

// TestFirstFrameBytes checks the bound: the first frame of a
// 120×40 game under 16 KiB, even with the field full of debris.
func TestFirstFrameBytes(t *testing.T) {
	t.Parallel()
	for _, dense := range []bool{false, true} {
		g := newScene(1, dense).grid()
		msg := roundTrip(t, new(Grid), g)
		var f vt.Frame
		vtn := len(vtBytes(&f, g))
		t.Logf("dense %v: first frame %d bytes, %d for a terminal", dense, len(msg), vtn)
		if len(msg) >= 16<<10 {
			t.Errorf("dense %v: the first frame takes %d bytes, want < 16 KiB", dense, len(msg))
		}
		if len(msg) >= vtn {
			t.Errorf("dense %v: the first frame takes %d bytes, a terminal's %d", dense, len(msg), vtn)
		}
	}
}

// BenchmarkFrame encodes the frames of the game-like scene, the field
// sparse (a game) or full of debris (the stress mode), and reports the
// bytes a frame takes as cells and as package vt's terminal bytes for
// the same change.
func BenchmarkFrame(b *testing.B) {
	for _, dense := range []bool{false, true} {
		b.Run(fmt.Sprintf("dense=%v", dense), func(b *testing.B) {
			s := newScene(1, dense)
			// Frames drawn beforehand: drawing is not what is measured.
			grids := make([]*Grid, 64)
			for i := range grids {
				grids[i] = s.grid()
				s.step()
			}
			var f vt.Frame
			vtBytes(&f, grids[0])
			var vtn, n int
			for i := 1; i < len(grids); i++ {
				vtn += len(vtBytes(&f, grids[i]))
			}
			b.ReportAllocs()
			var buf []byte
			i := 0
			for b.Loop() {
				buf = AppendFrame(buf[:0], grids[i%len(grids)], grids[(i+1)%len(grids)])
				n += len(buf)
				i++
			}
			b.ReportMetric(float64(n)/float64(i), "bytes/frame")
			b.ReportMetric(float64(vtn)/float64(len(grids)-1), "vt-bytes/frame")
		})
	}
}

// TestTakeChanged checks the path of a Screen's frames (Conn.showChanged):
// the cells set since the last frame are copied and compared, no others,
// and the page still shows every frame whole, wide cells and resizes
// among them.
func TestTakeChanged(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	texts := []string{"", "a", "⣿", "─", "界", "😀", "é"}
	g, latest, sent, page := NewGrid(30, 8), new(Grid), new(Grid), new(Grid)
	for frame := range 2000 {
		if frame%97 == 96 {
			g.Resize(20+rng.IntN(20), 5+rng.IntN(5))
		}
		w, h := g.Size()
		for range rng.IntN(12) {
			x, y := rng.IntN(w), rng.IntN(h)
			switch t := texts[rng.IntN(len(texts))]; {
			case rng.IntN(4) == 0:
				g.SetText(x, y, t+t, PaletteColor(uint8(rng.IntN(4))), DefaultColor, 0)
			default:
				g.Set(x, y, Cell{Text: t, Fg: PaletteColor(uint8(rng.IntN(4))), Wide: t == "界" || t == "😀"})
			}
		}
		latest.take(g)
		msg := appendFrame(nil, sent, latest, latest.dirty)
		sent.take(latest)
		if len(msg) > 0 {
			if err := page.Apply(msg); err != nil {
				t.Fatalf("frame %d: %v", frame, err)
			}
		}
		if d := shows(page, g); d != "" {
			t.Fatalf("frame %d: the page %s", frame, d)
		}
	}
}
