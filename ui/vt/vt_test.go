package vt

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// term is a terminal as xterm behaves, reduced to what Render sends and to
// what the checks read: graphemes and their widths, the right margin's
// deferred wrap, cursor addressing, erasing, SGR and the cursor's
// visibility. Sequences it does not know fail the test.
type term struct {
	t       *testing.T
	w, h    int
	cells   []tcell.Style // each cell's style (in SGR terms: see sgr)
	text    []string      // each cell's cluster; "" is the right half of a wide one
	x, y    int
	pending bool // at the right margin: the next character wraps first
	st      tcell.Style
	visible bool
	synced  int // synchronized-output depth: ?2026h minus ?2026l

	// seen counts what the terminal was sent, by kind (see saw): the
	// test checks that every move and style change was tried.
	seen map[string]int
}

// saw counts one sequence of kind k.
func (v *term) saw(k string) {
	if v.seen == nil {
		v.seen = make(map[string]int)
	}
	v.seen[k]++
}

func newTerm(t *testing.T, w, h int) *term {
	v := &term{t: t, w: w, h: h, cells: make([]tcell.Style, w*h), text: make([]string, w*h), visible: true}
	for i := range v.text {
		v.text[i] = " "
	}
	return v
}

func (v *term) write(b []byte) {
	v.t.Helper()
	s := string(b)
	for s != "" {
		if s[0] == 0x1b {
			end := strings.IndexAny(s[1:], "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~")
			if len(s) < 3 || s[1] != '[' || end < 0 {
				v.t.Fatalf("not a CSI sequence: %q", s)
			}
			end = 2 + strings.IndexAny(s[2:], "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~")
			v.csi(s[2:end], s[end])
			s = s[end+1:]
			continue
		}
		g, rest, width, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		if i := strings.IndexByte(g, 0x1b); i > 0 {
			g, rest = g[:i], s[i:]
		}
		v.put(g, width)
		s = rest
	}
	if v.synced != 0 {
		v.t.Fatalf("synchronized output left at depth %d", v.synced)
	}
}

func (v *term) put(g string, width int) {
	if v.pending {
		v.x, v.y, v.pending = 0, min(v.y+1, v.h-1), false
	}
	if width == 2 && v.x == v.w-1 {
		v.t.Fatalf("a wide cluster %q sent to the last column", g)
	}
	if i := v.y*v.w + v.x; v.text[i] == g && v.cells[i] == v.st {
		v.saw("the same again")
	}
	v.unwide(v.x)
	if width == 2 {
		v.unwide(v.x + 1)
	}
	i := v.y*v.w + v.x
	v.text[i], v.cells[i] = g, v.st
	if width == 2 {
		v.text[i+1], v.cells[i+1] = "", v.st
	}
	v.x += max(width, 1)
	if v.x >= v.w {
		v.x, v.pending = v.w-1, true
	}
}

// unwide blanks the wide cluster that column x of the cursor's row is half
// of, as a terminal does when either half is written over.
func (v *term) unwide(x int) {
	i := v.y*v.w + x
	switch {
	case x >= v.w:
	case v.text[i] == "" && x > 0: // the right half
		v.text[i-1] = " "
		v.text[i] = " "
	case x+1 < v.w && v.text[i+1] == "": // the left half
		v.text[i+1] = " "
	}
}

func (v *term) csi(params string, final byte) {
	v.t.Helper()
	v.pending = v.pending && final == 'm'
	if strings.HasPrefix(params, "?") {
		set := final == 'h'
		switch params {
		case "?25":
			v.visible = set
		case "?2026":
			v.synced += map[bool]int{true: 1, false: -1}[set]
		default:
			v.t.Fatalf("unknown private mode %q%c", params, final)
		}
		return
	}
	var n []int
	for _, p := range strings.Split(params, ";") {
		k, err := strconv.Atoi(p)
		if p != "" && err != nil {
			v.t.Fatalf("bad parameter in %q%c", params, final)
		}
		n = append(n, k)
	}
	switch final {
	case 'H':
		if len(n) > 2 {
			v.t.Fatalf("bad cursor position %q", params)
		}
		n = append(n, 0)
		v.y, v.x = max(n[0], 1)-1, max(n[1], 1)-1
		if v.x >= v.w || v.y >= v.h {
			v.t.Fatalf("bad cursor position %q", params)
		}
		v.saw(fmt.Sprintf("CUP row %v column %v", params != "" && params[0] != ';', strings.Contains(params, ";")))
	case 'C':
		v.x = min(v.x+max(n[0], 1), v.w-1)
		v.saw(fmt.Sprintf("CUF %v", params != ""))
	case 'J':
		if n[0] != 2 {
			v.t.Fatalf("unexpected ED %q", params)
		}
		for i := range v.text {
			v.text[i], v.cells[i] = " ", v.st
		}
	case 'm':
		v.st = sgr(v.t, v.st, n)
		if n[0] != 0 {
			v.saw("SGR from the last")
		}
		for _, p := range n {
			if p >= 22 && p <= 29 || p == 39 || p == 49 {
				v.saw(fmt.Sprint("SGR ", p))
			}
		}
	default:
		v.t.Fatalf("unexpected CSI %q%c", params, final)
	}
}

// sgr applies SGR parameters n to style st: attributes set and reset,
// palette colours by index.
func sgr(t *testing.T, st tcell.Style, n []int) tcell.Style {
	t.Helper()
	for i := 0; i < len(n); i++ {
		switch p := n[i]; {
		case p == 0:
			st = tcell.StyleDefault
		case p == 1:
			st = st.Bold(true)
		case p == 2:
			st = st.Dim(true)
		case p == 3:
			st = st.Italic(true)
		case p == 4:
			st = st.Underline(true)
		case p == 5:
			st = st.Blink(true)
		case p == 7:
			st = st.Reverse(true)
		case p == 9:
			st = st.StrikeThrough(true)
		case p == 22:
			st = st.Bold(false).Dim(false)
		case p == 23:
			st = st.Italic(false)
		case p == 24:
			st = st.Underline(false)
		case p == 25:
			st = st.Blink(false)
		case p == 27:
			st = st.Reverse(false)
		case p == 29:
			st = st.StrikeThrough(false)
		case p >= 30 && p <= 37:
			st = st.Foreground(tcell.PaletteColor(p - 30))
		case p >= 90 && p <= 97:
			st = st.Foreground(tcell.PaletteColor(p - 90 + 8))
		case p == 39:
			st = st.Foreground(tcell.ColorDefault)
		case p >= 40 && p <= 47:
			st = st.Background(tcell.PaletteColor(p - 40))
		case p >= 100 && p <= 107:
			st = st.Background(tcell.PaletteColor(p - 100 + 8))
		case p == 49:
			st = st.Background(tcell.ColorDefault)
		case (p == 38 || p == 48) && i+2 < len(n) && n[i+1] == 5:
			st = extended(st, p, tcell.PaletteColor(n[i+2]))
			i += 2
		case (p == 38 || p == 48) && i+4 < len(n) && n[i+1] == 2:
			st = extended(st, p, tcell.NewRGBColor(int32(n[i+2]), int32(n[i+3]), int32(n[i+4])))
			i += 4
		default:
			t.Fatalf("unexpected SGR parameters %v", n)
		}
	}
	return st
}

// extended sets the colour of SGR 38 (foreground) or 48 (background).
func extended(st tcell.Style, p int, c tcell.Color) tcell.Style {
	if p == 38 {
		return st.Foreground(c)
	}
	return st.Background(c)
}

// sent is st as a terminal shows it after Render: RGB colours fitted to
// the palette unless true colour, the underline a plain one.
func sent(f *Frame, st tcell.Style) tcell.Style {
	fg, bg, attrs := st.Decompose()
	fit := func(c tcell.Color) tcell.Color {
		switch {
		case !c.Valid():
			return tcell.ColorDefault
		case c.IsRGB() && !f.TrueColor:
			return tcell.FindColor(c, palette)
		}
		return c
	}
	out := tcell.StyleDefault.Foreground(fit(fg)).Background(fit(bg)).Attributes(attrs)
	if st.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		out = out.Underline(true)
	}
	return out
}

// blankLook is what of style st a blank shows: its background; with
// reverse video, underline, strikethrough or blink, those and its
// foreground.
func blankLook(st tcell.Style) tcell.Style {
	fg, bg, attrs := st.Decompose()
	vis := attrs & (tcell.AttrReverse | tcell.AttrStrikeThrough | tcell.AttrBlink)
	ul := st.GetUnderlineStyle() != tcell.UnderlineStyleNone
	if vis == 0 && !ul {
		return tcell.StyleDefault.Background(bg)
	}
	return tcell.StyleDefault.Foreground(fg).Background(bg).Attributes(vis).Underline(ul)
}

// check fails unless the terminal shows f: every cell not covered by a
// wide cluster to its left, and the cursor.
func check(t *testing.T, v *term, f *Frame) {
	t.Helper()
	for y := range f.h {
		for x := 0; x < f.w; x++ {
			s, st, w := f.Get(x, y)
			if w == 2 && x == f.w-1 {
				s = " "
			}
			i := y*f.w + x
			if v.text[i] != s || s != " " && v.cells[i] != sent(f, st) || s == " " && blankLook(v.cells[i]) != blankLook(sent(f, st)) {
				t.Fatalf("cell (%d,%d): terminal shows %q in %v, frame holds %q in %v\nterminal:\n%s",
					x, y, v.text[i], v.cells[i], s, sent(f, st), v.screen())
			}
			if w == 2 {
				x++
			}
		}
	}
	if want := f.cursorOn && f.cursorX < f.w && f.cursorY < f.h; v.visible != want || want && (v.x != f.cursorX || v.y != f.cursorY) {
		t.Fatalf("cursor visible %v at (%d,%d), want %v at (%d,%d)", v.visible, v.x, v.y, want, f.cursorX, f.cursorY)
	}
}

func (v *term) screen() string {
	var b strings.Builder
	for y := range v.h {
		b.WriteString(strings.Join(v.text[y*v.w:(y+1)*v.w], ""))
		b.WriteByte('\n')
	}
	return b.String()
}

var (
	red   = tcell.StyleDefault.Foreground(tcell.ColorRed)
	bold  = tcell.StyleDefault.Foreground(tcell.PaletteColor(202)).Bold(true)
	panel = tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(tcell.PaletteColor(17))
	rgb   = tcell.StyleDefault.Foreground(tcell.NewRGBColor(250, 128, 114)).Background(tcell.ColorNavy).Underline(true)
	keep  = tcell.StyleDefault.Foreground(tcell.ColorNone).Background(tcell.ColorGreen).Reverse(true)
	odd   = tcell.StyleDefault.Dim(true).Italic(true).Blink(true).StrikeThrough(true)
	both  = tcell.StyleDefault.Foreground(tcell.ColorRed).Bold(true).Dim(true)
	fancy = rgb.Italic(true).Blink(true).StrikeThrough(true) // rgb's and more: to rgb, only these reset
)

// TestRenderShowsFrame draws random text, in random styles, with wide and
// combining clusters, over random frames; after each Render the terminal
// must show the frame, whatever other output came between two frames.
// Every kind of cursor move and style change Render makes must have been
// sent, and cells reprinted over a gap.
func TestRenderShowsFrame(t *testing.T) {
	texts := []string{"a", "hello", "⠁⠂⣿", "─│┌┐", "▁▂█", "◂→·µ×", "世界", "e\u0301x", "😀!", " ", "", "a世b", "🇫🇷"}
	styles := []tcell.Style{tcell.StyleDefault, red, bold, panel, rgb, keep, odd, both, fancy}
	seen := make(map[string]int)
	for _, truecolor := range []bool{false, true} {
		for seed := range uint64(40) {
			rng := rand.New(rand.NewPCG(seed, 7))
			w, h := 1+rng.IntN(30), 1+rng.IntN(8)
			f := &Frame{TrueColor: truecolor}
			f.Resize(w, h)
			v := newTerm(t, w, h)
			v.seen = seen
			var out []byte
			for frame := range 30 {
				for range rng.IntN(40) {
					x, y := rng.IntN(w+2)-1, rng.IntN(h+2)-1
					s, st := texts[rng.IntN(len(texts))], styles[rng.IntN(len(styles))]
					switch rng.IntN(6) {
					case 0:
						f.SetContent(x, y, []rune("x⠿世é")[rng.IntN(4)], nil, st)
					case 1:
						f.SetContent(x, y, 'e', []rune{0x301}, st)
					default:
						puts(f, x, y, w+2, s, st)
					}
				}
				switch rng.IntN(12) {
				case 0:
					f.ShowCursor(rng.IntN(w), rng.IntN(h))
				case 1:
					f.ShowCursor(-1, -1)
				case 2:
					f.Fill(' ', styles[rng.IntN(len(styles))])
				case 3:
					f.Invalidate()
					v.write([]byte("\x1b[0;31m\x1b[2J\x1b[1;1Hjunk")) // someone else's output
				case 4:
					w, h = 1+rng.IntN(30), 1+rng.IntN(8)
					f.Resize(w, h)
					v = newTerm(t, w, h)
					v.seen = seen
				case 5:
					v.write([]byte("\x1b[0;1;32m\x1b[1;1H")) // moves and colours only
				}
				out = f.Render(out[:0])
				v.write(out)
				check(t, v, f)
				if again := f.Render(nil); len(again) != 0 {
					t.Fatalf("seed %d frame %d: a second Render sent %q", seed, frame, again)
				}
			}
		}
	}
	for _, k := range []string{
		"CUP row true column true", "CUP row true column false", "CUP row false column true", "CUP row false column false",
		"CUF false", "CUF true", "the same again", "SGR from the last",
		"SGR 22", "SGR 23", "SGR 24", "SGR 25", "SGR 27", "SGR 29", "SGR 39", "SGR 49",
	} {
		if seen[k] == 0 {
			t.Errorf("never sent: %s", k)
		}
	}
}

// TestRenderSendsChanges: what one changed cell costs, and that a cell set
// to something else and back is not sent, where tcell would send it;
// Stats counts the bytes and the cells.
func TestRenderSendsChanges(t *testing.T) {
	var f Frame
	f.Resize(20, 5)
	f.Put(3, 1, "a", red)
	f.Put(4, 1, "b", red)
	var sent []byte
	render := func() []byte {
		out := f.Render(nil)
		sent = append(sent, out...)
		return out
	}
	first := string(render())
	if want := "\x1b[?2026h\x1b[?25l\x1b[0m\x1b[2J\x1b[2;4H\x1b[91mab\x1b[?2026l"; first != want {
		t.Fatalf("first frame %q, want %q", first, want)
	}
	f.Put(10, 1, "c", red)
	f.Put(12, 1, "d", red)
	f.Put(13, 1, "e", bold)
	// The blank between c and d is reprinted (1 byte, not 3 for a
	// move), and e's style sent as what changed.
	if got, want := string(render()), "\x1b[?2026h\x1b[2;11H\x1b[0;91mc d\x1b[1;38;5;202me\x1b[?2026l"; got != want {
		t.Fatalf("changes sent as %q, want %q", got, want)
	}
	f.Put(3, 1, "x", red)
	f.Put(3, 1, "a", red) // back to what shows: not sent
	f.Put(4, 1, "b", red) // the same as shown: not sent
	if got := string(render()); got != "" {
		t.Fatalf("cells set back sent as %q", got)
	}
	f.Put(5, 1, "y", red)
	f.Put(5, 1, "a", red) // set twice, left changed: sent once
	if got, want := string(render()), "\x1b[?2026h\x1b[2;6H\x1b[0;91ma\x1b[?2026l"; got != want {
		t.Fatalf("a cell set twice sent as %q, want %q", got, want)
	}
	f.ShowCursor(2, 2)
	if got, want := string(render()), "\x1b[?2026h\x1b[3;3H\x1b[?25h\x1b[?2026l"; got != want {
		t.Fatalf("the cursor shown as %q, want %q", got, want)
	}
	if got := render(); len(got) != 0 {
		t.Fatalf("a still frame sent %q", got)
	}
	// ab; c, the blank, d, e; a.
	if got, want := f.Stats(), (Stats{Renders: 6, Bytes: uint64(len(sent)), Cells: 7}); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
}

// TestRenderAllocs: setting a frame's worth of cells and sending them
// allocates nothing once the buffer has grown.
func TestRenderAllocs(t *testing.T) {
	var f Frame
	f.Resize(120, 40)
	glyphs := []string{"⠁", "⣿", "a", "─", "█"}
	styles := []tcell.Style{red, bold, panel, tcell.StyleDefault}
	buf := make([]byte, 0, 64<<10)
	n := 0
	draw := func() {
		for y := range 40 {
			for x := range 120 {
				n++
				f.Put(x, y, glyphs[(x+y+n)%len(glyphs)], styles[(x*y+n)%len(styles)])
				f.SetContent(x, y, '│', nil, styles[n%len(styles)])
			}
		}
		buf = f.Render(buf[:0])
	}
	draw()
	if a := testing.AllocsPerRun(20, draw); a != 0 {
		t.Fatalf("a frame allocates %v times", a)
	}
	var cells int
	put := func(int, int, string, tcell.Style, int) { cells++ }
	changes := func() {
		f.Clear()
		for y := range 40 {
			for x := range 120 {
				n++
				f.Put(x, y, glyphs[(x+y+n)%len(glyphs)], styles[(x*y+n)%len(styles)])
			}
		}
		f.Changes(func() {}, put)
	}
	changes()
	if a := testing.AllocsPerRun(20, changes); a != 0 || cells == 0 {
		t.Fatalf("a frame's Changes allocate %v times (%d cells)", a, cells)
	}
}

// TestManyStyles: a frame keeps its cells' styles past maxStyles styles
// set, dropping the ones no cell uses any more.
func TestManyStyles(t *testing.T) {
	var f Frame
	f.Resize(20, 10)
	v := newTerm(t, 20, 10)
	const puts = maxStyles + 100 // the table fills 100 puts before the end
	for i := range puts {
		x, y := i%20, (i/20)%10
		f.Put(x, y, "x", tcell.StyleDefault.Foreground(tcell.NewRGBColor(int32(i&0xff), int32(i>>8), 7)))
		if i%500 == 0 {
			v.write(f.Render(nil))
			check(t, v, &f)
		}
	}
	v.write(f.Render(nil))
	check(t, v, &f)
	for i := puts - 200; i < puts; i++ {
		x, y := i%20, (i/20)%10
		if _, st, _ := f.Get(x, y); st != tcell.StyleDefault.Foreground(tcell.NewRGBColor(int32(i&0xff), int32(i>>8), 7)) {
			t.Fatalf("cell (%d,%d) in %v, want the style of Put %d", x, y, st, i)
		}
	}
}

// TestNarrow: the runes cluster takes as one column without asking uniseg
// are one column to uniseg too, each a cluster of its own.
func TestNarrow(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		if !narrow(r) {
			continue
		}
		s := string(r)
		if w := uniseg.StringWidth(s); w != 1 {
			t.Errorf("%U: width %d", r, w)
		}
		if n := uniseg.GraphemeClusterCount(s + s); n != 2 {
			t.Errorf("%U twice is %d clusters", r, n)
		}
	}
}

func ExampleFrame() {
	var f Frame
	f.Resize(80, 24)
	st := tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
	for x, s := 10, "score 90"; s != ""; x++ {
		s, _ = f.Put(x, 2, s, st)
	}
	f.Render(nil) // clears the terminal and sends the text
	f.Put(16, 2, "1", st)
	f.Put(17, 2, "2", st)
	fmt.Printf("%q\n", f.Render(nil))
	// Output: "\x1b[?2026h\x1b[3;17H\x1b[0;1;93m12\x1b[?2026l"
}

// TestManyClusters: a frame keeps its cells' clusters of more than one
// rune past maxClusters of them set, dropping the ones no cell holds any
// more.
func TestManyClusters(t *testing.T) {
	var f Frame
	f.Resize(20, 10)
	v := newTerm(t, 20, 10)
	cl := func(i int) string { // a letter and two combining marks, each i its own
		return string([]rune{rune('a' + i%26), rune(0x300 + i/26%112), rune(0x300 + i/(26*112))})
	}
	const puts = maxClusters + 100
	for i := range puts {
		f.Put(i%20, (i/20)%10, cl(i), tcell.StyleDefault)
		if i%500 == 0 {
			v.write(f.Render(nil))
			check(t, v, &f)
		}
	}
	v.write(f.Render(nil))
	check(t, v, &f)
	for i := puts - 200; i < puts; i++ {
		if s, _, _ := f.Get(i%20, (i/20)%10); s != cl(i) {
			t.Fatalf("cell (%d,%d) holds %q, want %q", i%20, (i/20)%10, s, cl(i))
		}
	}
	if len(f.clusters) > maxClusters {
		t.Errorf("%d clusters kept, want at most %d", len(f.clusters), maxClusters)
	}
}

// TestChangesAsRender: over random frames, a tcell screen fed by Changes
// shows what the frame holds, as the terminal fed by Render does
// (TestRenderShowsFrame), and a second Changes sends nothing.
func TestChangesAsRender(t *testing.T) {
	texts := []string{"a", "hello", "⠁⠂⣿", "─│┌┐", "▁▂█", "◂→·µ×", "世界", "e\u0301x", " ", "", "a世b"}
	styles := []tcell.Style{tcell.StyleDefault, red, bold, panel, rgb, keep, odd, both, fancy}
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 9))
		w, h := 1+rng.IntN(30), 1+rng.IntN(8)
		var f Frame
		f.Resize(w, h)
		scr := tcell.NewSimulationScreen("UTF-8")
		if err := scr.Init(); err != nil {
			t.Fatal(err)
		}
		scr.SetSize(w, h)
		put := func(x, y int, str string, st tcell.Style, _ int) { scr.Put(x, y, str, st) }
		for frame := range 30 {
			for range rng.IntN(40) {
				x, y := rng.IntN(w+2)-1, rng.IntN(h+2)-1
				puts(&f, x, y, w+2, texts[rng.IntN(len(texts))], styles[rng.IntN(len(styles))])
			}
			switch rng.IntN(8) {
			case 0:
				f.Clear()
			case 1:
				f.Fill(' ', styles[rng.IntN(len(styles))])
			case 2:
				f.Invalidate()
				scr.Fill('#', red) // someone else's output
			}
			f.Changes(scr.Clear, put)
			scr.Show()
			for y := range h {
				for x := 0; x < w; x++ {
					s, st, cw := f.Get(x, y)
					got, gst, _ := scr.Get(x, y)
					if cw == 2 && x == w-1 {
						x++
						continue // tcell shows no half cluster
					}
					if got != s || gst != st {
						t.Fatalf("seed %d frame %d: (%d,%d) shows %q in %v, frame holds %q in %v", seed, frame, x, y, got, gst, s, st)
					}
					x += cw - 1
				}
			}
			f.Changes(func() { t.Fatal("a second Changes wiped") }, func(x, y int, str string, _ tcell.Style, _ int) {
				t.Fatalf("seed %d frame %d: a second Changes sent %q at (%d,%d)", seed, frame, str, x, y)
			})
		}
		scr.Fini()
	}
}

// TestChangesChangedBack: between two Changes, cells set to something
// else and back, or set to what they hold, are not sent; the cells that
// differ from what the display shows are, each once.
func TestChangesChangedBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const w, h = 17, 5
	var f Frame
	f.Resize(w, h)
	type shown struct {
		s  string
		st tcell.Style
	}
	var display [w * h]shown
	wipe := func() {
		for i := range display {
			display[i] = shown{" ", tcell.StyleDefault}
		}
	}
	styles := []tcell.Style{tcell.StyleDefault, red, bold}
	for frame := range 50 {
		for range rng.IntN(30) {
			x, y := rng.IntN(w), rng.IntN(h)
			was, wst, _ := f.Get(x, y)
			f.Put(x, y, string(rune('a'+rng.IntN(3))), styles[rng.IntN(len(styles))])
			if rng.IntN(2) == 0 {
				f.Put(x, y, was, wst) // and back
			}
		}
		differ := map[int]bool{}
		if frame > 0 {
			for i := range display {
				s, st, _ := f.Get(i%w, i/w)
				if (shown{s, st}) != display[i] {
					differ[i] = true
				}
			}
		}
		f.Changes(wipe, func(x, y int, str string, st tcell.Style, _ int) {
			i := y*w + x
			if frame > 0 && !differ[i] {
				t.Fatalf("frame %d: (%d,%d) sent, and it shows already", frame, x, y)
			}
			delete(differ, i)
			display[i] = shown{str, st}
		})
		if len(differ) > 0 {
			t.Fatalf("frame %d: %d cells that differ not sent", frame, len(differ))
		}
	}
}

// TestClearKeepsShown: Clear blanks the cells, and the next Render sends
// only those that showed something.
func TestClearKeepsShown(t *testing.T) {
	var f Frame
	f.Resize(10, 2)
	f.Put(2, 1, "a", red)
	f.Render(nil)
	f.Clear()
	f.Put(2, 1, "a", red) // drawn again as it was
	if got := f.Render(nil); len(got) != 0 {
		t.Fatalf("a frame cleared and drawn again sent %q", got)
	}
	f.Clear()
	if got, want := string(f.Render(nil)), "\x1b[?2026h\x1b[2;3H\x1b[0m \x1b[?2026l"; got != want {
		t.Fatalf("a cleared cell sent as %q, want %q", got, want)
	}
}

// puts puts s from (x, y) on with Put, cluster by cluster, at most maxw
// cells, as drawing code does, and returns the cells it took.
func puts(f *Frame, x, y, maxw int, s string, st tcell.Style) int {
	return f.putEach(x, y, maxw, s, st)
}

// same reports the first cell where frames a and b differ, as Get gives
// it; "" where none does.
func same(a, b *Frame) string {
	for y := range a.h {
		for x := range a.w {
			as, ast, aw := a.Get(x, y)
			bs, bst, bw := b.Get(x, y)
			if as != bs || ast != bst || aw != bw {
				return fmt.Sprintf("(%d,%d): %q %v %d, want %q %v %d", x, y, as, ast, aw, bs, bst, bw)
			}
		}
	}
	return ""
}

// TestFastPaths: PutString, SetRun and SetCells set the cells
// that Puts would, wide clusters, combining marks, ColorNone and the
// frame's edges included, and a cell set as it was is not sent.
func TestFastPaths(t *testing.T) {
	const w, h = 12, 3
	none := tcell.StyleDefault.Foreground(tcell.ColorNone).Bold(true)
	for _, s := range []string{"abc", "a·b─c", "e\u0301x", "日本a", "long text past the edge", "a✓b", ""} {
		for _, st := range []tcell.Style{red, none} {
			for _, x := range []int{-2, 0, 5, w - 1} {
				var got, want Frame
				got.Resize(w, h)
				want.Resize(w, h)
				got.Put(3, 1, "z", bold)
				want.Put(3, 1, "z", bold)
				n := got.PutString(x, 1, 9, s, st)
				if m := puts(&want, x, 1, 9, s, st); x >= 0 && n != m {
					t.Errorf("PutString(%d, %q, %v) took %d cells, Puts %d", x, s, st, n, m)
				}
				if d := same(&got, &want); d != "" {
					t.Errorf("PutString(%d, %q, %v): %s", x, s, st, d)
				}
			}
		}
	}

	var f, want Frame
	f.Resize(w, h)
	want.Resize(w, h)
	p := f.Pen(red)
	line, ok := f.Cell('─', &p)
	if !ok {
		t.Fatal("no Cell of a narrow rune")
	}
	f.SetCells(1, 0, []Cell{line})
	want.Put(1, 0, "─", red)
	c, ok := f.Cell('=', &p)
	if !ok {
		t.Fatal("no Cell of a narrow rune")
	}
	f.SetRun(-1, 1, 4, c)
	puts(&want, 0, 1, 3, "===", red)
	f.SetCells(w-2, 2, []Cell{c, Keep, c.WithRune('#')})
	want.Put(w-2, 2, "=", red)
	if d := same(&f, &want); d != "" {
		t.Error(d)
	}
	if _, ok := f.Cell('日', &p); ok {
		t.Error("a Cell of a wide rune")
	}
	if _, ok := f.AppendCells(nil, "a日", red); ok {
		t.Error("AppendCells of a wide cluster")
	}
	cs, ok := f.AppendCells(nil, "a✓e\u0301", red)
	if !ok || len(cs) != 3 {
		t.Fatalf("AppendCells of three narrow clusters: %d cells, %v", len(cs), ok)
	}
	f.SetCells(0, 2, cs)
	puts(&want, 0, 2, 3, "a✓e\u0301", red)
	if d := same(&f, &want); d != "" {
		t.Error(d)
	}

	// Drawn again as it is: nothing to send.
	f.Render(nil)
	f.PutString(0, 2, 3, "a✓e\u0301", red)
	f.SetCells(1, 0, []Cell{line})
	f.SetRun(0, 1, 3, c)
	f.SetCells(0, 2, cs)
	if got := f.Render(nil); len(got) != 0 {
		t.Errorf("cells set as they were sent %q", got)
	}
}

// TestPenAfterCompaction: a Pen resolved before the style table was
// compacted still sets its own style after, and Gen tells Cells made
// before it from those made after.
func TestPenAfterCompaction(t *testing.T) {
	var f Frame
	f.Resize(20, 10)
	blue := tcell.StyleDefault.Foreground(tcell.ColorBlue)
	p := f.Pen(blue)
	gen := f.Gen()
	for i := range maxStyles + 10 { // fills the table: it compacts
		f.Put(i%20, 1+(i/20)%9, "x", tcell.StyleDefault.Foreground(tcell.NewRGBColor(int32(i&0xff), int32(i>>8), 7)))
	}
	if f.Gen() == gen {
		t.Fatal("the table did not compact")
	}
	c, _ := f.Cell('a', &p)
	f.SetCells(0, 0, []Cell{c})
	if _, st, _ := f.Get(0, 0); st != blue {
		t.Errorf("a Pen made before a compaction sets %v, want %v", st, blue)
	}
}
