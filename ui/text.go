package ui

import (
	"poolroids/ui/vt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// Drawing goes through tcell's Screen.Put with strings that already exist:
// Put keeps a substring of its argument, where SetContent builds a new
// string for every cell. Numbers are formatted into reused byte slices and
// become strings only when they change (textCache), so that a frame
// allocates nothing. All the text the game shows is one cell per rune.

// putString sets s at (x, y), at most maxw cells, and returns the cells
// used. On a surface the back buffer takes the string whole (see
// vt.Frame.PutString): its style is resolved once.
func putString(scr putter, x, y, maxw int, s string, st tcell.Style) int {
	if sf, ok := scr.(*surface); ok {
		return sf.f.PutString(x, y, maxw, s, st)
	}
	n := 0
	for s != "" && n < maxw {
		var w int
		s, w = scr.Put(x+n, y, s, st)
		if w == 0 { // off the screen
			break
		}
		n += w
	}
	return n
}

// clearLine blanks w cells from (x, y) in the default style.
func clearLine(scr tcell.Screen, x, y, w int) { line(scr, x, y, 1, 0, w, blank, tcell.StyleDefault) }

// line draws n copies of s, one cell each, from (x, y) along the row
// (dx 1) or down the column (dy 1).
func line(scr putter, x, y, dx, dy, n int, s string, st tcell.Style) {
	var k cellOf
	k.line(scr, x, y, dx, dy, n, s, st)
}

// textCache holds the string of the bytes last formatted, so that text
// that seldom changes costs an allocation only when it does.
type textCache struct{ s string }

func (c *textCache) of(b []byte) string {
	if string(b) != c.s { // the comparison does not convert
		c.s = string(b)
	}
	return c.s
}

// appendCell appends s cut or padded to width cells.
func appendCell(dst []byte, s string, width int) []byte {
	n := 0
	for _, r := range s {
		if n == width {
			break
		}
		dst = utf8.AppendRune(dst, r)
		n++
	}
	for ; n < width; n++ {
		dst = append(dst, ' ')
	}
	return dst
}

// cells is the number of screen cells b takes. (utf8.RuneCount copies b
// past its first non-ASCII byte into a string, which allocates beyond 32
// bytes: a watcher's header is that long.)
func cells(b []byte) int {
	n := 0
	for ; len(b) > 0; n++ {
		_, size := utf8.DecodeRune(b)
		b = b[size:]
	}
	return n
}

// pad appends spaces so that what follows start fills width cells; text
// already wider is left as it is.
func pad(dst []byte, start, width int) []byte {
	for n := cells(dst[start:]); n < width; n++ {
		dst = append(dst, ' ')
	}
	return dst
}

// appendRight appends s right-aligned in width cells.
func appendRight(dst []byte, s []byte, width int) []byte {
	for n := cells(s); n < width; n++ {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

// appendIntRight appends v right-aligned in width cells.
func appendIntRight(dst []byte, v int64, width int) []byte {
	var tmp [24]byte
	return appendRight(dst, strconv.AppendInt(tmp[:0], v, 10), width)
}

// appendUintRight appends v right-aligned in width cells.
func appendUintRight(dst []byte, v uint64, width int) []byte {
	var tmp [24]byte
	return appendRight(dst, strconv.AppendUint(tmp[:0], v, 10), width)
}

// appendFloatRight appends v with prec decimals right-aligned in width cells.
func appendFloatRight(dst []byte, v float64, prec, width int) []byte {
	var tmp [32]byte
	return appendRight(dst, strconv.AppendFloat(tmp[:0], v, 'f', prec, 64), width)
}

// appendSize appends a byte count in KiB, MiB or GiB with one decimal.
func appendSize(dst []byte, n uint64) []byte {
	const kib = 1024
	v, unit := float64(n)/kib, " KiB"
	if v >= kib {
		v, unit = v/kib, " MiB"
	}
	if v >= kib {
		v, unit = v/kib, " GiB"
	}
	dst = strconv.AppendFloat(dst, v, 'f', 1, 64)
	return append(dst, unit...)
}

// appendDuration appends d in a short form: "850ns", "41µs", "1.25ms",
// "2.0s"; micro is the microseconds' unit (see glyphs).
func appendDuration(dst []byte, d time.Duration, micro string) []byte {
	switch {
	case d < time.Microsecond:
		dst = strconv.AppendInt(dst, int64(d), 10)
		return append(dst, "ns"...)
	case d < time.Millisecond:
		dst = strconv.AppendInt(dst, int64(d/time.Microsecond), 10)
		return append(dst, micro...)
	case d < time.Second:
		dst = strconv.AppendFloat(dst, float64(d)/float64(time.Millisecond), 'f', 2, 64)
		return append(dst, "ms"...)
	}
	dst = strconv.AppendFloat(dst, d.Seconds(), 'f', 1, 64)
	return append(dst, 's')
}

// rect is a box of cells on screen.
type rect struct{ x, y, w, h int }

// at is r moved by (dx, dy).
func (r rect) at(dx, dy int) rect { return rect{r.x + dx, r.y + dy, r.w, r.h} }

// putter is what draws cells: a tcell.Screen, or a test's log of them.
type putter interface {
	Put(x, y int, str string, st tcell.Style) (remain string, width int)
	Colors() int
}

// blank is what a cleared cell holds (tcell's Clear).
const blank = " "

// fg is the style of the colour nearest to r, g, b among the 240 of
// xterm's 256-colour palette that themes leave alone: what tcell shows on
// a 256-colour terminal anyway, and on a truecolor one a style change of
// 11 bytes where the colour's own took up to 19.
func fg(r, g, b int32) tcell.Style {
	return tcell.StyleDefault.Foreground(tcell.FindColor(tcell.NewRGBColor(r, g, b), fixedColours))
}

var fixedColours = func() []tcell.Color {
	p := make([]tcell.Color, 240)
	for i := range p {
		p[i] = tcell.PaletteColor(16 + i)
	}
	return p
}()

var (
	borderStyle  = tcell.StyleDefault.Foreground(tcell.ColorGray)
	focusStyle   = tcell.StyleDefault.Foreground(tcell.ColorTeal)
	titleStyle   = tcell.StyleDefault.Foreground(tcell.ColorWhite).Bold(true)
	badgeStyle   = tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(tcell.ColorYellow)
	overlayStyle = tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(tcell.ColorBlack)
	overlayTitle = overlayStyle.Foreground(tcell.ColorYellow).Bold(true)
)

var (
	labelStyle    = tcell.StyleDefault.Foreground(tcell.ColorGray)
	valueStyle    = tcell.StyleDefault.Foreground(tcell.ColorWhite)
	headStyle     = tcell.StyleDefault.Foreground(tcell.ColorTeal).Bold(true)
	strategyStyle = tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
	alertStyle    = tcell.StyleDefault.Foreground(tcell.ColorRed).Bold(true)
	sparkStyles   = [3]tcell.Style{
		tcell.StyleDefault.Foreground(tcell.ColorGreen),
		tcell.StyleDefault.Foreground(tcell.ColorYellow),
		tcell.StyleDefault.Foreground(tcell.ColorRed),
	}
)

// span is a run of a line's bytes drawn in one style.
type span struct {
	start int
	st    tcell.Style
}

// textLine is one line of a widget's text (the panel's, a box's edge,
// the key help): bytes and the styles of its runs, and the bytes as a
// string for drawing. On a surface it is drawn as the row of cells it
// makes once a format, in the buffer's own form.
type textLine struct {
	b       []byte
	spans   []span
	text    textCache
	settled []span // the spans of text

	cells []vt.Cell // the line in the cells of on, w wide, while made
	on    *vt.Frame
	gen   uint32 // on's Gen when they were made
	w     int
	made  bool // cells are the text's; false when cells cannot hold it
	ok    bool
	key   vt.Key // names the cells as made
}

func (l *textLine) reset() { l.b, l.spans = l.b[:0], l.spans[:0] }

// settle ends a format: the line's bytes become its text. It tells
// whether the line changed.
func (l *textLine) settle() bool {
	if string(l.b) == l.text.s && slices.Equal(l.spans, l.settled) {
		return false // as it was: its cells, and their key, stay
	}
	l.text.of(l.b)
	l.settled = append(l.settled[:0], l.spans...)
	l.made = false
	return true
}

// textLines are a box's lines of text (the panel's, the players'),
// formatted anew from each sample and drawn whole every frame. Their
// buffers are made once, so formatting them allocates nothing once their
// strings settle. Drawn on a surface they are stamped as a block (see
// vt.Frame.Stamp): while no line changes and the buffer holds the block,
// a frame draws none.
type textLines struct {
	lines []textLine
	n     int // the lines formatted since the last settle

	changed bool      // a line changed since the block was stamped
	at      rect      // where it was stamped,
	on      *vt.Frame // on which buffer,
	key     vt.Key    // as what
}

func newTextLines(n int) textLines {
	t := textLines{lines: make([]textLine, n)}
	for i := range t.lines {
		t.lines[i].b = make([]byte, 0, 4*panelWidth)
		t.lines[i].spans = make([]span, 0, 8)
	}
	return t
}

// next returns the next line to format, empty.
func (t *textLines) next() *textLine {
	l := &t.lines[t.n]
	t.n++
	l.reset()
	return l
}

// settle ends a format: the lines it did not reach are blank, and each
// line's bytes become its text.
func (t *textLines) settle() {
	for i := range t.lines {
		if i >= t.n {
			t.lines[i].reset()
		}
		if t.lines[i].settle() {
			t.changed = true
		}
	}
	t.n = 0
}

// draw sets the lines from (x, y), w cells wide and at most h of them.
func (t *textLines) draw(scr tcell.Screen, x, y, w, h int) {
	r := rect{x, y, w, min(len(t.lines), h)}
	sf, _ := scr.(*surface)
	if sf != nil && !t.changed && t.on == sf.f && t.at == r && sf.f.Holds(r.x, r.y, r.w, r.h, t.key) {
		return
	}
	for i := range r.h {
		t.lines[i].draw(scr, x, y+i, w)
	}
	if sf != nil {
		t.changed, t.at, t.on, t.key = false, r, sf.f, sf.f.NewKey()
		sf.f.Stamp(r.x, r.y, r.w, r.h, t.key)
	}
}

// style starts a run in st at the end of the line.
func (l *textLine) style(st tcell.Style) *textLine {
	l.spans = append(l.spans, span{start: len(l.b), st: st})
	return l
}

func (l *textLine) str(s string) *textLine { l.b = append(l.b, s...); return l }

// draw sets the line at (x, y), blank to w cells.
func (l *textLine) draw(scr tcell.Screen, x, y, w int) {
	if sf, ok := scr.(*surface); ok && l.row(sf.f, w) {
		sf.f.SetCellsAs(x, y, l.cells, l.key)
		return
	}
	for i, sp := range l.spans {
		end := len(l.b)
		if i+1 < len(l.spans) {
			end = l.spans[i+1].start
		}
		n := putString(scr, x, y, w, l.text.s[sp.start:end], sp.st)
		x, w = x+n, w-n
	}
	if w > 0 {
		clearLine(scr, x, y, w)
	}
}

// row makes the line's cells in f, w wide, unless made already; false
// where cells cannot hold it (see vt.Frame.AppendCells).
func (l *textLine) row(f *vt.Frame, w int) bool {
	if l.made && l.on == f && l.gen == f.Gen() && l.w == w {
		return l.ok
	}
	l.made, l.on, l.gen, l.w, l.ok, l.key = true, f, f.Gen(), w, true, f.NewKey()
	l.cells = l.cells[:0]
	for i, sp := range l.spans {
		end := len(l.b)
		if i+1 < len(l.spans) {
			end = l.spans[i+1].start
		}
		if l.cells, l.ok = f.AppendCells(l.cells, l.text.s[sp.start:end], sp.st); !l.ok {
			return false
		}
	}
	l.cells = l.cells[:min(len(l.cells), max(w, 0))]
	for len(l.cells) < w {
		l.cells = append(l.cells, vt.Cell{})
	}
	return true
}

// cellOf is a one-cell string in a style as a cell of a surface's buffer,
// made once: resolving a style costs a lookup, and the lines a widget
// draws every frame are of a few cells.
type cellOf struct {
	s   string
	st  tcell.Style
	on  *vt.Frame
	gen uint32
	c   vt.Cell
	ok  bool // c is s in st: s is one narrow rune, st a style of its own
}

// cell is s in st as a Cell of f; false where none can be (see
// vt.Frame.Cell).
func (k *cellOf) cell(f *vt.Frame, s string, st tcell.Style) (vt.Cell, bool) {
	if k.on != f || k.gen != f.Gen() || k.s != s || k.st != st {
		k.on, k.gen, k.s, k.st, k.ok = f, f.Gen(), s, st, false
		if r, size := utf8.DecodeRuneInString(s); s != "" && size == len(s) {
			p := f.Pen(st)
			k.c, k.ok = f.Cell(r, &p)
		}
	}
	return k.c, k.ok
}

// line draws n copies of s, one cell each, from (x, y) along the row
// (dx 1) or down the column (dy 1).
func (k *cellOf) line(scr putter, x, y, dx, dy, n int, s string, st tcell.Style) {
	if n <= 0 {
		return
	}
	if sf, ok := scr.(*surface); ok {
		if c, ok := k.cell(sf.f, s, st); ok {
			if dy == 0 {
				sf.f.SetRun(x, y, n, c)
			} else {
				sf.f.SetColumn(x, y, n, c)
			}
			return
		}
	}
	for i := range n {
		scr.Put(x+i*dx, y+i*dy, s, st)
	}
}
