// Package vt keeps the cells of a terminal screen and writes to the
// terminal only what changed: a [Frame] is a grid of cells that drawing
// code sets with tcell's own Put semantics, and [Frame.Render] appends the
// bytes that bring an ANSI terminal (ECMA-48 cursor addressing, SGR
// colours, UTF-8) up to date with it.
//
// # Why not tcell's Show
//
// tcell's terminfo screen does the same job for any terminal, at a cost
// that a game redrawing at 30 frames a second for dozens of SSH players
// notices: every Show walks every cell (about 190 bytes each, so 900 KB
// for 120×40) to find the few that changed, and each changed cell costs a
// terminfo string expansion and two allocations. A Frame keeps 16 bytes a
// cell (what was drawn, what the terminal shows; a cluster of one rune
// held as the rune, longer ones in a table), walks only the columns that
// were touched, and formats cursor moves and colours into a buffer that
// the caller reuses: a frame allocates nothing, and a still screen costs
// nothing at all, not even the bytes that hide and show the cursor.
//
// # What it sends
//
// Render sends the cells that changed in reading order. Before each it
// moves the cursor the shortest way: not at all when the cell follows the
// last one sent; along a row, CUF (ESC [ n C), or the cells in between
// sent again when that is shorter (a blank or two, usually); else CUP
// (ESC [ row ; column H), a parameter of 1 left out. It sets the colours
// and attributes by what changed since the last cell (SGR 22–29 turn
// attributes off, 39 and 49 restore the default colours), or from the
// default (SGR 0) when that is shorter or the colours are not known, as at
// the start of a frame; a blank keeps the colours of the cell before it
// when it shows the same (the same background, and the foreground only
// under reverse video, underline, strikethrough or blink). A frame comes
// within a few percent of the least those changes can cost (package ui's
// BenchmarkFrameBytes sets the game's frames against that floor).
//
// It relies only on what every terminal with 256 colours and UTF-8 does:
// CUP and CUF with ECMA-48's default parameters, SGR 0–5, 7, 9, 22–25,
// 27, 29, 30–49 and 90–107 (38/48;5 for the palette, 38/48;2 for RGB),
// ED 2, DECTCEM (?25) and synchronized output (?2026, which terminals
// that lack it ignore). A caller keeps tcell's own output for the rest.
//
// # Semantics
//
// Put, Get, Fill and the cell contents are those of tcell's CellBuffer: a
// cell holds one grapheme cluster, one or two columns wide, and a style; a
// colour of ColorNone keeps the cell's own. A cell is sent when it differs
// from what the terminal shows, however often it was set in between: a
// cell set back to what the terminal shows is not sent, so drawing code
// may draw every frame whole, and a still frame sends nothing. (tcell's
// CellBuffer sends a cell whose content changed and changed back.) Rows
// and areas drawn every frame from content that seldom changes cost a
// lookup each (see [Frame.SetCellsAs], [Frame.Holds]). After
// output of others, [Frame.Invalidate] (or Resize) makes the next Render
// send every cell.
//
// A display that is not an ANSI terminal (tcell's own buffer, a browser)
// takes the same changes cell by cell from [Frame.Changes].
package vt

import (
	"bytes"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// span is the columns lo to hi-1 of a row; none when lo >= hi.
type span struct{ lo, hi int }

// Cell is one cell of a Frame, in its own form, in 8 bytes: a frame's
// cells are walked and compared at every Render, and a server keeps those
// of many. The zero Cell is blank in the default style. Drawing code that
// sets many cells a frame makes them with [Frame.Cell] and sets them a
// row at a time with [Frame.SetCells].
type Cell struct {
	g    glyph
	st   uint16 // index in Frame.styles
	wide bool   // the cluster takes two columns
	pad  uint8  // always 0; no gap: Cells compare as 8 bytes, eight at a time as 64
}

// Keep is the Cell SetCells leaves as the frame holds it: a cell of a row
// that other drawing covers.
var Keep = Cell{pad: 1}

// cell is the name this package's code knows Cell by.
type cell = Cell

// glyph is a cell's grapheme cluster: 0 a blank, a cluster of one rune
// that rune, a longer one clusterBase plus its index in Frame.clusters.
type glyph uint32

const clusterBase glyph = utf8.MaxRune + 1

// maxClusters bounds the clusters of more than one rune a Frame keeps.
// When the table is full the ones no cell holds are dropped.
const maxClusters = 4096

// unknown is what a cell of Frame.shown holds when the terminal's cell is
// not known: it differs from every cell a Frame holds.
var unknown = cell{st: maxStyles}

// maxStyles bounds the styles a Frame keeps, and so the cost of finding
// one. When the table is full the styles no cell uses are dropped; a
// style beyond maxStyles in use at once shows as the default.
const maxStyles = 4096

// Frame is a terminal screen's cells: what drawing set (cells) and what
// the terminal shows (shown). Its zero value is an empty frame in 256
// colours; [Frame.Resize] gives it a size. A Frame is not safe for
// concurrent use.
type Frame struct {
	// TrueColor sends RGB colours as they are; otherwise they are sent as
	// the nearest of the 256-colour palette.
	TrueColor bool

	w, h  int
	cells []cell
	shown []cell
	dirty []span // each row's columns touched since the last Render
	// The spans set from named content and unchanged since (see
	// stamp.go): rowStamps a row, nrows of them in use; and the areas',
	// by slot, each row's slots in a bit mask.
	rows   []stamp
	nrows  []uint8
	areas  [maxAreas]area
	amask  []uint64
	inUse  uint64 // the slots of areas in use
	oldest int    // the slot to go when all are in use
	keys   Key    // the last NewKey
	wipe   bool   // the terminal must be cleared first: shown is unknown

	styles []tcell.Style          // styles[0] is tcell.StyleDefault
	index  map[tcell.Style]uint16 // styles by style, once there are more than one
	pens   []pen                  // each style as SGR parameters, made at first use
	recent [64]uint16             // styles by a hash of their colours and attributes, tried first

	cursorOn         bool // the cursor shows, at (cursorX, cursorY)
	cursorX, cursorY int
	cursorSent       int8 // the cursor as last sent: 0 unknown, 1 hidden, 2 shown
	sentX, sentY     int

	runes map[rune]string // one-rune strings, made once for SetContent and Get

	clusters  []string         // the clusters of more than one rune, by glyph-clusterBase
	clusterIx map[string]glyph // and their glyphs
	stats     Stats
	gen       uint32 // counts the compactions of styles and clusters, which renumber them: see Pen
}

// Resize makes the frame w×h blank cells. The next Render clears the
// terminal and sends every cell that is not blank in the default style.
func (f *Frame) Resize(w, h int) {
	w, h = max(w, 0), max(h, 0)
	n := w * h
	if cap(f.cells) < n {
		f.cells = make([]cell, n)
		f.shown = make([]cell, n)
	}
	if cap(f.dirty) < h {
		f.dirty = make([]span, h)
	}
	if cap(f.nrows) < h {
		f.rows, f.nrows, f.amask = make([]stamp, h*rowStamps), make([]uint8, h), make([]uint64, h)
	}
	f.w, f.h = w, h
	f.cells, f.shown, f.dirty, f.nrows, f.amask = f.cells[:n], f.shown[:n], f.dirty[:h], f.nrows[:h], f.amask[:h]
	f.unstampAll()
	clear(f.cells)
	f.initStyles()
	f.Invalidate()
}

// Size returns the frame's width and height in cells.
func (f *Frame) Size() (w, h int) { return f.w, f.h }

// Invalidate forgets what the terminal shows: the next Render clears it
// and sends every cell that is not blank in the default style.
func (f *Frame) Invalidate() {
	f.wipe = true
	f.cursorSent = 0
	for i := range f.dirty {
		f.dirty[i] = span{0, f.w}
	}
}

// Put sets the cell at (x, y) to the first grapheme cluster of str in
// style st, as tcell's CellBuffer.Put does, and returns the rest of str
// and the columns the cluster takes: 0 when (x, y) is off the frame, and
// then the cell is left alone.
func (f *Frame) Put(x, y int, str string, st tcell.Style) (rest string, width int) {
	if x < 0 || y < 0 || x >= f.w || y >= f.h {
		return str, 0
	}
	if r, n := utf8.DecodeRuneInString(str); narrow(r) {
		if rest = str[n:]; rest == "" || narrow(firstRune(rest)) {
			f.set(x, y, runeGlyph(r), 1, st)
			return rest, 1
		}
	}
	cl, rest, width := cluster(str)
	f.set(x, y, f.glyphOf(cl), width, st)
	return rest, width
}

// firstRune is the first rune of s.
func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// set sets the cell at (x, y), which is on the frame.
func (f *Frame) set(x, y int, g glyph, width int, st tcell.Style) {
	i := y*f.w + x
	c := &f.cells[i]
	fg, bg, attrs := st.Decompose()
	if fg == tcell.ColorNone || bg == tcell.ColorNone {
		cfg, cbg, _ := f.styles[c.st].Decompose()
		if fg == tcell.ColorNone {
			fg = cfg
			st = st.Foreground(cfg)
		}
		if bg == tcell.ColorNone {
			bg = cbg
			st = st.Background(cbg)
		}
	}
	n := cell{g: g, st: f.style(st, fg, bg, attrs), wide: width > 1}
	if *c == n {
		return // nothing to send, nothing to look at
	}
	*c = n
	f.touch(x, y)
}

// touch marks (x, y), whose cell changed, for Render to look at.
func (f *Frame) touch(x, y int) { f.changed(y, x, x+1) }

// changed marks the columns lo to hi-1 of row y, whose cells changed
// (some of them), for Render to look at; the stamps over them go.
func (f *Frame) changed(y, lo, hi int) {
	if d := &f.dirty[y]; d.lo >= d.hi {
		*d = span{lo, hi}
	} else {
		d.lo, d.hi = min(d.lo, lo), max(d.hi, hi)
	}
	f.unstamp(y, lo, hi)
}

// Clear blanks every cell, in the default style. What the terminal shows
// is kept: the next Render sends only the cells that now differ from it.
func (f *Frame) Clear() {
	for y := range f.h {
		row := f.cells[y*f.w : (y+1)*f.w]
		for x := range row {
			if row[x] != (cell{}) {
				row[x] = cell{}
				f.touch(x, y)
			}
		}
	}
}

// PutString puts s from (x, y) in style st, at most maxw cells, as Puts
// of its clusters one after the other would, and returns the cells used;
// it stops at the frame's edge. It resolves st once: a string of narrow
// runes (see narrow) costs a compare a cell where the frame holds it
// already.
func (f *Frame) PutString(x, y, maxw int, s string, st tcell.Style) int {
	if y < 0 || y >= f.h || x < 0 {
		return 0
	}
	maxw = min(maxw, f.w-x)
	fg, bg, attrs := st.Decompose()
	if fg == tcell.ColorNone || bg == tcell.ColorNone {
		return f.putEach(x, y, maxw, s, st) // each cell's colours
	}
	ix := f.style(st, fg, bg, attrs)
	row := f.cells[y*f.w : (y+1)*f.w]
	n := 0
	for s != "" && n < maxw {
		// A run of ASCII, each a cluster of its own but the last, which
		// may take a combining mark after it.
		i := 0
		for i+1 < len(s) && n < maxw && s[i] >= 0x20 && s[i] < 0x7f && s[i+1] < utf8.RuneSelf {
			c := Cell{g: runeGlyph(rune(s[i])), st: ix}
			if p := &row[x+n]; *p != c {
				*p = c
				f.touch(x+n, y)
			}
			i, n = i+1, n+1
		}
		if s = s[i:]; s == "" || n >= maxw {
			break
		}
		r, size := utf8.DecodeRuneInString(s)
		if rest := s[size:]; narrow(r) && (rest == "" || narrow(firstRune(rest))) {
			f.setCell(x+n, y, cell{g: runeGlyph(r), st: ix})
			s, n = rest, n+1
			continue
		}
		var w int
		if s, w = f.Put(x+n, y, s, st); w == 0 {
			break
		}
		n += w
	}
	return n
}

// putEach is PutString by Put.
func (f *Frame) putEach(x, y, maxw int, s string, st tcell.Style) int {
	n := 0
	for s != "" && n < maxw {
		var w int
		if s, w = f.Put(x+n, y, s, st); w == 0 {
			break
		}
		n += w
	}
	return n
}

// setCell sets the cell at (x, y), which is on the frame, to c.
func (f *Frame) setCell(x, y int, c cell) {
	if p := &f.cells[y*f.w+x]; *p != c {
		*p = c
		f.touch(x, y)
	}
}

// Pen is a style resolved in a Frame's table once, for Cell: drawing
// code that sets many cells in a few styles (a playfield) keeps a Pen a
// style. It stays right when the table is compacted: it re-resolves
// then. Its zero value is the default style.
type Pen struct {
	st   tcell.Style
	ix   uint16
	gen  uint32 // the frame's gen when ix was resolved, plus one; 0: never
	none bool   // a colour of st is ColorNone: each cell's own is kept, by Put
}

// Pen returns the pen of style st.
func (f *Frame) Pen(st tcell.Style) Pen {
	p := Pen{st: st}
	f.resolve(&p)
	return p
}

// resolve finds p's style in the table.
func (f *Frame) resolve(p *Pen) {
	fg, bg, attrs := p.st.Decompose()
	p.none = fg == tcell.ColorNone || bg == tcell.ColorNone
	p.ix, p.gen = f.style(p.st, fg, bg, attrs), f.gen+1
}

// Cell is r in p's style, for SetCells and SetRun; false where it cannot
// be one (r is not a narrow rune, see narrow, or p's style keeps a
// cell's own colour). A Cell holds the index of its style in the frame's
// table, which a compaction renumbers: a Cell made before one is wrong
// after it (see Gen).
func (f *Frame) Cell(r rune, p *Pen) (Cell, bool) {
	if p.gen != f.gen+1 {
		f.resolve(p)
	}
	if p.none || !narrow(r) {
		return Cell{}, false
	}
	return Cell{g: runeGlyph(r), st: p.ix}, true
}

// SetColumn sets n cells from (x, y) down the column to c, as far as the
// frame goes. The cells that hold it already cost a compare each.
func (f *Frame) SetColumn(x, y, n int, c Cell) {
	if x < 0 || x >= f.w {
		return
	}
	for j := max(y, 0); j < min(y+n, f.h); j++ {
		if p := &f.cells[j*f.w+x]; *p != c {
			*p = c
			f.touch(x, j)
		}
	}
}

// SetRun sets n cells from (x, y) along the row to c, as far as the
// frame goes. The cells that hold it already cost a compare each.
func (f *Frame) SetRun(x, y, n int, c Cell) {
	if y < 0 || y >= f.h {
		return
	}
	lo, hi := max(x, 0), min(x+n, f.w)
	row := f.cells[y*f.w : (y+1)*f.w]
	first, last := -1, -1
	for i := lo; i < hi; i++ {
		if row[i] != c {
			row[i] = c
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first >= 0 {
		f.changed(y, first, last+1)
	}
}

// AppendCells appends s in style st as the cells PutString would set,
// for SetCells; false, and dst as it was, where a cluster of s takes two
// columns or none, or st keeps a cell's own colour (ColorNone). Like
// Cell's, the Cells are wrong once Gen changed.
func (f *Frame) AppendCells(dst []Cell, s string, st tcell.Style) ([]Cell, bool) {
	fg, bg, attrs := st.Decompose()
	if fg == tcell.ColorNone || bg == tcell.ColorNone {
		return dst, false
	}
	ix := f.style(st, fg, bg, attrs)
	start := len(dst)
	for s != "" {
		r, size := utf8.DecodeRuneInString(s)
		if rest := s[size:]; narrow(r) && (rest == "" || narrow(firstRune(rest))) {
			dst = append(dst, Cell{g: runeGlyph(r), st: ix})
			s = rest
			continue
		}
		cl, rest, width := cluster(s)
		if width != 1 {
			return dst[:start], false
		}
		dst = append(dst, Cell{g: f.glyphOf(cl), st: ix})
		s = rest
	}
	return dst, true
}

// WithRune is c with the narrow rune r (see Cell), in c's style.
func (c Cell) WithRune(r rune) Cell {
	c.g = runeGlyph(r)
	return c
}

// Gen counts the compactions of the frame's styles and clusters: the
// Cells made before the count changed are wrong.
func (f *Frame) Gen() uint32 { return f.gen }

// SetCells sets the cells from (x, y) along the row to cs, as far as the
// frame goes, but for those of cs that are Keep. The cells that hold them
// already cost a compare each.
func (f *Frame) SetCells(x, y int, cs []Cell) {
	if y < 0 || y >= f.h || x >= f.w {
		return
	}
	if x < 0 {
		cs = cs[min(-x, len(cs)):]
		x = 0
	}
	cs = cs[:min(len(cs), f.w-x)]
	row := f.cells[y*f.w+x : y*f.w+x+len(cs)]
	lo, hi := -1, -1
	for i := alike(row, cs); i < len(cs); i += 1 + alike(row[i+1:], cs[i+1:]) {
		if cs[i] != Keep {
			row[i] = cs[i]
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if lo >= 0 {
		f.changed(y, x+lo, x+hi+1)
	}
}

// alike returns how many cells a and b hold alike from their start. It
// compares them as the 8-byte words they are: all at once first (most of
// a row is as it was), then a word at a time to the first that differs.
func alike(a, b []Cell) int {
	n := min(len(a), len(b))
	if n == 0 {
		return 0
	}
	pa, pb := unsafe.Pointer(unsafe.SliceData(a)), unsafe.Pointer(unsafe.SliceData(b))
	if bytes.Equal(unsafe.Slice((*byte)(pa), 8*n), unsafe.Slice((*byte)(pb), 8*n)) {
		return n
	}
	wa, wb := unsafe.Slice((*uint64)(pa), n), unsafe.Slice((*uint64)(pb), n)
	i := 0
	for wa[i] == wb[i] {
		i++
	}
	return i
}

// cluster splits the first grapheme cluster off s, with its width, by
// Unicode's tables. (Put knows the characters a game screen is made of
// without them: see narrow.)
func cluster(s string) (cl, rest string, width int) {
	// uniseg gives zero-width clusters (a lone combining mark) width 0;
	// tcell joins them to the next cluster that has a width.
	state := -1
	var end int
	for width == 0 && end < len(s) {
		var g string
		g, _, width, state = uniseg.FirstGraphemeClusterInString(s[end:], state)
		end += len(g)
	}
	return s[:end], s[end:], width
}

// narrow reports whether r is a cluster of its own, one column wide,
// whatever precedes it: printable ASCII and Latin-1, arrows, box drawing,
// blocks and geometric shapes, braille.
func narrow(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f, r >= 0xa0 && r < 0x300 && r != 0xad: // not the soft hyphen
		return true
	case r >= 0x2190 && r < 0x2200, r >= 0x2500 && r < 0x25fd, r >= 0x2800 && r < 0x2900:
		return true
	}
	return false
}

// SetContent sets the cell at (x, y) to mainc followed by combc, as
// tcell's SetContent does. A rune alone costs an allocation the first time
// it is set, none after.
func (f *Frame) SetContent(x, y int, mainc rune, combc []rune, st tcell.Style) {
	if x < 0 || y < 0 || x >= f.w || y >= f.h {
		return
	}
	if len(combc) > 0 {
		_, _ = f.Put(x, y, string(append([]rune{mainc}, combc...)), st)
		return
	}
	_, _ = f.Put(x, y, f.runeString(mainc), st)
}

// runeGlyph is the glyph of a cluster of one rune r: a blank is 0
// whichever way it was set.
func runeGlyph(r rune) glyph {
	if r == ' ' {
		return 0
	}
	return glyph(r)
}

// glyphOf returns the glyph of cluster cl, adding it to the table when
// it is of more than one rune.
func (f *Frame) glyphOf(cl string) glyph {
	switch r, n := utf8.DecodeRuneInString(cl); {
	case cl == "":
		return 0
	case n == len(cl):
		return runeGlyph(r)
	}
	if g, ok := f.clusterIx[cl]; ok {
		return g
	}
	if len(f.clusters) >= maxClusters {
		f.compactClusters()
	}
	return f.addCluster(cl)
}

// addCluster adds cl, of more than one rune, to the table.
func (f *Frame) addCluster(cl string) glyph {
	if g, ok := f.clusterIx[cl]; ok {
		return g
	}
	if f.clusterIx == nil {
		f.clusterIx = make(map[string]glyph)
	}
	g := clusterBase + glyph(len(f.clusters))
	f.clusters = append(f.clusters, cl)
	f.clusterIx[cl] = g
	return g
}

// compactClusters drops the clusters no cell holds. What the terminal
// shows is then known by old glyphs only: it is redrawn.
func (f *Frame) compactClusters() {
	old := f.clusters
	f.clusters = nil
	clear(f.clusterIx)
	for i, c := range f.cells {
		if c.g >= clusterBase {
			f.cells[i].g = f.addCluster(old[c.g-clusterBase])
		}
	}
	f.gen++
	f.unstampAll()
	f.Invalidate()
}

// appendGlyph appends the UTF-8 of g.
func (f *Frame) appendGlyph(dst []byte, g glyph) []byte {
	switch {
	case g == 0:
		return append(dst, ' ')
	case g < utf8.RuneSelf:
		return append(dst, byte(g))
	case g < clusterBase:
		return utf8.AppendRune(dst, rune(g))
	}
	return append(dst, f.clusters[g-clusterBase]...)
}

// Get returns the cell at (x, y) as tcell's CellBuffer.Get does: a blank
// is " ", one column wide; off the frame, " " in the default style. A
// cell of one rune other than ASCII costs an allocation the first time
// its rune is asked for, none after.
func (f *Frame) Get(x, y int) (str string, st tcell.Style, width int) {
	if x < 0 || y < 0 || x >= f.w || y >= f.h {
		return " ", tcell.StyleDefault, 1
	}
	c := f.cells[y*f.w+x]
	width = 1
	if c.wide {
		width = 2
	}
	switch {
	case c.g == 0:
		return " ", f.styles[c.st], 1
	case c.g >= clusterBase:
		return f.clusters[c.g-clusterBase], f.styles[c.st], width
	}
	return f.runeString(rune(c.g)), f.styles[c.st], width
}

// runeString returns r as a string, made once.
func (f *Frame) runeString(r rune) string {
	if r >= 0 && r < utf8.RuneSelf {
		return ascii[r]
	}
	s, ok := f.runes[r]
	if !ok {
		if f.runes == nil {
			f.runes = make(map[rune]string)
		}
		s = string(r)
		f.runes[r] = s
	}
	return s
}

// Fill sets every cell to r in style st.
func (f *Frame) Fill(r rune, st tcell.Style) {
	for y := range f.h {
		for x := range f.w {
			f.SetContent(x, y, r, nil, st)
		}
	}
}

// ShowCursor shows the cursor at (x, y) from the next Render on; at a
// negative position (HideCursor uses -1, -1) or off the frame, hides it.
// The cursor is hidden until it is shown.
func (f *Frame) ShowCursor(x, y int) {
	f.cursorOn, f.cursorX, f.cursorY = x >= 0 && y >= 0, x, y
}

// style returns the index of st in the frame's table, adding it.
// The drawing of a frame goes round a few styles, each Put in another:
// a small table by a hash of the colours and attributes finds most of
// them at the cost of one compare, the map (a Style has strings to hash)
// the rest.
// fg, bg and attrs are st's.
func (f *Frame) style(st tcell.Style, fg, bg tcell.Color, attrs tcell.AttrMask) uint16 {
	f.initStyles()
	h := (uint64(fg)*0x9e3779b97f4a7c15 ^ uint64(bg)*0xc2b2ae3d27d4eb4f ^ uint64(attrs)) >> 58
	if i := f.recent[h]; f.styles[i] == st {
		return i
	}
	i, ok := f.index[st]
	if !ok {
		i = f.add(st)
	}
	f.recent[h] = i
	return i
}

// initStyles starts the table of a frame that has none with the default
// style, index 0: the style of a zero cell.
func (f *Frame) initStyles() {
	if len(f.styles) == 0 {
		f.styles, f.pens = append(f.styles, tcell.StyleDefault), append(f.pens, pen{})
	}
}

// add adds st to the table and returns its index.
func (f *Frame) add(st tcell.Style) uint16 {
	if len(f.styles) == maxStyles {
		if f.compact(); len(f.styles) == maxStyles {
			return 0
		}
	}
	if f.index == nil {
		f.index = map[tcell.Style]uint16{f.styles[0]: 0}
	}
	i := uint16(len(f.styles))
	f.styles = append(f.styles, st)
	f.pens = append(f.pens, pen{})
	f.index[st] = i
	return i
}

// compact drops the styles no cell uses, renumbering the rest in order.
// What the terminal shows is then known by old numbers only: it is
// redrawn.
func (f *Frame) compact() {
	remap := make([]uint16, len(f.styles))
	used := make([]bool, len(f.styles))
	used[0] = true
	for _, c := range f.cells {
		used[c.st] = true
	}
	n := 0
	for i, u := range used {
		if u {
			remap[i] = uint16(n)
			f.styles[n], f.pens[n] = f.styles[i], f.pens[i]
			n++
		}
	}
	f.styles, f.pens = f.styles[:n], f.pens[:n]
	clear(f.index)
	for i, st := range f.styles {
		f.index[st] = uint16(i)
	}
	for i := range f.cells {
		f.cells[i].st = remap[f.cells[i].st]
	}
	clear(f.recent[:])
	f.gen++
	f.unstampAll()
	f.Invalidate()
}

// Stats counts what a Frame has sent. Its zero value is nothing sent.
type Stats struct {
	Renders uint64 // calls of Render, those that sent nothing included
	Bytes   uint64 // bytes appended by Render
	Cells   uint64 // cells sent: those that changed, and those reprinted
}

// Stats returns what the frame has sent since it was made.
func (f *Frame) Stats() Stats { return f.stats }

// Render appends to dst the bytes that make the terminal show the frame,
// and returns it; nothing when the terminal shows it already. The cursor
// position and the colours the terminal had are not relied on, so output
// written by others between two Renders (that leaves the cells alone) does
// no harm.
func (f *Frame) Render(dst []byte) []byte {
	start := len(dst)
	f.stats.Renders++
	cx, cy := -1, -1 // the terminal's cursor, once known
	cur := -1        // the style the terminal draws in, once known
	hidden := false  // the cursor was hidden for the drawing
	begin := func() {
		dst = append(dst, "\x1b[?2026h"...) // synchronized output: no half frames
		if f.cursorSent != 1 {
			dst = append(dst, "\x1b[?25l"...)
			hidden = true
		}
	}
	if f.wipe {
		begin()
		dst = append(dst, "\x1b[0m\x1b[2J"...)
		f.wipe = false
		clear(f.shown) // the zero cell: a blank in the default style
		cur = 0
	}
	f.walk(func(x, y int, c cell) int {
		if len(dst) == start {
			begin()
		}
		// Move there and send the cell; where the cursor is a few
		// cells short on the row, reprinting them instead may cost
		// less: both ways are written, the longer dropped.
		a, pa := len(dst), cur
		dst = f.move(dst, cx, cy, x, y)
		dst = f.send(dst, &pa, c, x)
		if cy == y && cx >= 0 && x-cx < len(dst)-a {
			b, pb := len(dst), cur
			var ok bool
			if dst, ok = f.reprint(dst, &pb, f.cells[y*f.w+cx:y*f.w+x], cx, len(dst)-a); ok {
				dst = f.send(dst, &pb, c, x)
			}
			if ok && len(dst)-b < b-a {
				dst = dst[:a+copy(dst[a:], dst[b:])]
				pa = pb
				f.stats.Cells += uint64(x - cx)
			} else {
				dst = dst[:b]
			}
		}
		cur = pa
		f.stats.Cells++
		cx, cy = x+1, y
		if c.wide && x+1 < f.w {
			cx++
		}
		next := cx
		if cx >= f.w {
			cx = -1 // at the margin, where terminals differ
		}
		return next
	})
	want := int8(1)
	if f.cursorOn && f.cursorX < f.w && f.cursorY < f.h {
		want = 2
	}
	switch {
	case want == 2 && (len(dst) > start || f.cursorSent != 2 || f.sentX != f.cursorX || f.sentY != f.cursorY):
		if len(dst) == start {
			dst = append(dst, "\x1b[?2026h"...)
		}
		dst = f.move(dst, cx, cy, f.cursorX, f.cursorY)
		dst = append(dst, "\x1b[?25h"...)
		f.sentX, f.sentY = f.cursorX, f.cursorY
	case want == 1 && (f.cursorSent != 1 || hidden):
		if len(dst) == start {
			dst = append(dst, "\x1b[?2026h"...)
		}
		if !hidden {
			dst = append(dst, "\x1b[?25l"...)
		}
	}
	f.cursorSent = want
	if len(dst) > start {
		dst = append(dst, "\x1b[?2026l"...)
	}
	f.stats.Bytes += uint64(len(dst) - start)
	return dst
}

// Changes hands a display that is not an ANSI terminal (tcell's own
// buffer, a browser) what Render would send, and counts it as sent:
// first wipe, when the display must be cleared (after Resize or
// Invalidate), then put for each cell that differs from what the display
// shows, in reading order, with the cell as Get gives it. A cell written
// over half of a wide cluster is followed by the cell of its other half,
// as in Render. Stats counts Changes as a Render, and its cells; no bytes.
func (f *Frame) Changes(wipe func(), put func(x, y int, str string, st tcell.Style, width int)) {
	f.stats.Renders++
	if f.wipe {
		wipe()
		f.wipe = false
		clear(f.shown)
	}
	f.walk(func(x, y int, c cell) int {
		str, st, width := f.Get(x, y)
		put(x, y, str, st, width)
		f.stats.Cells++
		if c.wide && x+1 < f.w {
			return x + 2
		}
		return x + 1
	})
}

// walk calls send with each cell that differs from what the display
// shows, in reading order, and then counts it as shown (the right half of
// a wide cluster as unknown). send returns the column after what it sent:
// a cell written over half of a wide cluster blanks the other half, which
// is then looked at too.
func (f *Frame) walk(send func(x, y int, c cell) (next int)) {
	for y, d := range f.dirty {
		if d.lo >= d.hi {
			continue
		}
		f.dirty[y] = span{}
		row, shown := f.cells[y*f.w:(y+1)*f.w], f.shown[y*f.w:(y+1)*f.w]
		// Start where a cell starts: after a cell that is not wide
		// (whether it is the right half of one or not).
		for d.lo > 0 && row[d.lo-1].wide {
			d.lo--
		}
		for x := d.lo; x < d.hi; x++ {
			c := row[x]
			if c == shown[x] {
				if c.wide {
					x++
				}
				continue
			}
			next := send(x, y, c)
			shown[x] = c
			if c.wide && x+1 < f.w {
				x++
				shown[x] = unknown
			}
			d.hi = max(d.hi, min(next+1, f.w))
		}
	}
}

// Cursor is where the cursor shows, for the displays of Changes: on is
// false when it is hidden.
func (f *Frame) Cursor() (x, y int, on bool) {
	return f.cursorX, f.cursorY, f.cursorOn && f.cursorX < f.w && f.cursorY < f.h
}

// send appends cell c, at column x with the cursor there, in its style
// unless the terminal draws in *cur already (or, for a blank, in a style
// that shows the same), and sets *cur to the style the terminal then
// draws in.
func (f *Frame) send(dst []byte, cur *int, c cell, x int) []byte {
	if int(c.st) != *cur && (c.g != 0 || *cur < 0 || !f.sameBlank(uint16(*cur), c.st)) {
		dst = f.appendSGR(dst, *cur, c.st)
		*cur = int(c.st)
	}
	switch {
	case c.wide && x+1 == f.w: // a wide cluster with no room: tcell sends a blank
		return append(dst, ' ')
	}
	return f.appendGlyph(dst, c.g)
}

// reprint appends the cells gap, which the terminal shows already, from
// column x on, as send does; false when that would take budget bytes or
// more, or when a wide cluster of gap reaches past it.
func (f *Frame) reprint(dst []byte, cur *int, gap []cell, x, budget int) ([]byte, bool) {
	start := len(dst)
	for i := 0; i < len(gap); i++ {
		c := gap[i]
		if c.wide {
			if i+1 == len(gap) {
				return dst, false
			}
			i++
		}
		dst = f.send(dst, cur, c, x+i)
		if len(dst)-start >= budget {
			return dst, false
		}
	}
	return dst, true
}

// move appends the shortest of the sequences this package uses that move
// the cursor from (cx, cy) to (x, y); (-1, -1) is unknown. Along a row
// CUF is never longer than HPA or CHA (it counts from the cursor, they
// from the margin), so it is the only one used.
func (f *Frame) move(dst []byte, cx, cy, x, y int) []byte {
	switch {
	case cx == x && cy == y:
		return dst
	case cy == y && cx >= 0 && x == cx+1: // CUF: ESC [ C
		return append(dst, "\x1b[C"...)
	case cy == y && cx >= 0 && x > cx: // ESC [ n C
		dst = append(dst, '\x1b', '[')
		dst = strconv.AppendInt(dst, int64(x-cx), 10)
		return append(dst, 'C')
	}
	// CUP: ESC [ row ; column H, a parameter of 1 left out (and then
	// the ; before a left-out column).
	dst = append(dst, '\x1b', '[')
	if y > 0 {
		dst = strconv.AppendInt(dst, int64(y+1), 10)
	}
	if x > 0 {
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(x+1), 10)
	}
	return append(dst, 'H')
}

// pen is a style as SGR parameters: its attributes, its colours as sent
// ("" for the default), and the whole sequence that sets it from the
// default.
type pen struct {
	made   bool
	attrs  uint8 // attrOn's bits
	fg, bg string
	full   string // ESC [ 0 ; … m
}

// The attributes this package sends: the SGR parameters that set each
// and that reset it, in the order of the bits of pen.attrs. (22 resets
// both bold and dim.)
var (
	attrOn  = [...]string{"1", "2", "3", "4", "5", "7", "9"}
	attrOff = [...]string{"22", "22", "23", "24", "25", "27", "29"}
)

// shows is the bits of pen.attrs that show on a blank (reverse video,
// underline, strikethrough; blink, with them), which then shows the
// foreground too.
const shows = 1<<3 | 1<<4 | 1<<5 | 1<<6

// penOf returns the pen of style index i, making it the first time.
func (f *Frame) penOf(i uint16) *pen {
	p := &f.pens[i]
	if p.made {
		return p
	}
	st := f.styles[i]
	fg, bg, attrs := st.Decompose()
	for bit, on := range []bool{
		attrs&tcell.AttrBold != 0,
		attrs&tcell.AttrDim != 0,
		attrs&tcell.AttrItalic != 0,
		st.GetUnderlineStyle() != tcell.UnderlineStyleNone,
		attrs&tcell.AttrBlink != 0,
		attrs&tcell.AttrReverse != 0,
		attrs&tcell.AttrStrikeThrough != 0,
	} {
		if on {
			p.attrs |= 1 << bit
		}
	}
	p.fg = string(f.appendColor(nil, fg, 30))
	p.bg = string(f.appendColor(nil, bg, 40))
	b := []byte("\x1b[0")
	for bit, code := range attrOn {
		if p.attrs&(1<<bit) != 0 {
			b = append(append(b, ';'), code...)
		}
	}
	for _, c := range []string{p.fg, p.bg} {
		if c != "" {
			b = append(append(b, ';'), c...)
		}
	}
	p.full, p.made = string(append(b, 'm')), true
	return p
}

// sameBlank reports whether a blank shows the same in styles a and b.
func (f *Frame) sameBlank(a, b uint16) bool {
	pa, pb := f.penOf(a), f.penOf(b)
	vis := pa.attrs & shows
	return pa.bg == pb.bg && vis == pb.attrs&shows && (vis == 0 || pa.fg == pb.fg)
}

// appendSGR appends the SGR sequence that makes the terminal draw in
// style to instead of from (-1: unknown): the parameters of what changed
// (attributes reset or set, colours), or the whole style from the
// default (ESC [ 0 ; …) when that is shorter or from is unknown; nothing
// when the two are sent alike.
func (f *Frame) appendSGR(dst []byte, from int, to uint16) []byte {
	t := f.penOf(to)
	if from < 0 {
		return append(dst, t.full...)
	}
	p := f.penOf(uint16(from))
	start := len(dst)
	dst = append(dst, '\x1b', '[')
	params := len(dst)
	add := func(code string) {
		if len(dst) > params {
			dst = append(dst, ';')
		}
		dst = append(dst, code...)
	}
	on := t.attrs &^ p.attrs
	if off := p.attrs &^ t.attrs; off != 0 {
		for bit, code := range attrOff {
			if off&(1<<bit) != 0 && (bit != 1 || off&1 == 0) { // one 22 for both
				add(code)
			}
		}
		if off&3 != 0 {
			on |= t.attrs & 3 // 22 reset what stays of bold and dim
		}
	}
	for bit, code := range attrOn {
		if on&(1<<bit) != 0 {
			add(code)
		}
	}
	for _, c := range [2][3]string{{p.fg, t.fg, "39"}, {p.bg, t.bg, "49"}} {
		switch {
		case c[0] == c[1]:
		case c[1] == "":
			add(c[2])
		default:
			add(c[1])
		}
	}
	switch {
	case len(dst) == params:
		return dst[:start]
	case len(dst)+1-start > len(t.full):
		return append(dst[:start], t.full...)
	}
	return append(dst, 'm')
}

// appendColor appends the SGR parameters of colour c as a foreground (base
// 30) or background (base 40), the way xterm-256color's terminfo entry
// does: 30–37, 90–97, 38;5;n (or 38;2;r;g;b for RGB on a true-colour
// terminal). A colour that is not valid (the default, reset) adds nothing.
func (f *Frame) appendColor(b []byte, c tcell.Color, base int) []byte {
	if !c.Valid() {
		return b
	}
	if c.IsRGB() {
		if f.TrueColor {
			r, g, bl := c.RGB()
			b = strconv.AppendInt(b, int64(base+8), 10)
			b = append(b, ";2;"...)
			b = strconv.AppendInt(b, int64(r), 10)
			b = append(b, ';')
			b = strconv.AppendInt(b, int64(g), 10)
			b = append(b, ';')
			return strconv.AppendInt(b, int64(bl), 10)
		}
		c = tcell.FindColor(c, palette)
	}
	switch n := int(c & 0xff); {
	case n < 8:
		return strconv.AppendInt(b, int64(base+n), 10)
	case n < 16:
		return strconv.AppendInt(b, int64(base+60+n-8), 10)
	default:
		b = strconv.AppendInt(b, int64(base+8), 10)
		b = append(b, ";5;"...)
		return strconv.AppendInt(b, int64(n), 10)
	}
}

// ascii holds each ASCII character as a string.
var ascii = func() (a [utf8.RuneSelf]string) {
	for i := range a {
		a[i] = string(rune(i))
	}
	return a
}()

// palette is the 256-colour palette that RGB colours are fitted to.
var palette = func() []tcell.Color {
	p := make([]tcell.Color, 256)
	for i := range p {
		p[i] = tcell.PaletteColor(i)
	}
	return p
}()
