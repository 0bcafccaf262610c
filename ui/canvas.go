package ui

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"unsafe"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/ui/vt"
)

// ink is what a dot was drawn for: it picks the cell's colour. A cell shows
// one colour, so when several kinds share a cell the highest ink wins; the
// order below puts what the player must see (ship, shots) above the rest.
type ink uint8

const (
	inkNone  ink = iota
	inkGhost     // a daily game's ghost: under all of the player's world (see ghost.go)
	// Rock debris and ship (or saucer) debris, each older (dimmer), then
	// newer.
	inkRock2
	inkRock1
	inkSpark2
	inkSpark1
	inkAsteroid
	inkSaucer
	inkRefused                             // a refused shot, marked past the nose: under what it would hide
	inkHostile                             // saucer bullets
	inkBullet                              // the player's bullets
	inkFlame                               // thrust flame
	inkShipGhost                           // the ship while invulnerable
	inkShip                                // slot 0's ship; the slots after it have the inks after it
	inkNose      = inkShip + game.MaxShips // slot 0's ship's nose, and so on
	numInks      = inkNose + game.MaxShips
)

// inkStyles colour each kind of dot. tcell fits the RGB values to the
// terminal's palette when it has fewer colours.
var inkStyles = [numInks]tcell.Style{
	inkGhost:     ghostStyle,
	inkRock1:     fg(200, 170, 120),
	inkRock2:     fg(140, 118, 88),
	inkSpark1:    fg(255, 220, 90),
	inkSpark2:    fg(230, 130, 40),
	inkAsteroid:  fg(205, 205, 215),
	inkSaucer:    fg(230, 90, 230),
	inkRefused:   fg(150, 150, 150), // grey: a shot that did not go, no danger
	inkHostile:   fg(255, 70, 70).Bold(true),
	inkBullet:    fg(255, 255, 150),
	inkFlame:     fg(255, 140, 0),
	inkShipGhost: fg(60, 140, 160),
	inkShip:      fg(80, 230, 255).Bold(true),
}

// braille bit of the dot at column x (0..1) and row y (0..3) of a cell,
// after the Unicode braille pattern layout (dots 1-2-3-7 left, 4-5-6-8 right).
var brailleBit = [4][2]uint8{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

// The glyphs as strings made once, for Screen.Put (see putString).
var brailleGlyphs, asciiChars = func() (b [256]string, a [128]string) {
	for i := range b {
		b[i] = string(rune(0x2800 + i))
	}
	for i := range a {
		a[i] = string(rune(i))
	}
	return b, a
}()

// cell is one terminal cell of the canvas.
type cell struct {
	bits  uint8 // braille dots set
	glyph byte  // ASCII mode: the character
	ink   ink
}

// canvas is a grid of terminal cells painted with dots: 2×4 braille dots a
// cell, or one character a cell in ASCII mode. It is sized once per
// terminal size and reused from frame to frame, so painting allocates
// nothing.
type canvas struct {
	ascii  bool
	w, h   int     // cells
	dw, dh int     // dots
	sx, sy float64 // dots per playfield unit
	cells  []cell
}

// resize sets the canvas to w×h cells and clears it. It allocates only when
// the canvas grows past its largest size so far.
func (c *canvas) resize(w, h int, ascii bool) {
	c.ascii = ascii
	c.w, c.h = max(w, 0), max(h, 0)
	c.dw, c.dh = c.w*2, c.h*4
	if ascii {
		c.dw, c.dh = c.w, c.h
	}
	c.sx, c.sy = float64(c.dw)/game.Width, float64(c.dh)/game.Height
	n := c.w * c.h
	if cap(c.cells) < n {
		c.cells = make([]cell, n)
	}
	c.cells = c.cells[:n]
	c.clear()
}

func (c *canvas) clear() { clear(c.cells) }

// dotOf is the dot of the playfield's point p.
func (c *canvas) dotOf(p game.Vec) (int, int) {
	return int(math.Floor(p.X * c.sx)), int(math.Floor(p.Y * c.sy))
}

// dot sets the dot at (x, y) in dot coordinates; outside the canvas it does
// nothing. In ASCII mode glyph is the character the dot shows.
func (c *canvas) dot(x, y int, k ink, glyph byte) {
	if x < 0 || y < 0 || x >= c.dw || y >= c.dh {
		return
	}
	var p *cell
	if c.ascii {
		p = &c.cells[y*c.w+x]
	} else {
		p = &c.cells[(y>>2)*c.w+x>>1]
		p.bits |= brailleBit[y&3][x&1]
	}
	if k >= p.ink {
		p.ink = k
		p.glyph = glyph
	}
}

// line draws from (x0, y0) to (x1, y1) with Bresenham's algorithm, both
// ends included. In ASCII mode the glyph follows the slope.
func (c *canvas) line(x0, y0, x1, y1 int, k ink) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	glyph := slopeGlyph(x1-x0, y1-y0)
	err := dx + dy
	for {
		c.dot(x0, y0, k, glyph)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * err
		if e2 >= dy {
			err += dy
			x0 += sx
		}
		if e2 <= dx {
			err += dx
			y0 += sy
		}
	}
}

// slopeGlyph is the ASCII character that best draws a line of direction
// (dx, dy) in cells, y growing downwards. Cells are about twice as tall as
// wide, so a 45° line on screen moves one row per two columns.
func slopeGlyph(dx, dy int) byte {
	ax, ay := abs(dx), abs(dy)
	switch {
	case ax > 4*ay:
		return '-'
	case ay > ax:
		return '|'
	case (dx > 0) == (dy > 0):
		return '\\'
	default:
		return '/'
	}
}

// field is the arena's playfield on screen: where it is, and what it
// showed at the last frame (shows), from which it holds back a slow
// change on the rows not due this frame (see blit). shows is the field's
// own state, not a copy of the screen's: the field writes every one of
// its cells every frame, so a cleared buffer is drawn again at once.
type field struct {
	at     rect
	shows  []cell
	frames uint // drawn so far: picks the rows due (see blit)

	// On a surface: shows in the buffer's own form (a cell under the
	// overlay or a name vt.Keep: they draw it), made with the inks' pens.
	cells  []vt.Cell
	pens   [numInks]vt.Pen
	inks   [numInks]vt.Cell // each ink's style, blank
	on     *surface         // the surface the pens are of
	gen    uint32           // its buffer's Gen when they were resolved
	clears uint64           // its clears when the field last drew on it
	key    vt.Key           // the field's area as the arena last drew it (see seal); 0: none
}

// place puts the field of canvas c at r: a field moved or resized shows
// nothing known, so that no change waits.
func (fd *field) place(c *canvas, r rect) {
	if fd.at == r && len(fd.shows) == len(c.cells) {
		return
	}
	fd.at = r
	fd.shows = slices.Grow(fd.shows[:0], len(c.cells))[:len(c.cells)]
	fd.cells = slices.Grow(fd.cells[:0], len(c.cells))[:len(c.cells)]
	fd.forget()
}

// forget makes every cell of the field unknown.
func (fd *field) forget() {
	for i := range fd.shows {
		fd.shows[i] = unknownCell
	}
	for i := range fd.cells {
		fd.cells[i] = vt.Keep
	}
	fd.key = 0
}

// use readies the field to draw on sf: its pens resolved in sf's buffer,
// and nothing known once sf was cleared.
func (fd *field) use(sf *surface) {
	f := sf.f
	if fd.on != sf || fd.gen != f.Gen() {
		fd.on = sf
		for k := range fd.pens {
			if k != int(inkNone) {
				fd.pens[k] = f.Pen(inkStyles[k])
				fd.inks[k], _ = f.Cell(' ', &fd.pens[k])
			}
		}
		fd.gen = f.Gen()
		fd.forget()
	}
	if sf.clears != fd.clears {
		// A new size, a new layout, the too-small notice: what the field
		// showed is gone.
		fd.clears = sf.clears
		fd.forget()
	}
}

// seal stamps the field's area on scr's buffer as the arena drew it, its
// names and overlay too (see vt.Frame.Stamp): while the buffer holds it,
// nothing but the arena drew there, and the next blit sets only what
// changed.
func (fd *field) seal(scr putter) {
	if sf, ok := scr.(*surface); ok && fd.on == sf {
		fd.key = sf.f.NewKey()
		sf.f.Stamp(fd.at.x, fd.at.y, fd.at.w, fd.at.h, fd.key)
	}
}

// blit sets every cell of the canvas on screen at the field's place,
// empty ones blank in the default style, but for those within hole (in
// cells of the canvas), which something else covers, and those covered
// (see cover), which the caller draws. On a surface it writes a row at a
// time straight into the back buffer, each cell in the buffer's own form;
// and where the buffer holds the field as the arena last drew it (see
// seal), only the cells that changed.
//
// Debris is most of what changes in a busy field, and its pieces, mostly
// apart, cost a cursor move and a style change each. So with late, a
// change between slow things (debris, rocks) and blanks shows only on
// the rows y with y%lateRows == frames%lateRows: on the others the field
// draws the cell as it showed it (fd.shows). What moves under a dot a
// frame is seen two frames late at worst, ships and shots on time, and
// the debris that moves on in between costs nothing.
func (c *canvas) blit(scr putter, fd *field, hole rect, late bool) {
	sf, _ := scr.(*surface)
	held := false
	if sf != nil {
		fd.use(sf)
		held = fd.key != 0 && sf.f.Holds(fd.at.x, fd.at.y, fd.at.w, fd.at.h, fd.key)
	}
	fd.frames++
	now := int(fd.frames % lateRows)
	x0, y0 := fd.at.x, fd.at.y
	var changes runs
	for y := range c.h {
		row := c.cells[y*c.w : (y+1)*c.w]
		was := fd.shows[y*c.w : (y+1)*c.w]
		out := fd.cells[y*c.w : (y+1)*c.w]
		wait := late && y%lateRows != now
		hl, hr := len(row), len(row) // the hole's columns on this row
		if y >= hole.y && y < hole.y+hole.h {
			hl = min(max(hole.x, 0), len(row))
			hr = min(max(hole.x+hole.w, hl), len(row))
		}
		for x := hl; x < hr; x++ {
			was[x], out[x] = unknownCell, vt.Keep
		}
		var set *runs // held: the changes, set as they come
		if held {
			changes = runs{f: sf.f, x: x0, y: y0 + y, out: out}
			set = &changes
		}
		fd.update(c, row, was, out, 0, hl, wait, set)
		fd.update(c, row, was, out, hr, len(row), wait, set)
		switch {
		case sf == nil:
		case held:
			changes.flush()
			continue
		default:
			sf.f.SetCells(x0, y0+y, out[:hl])
			sf.f.SetCells(x0+hr, y0+y, out[hr:])
			continue
		}
		for x, p := range was {
			st := tcell.StyleDefault
			switch {
			case p == unknownCell:
				continue
			case p.ink != inkNone:
				st = inkStyles[p.ink]
			}
			scr.Put(x0+x, y0+y, c.glyph(p), st)
		}
	}
}

// update brings the columns lo to hi-1 of a row of the field, what it
// showed (was) and its cells (out), up to the canvas's row, but for the
// slow changes that wait, and hands set (nil: none) the columns of out
// it changed.
func (fd *field) update(c *canvas, row, was []cell, out []vt.Cell, lo, hi int, wait bool, set *runs) {
	for x := lo; x < hi; x++ {
		if x += same(row[x:hi], was[x:hi]); x == hi { // most of a field is as it was
			break
		}
		p := row[x]
		switch {
		case p == unknownCell: // covered: vt.Keep, which sets nothing
			was[x], out[x] = unknownCell, vt.Keep
			continue
		case p == was[x] || wait && slow(was[x].ink) && slow(p.ink):
			continue
		}
		was[x] = p
		if p.ink != inkNone {
			out[x] = fd.inks[p.ink].WithRune(c.rune(p))
		} else {
			out[x] = vt.Cell{}
		}
		set.add(x)
	}
}

// runs sets the cells of a field row that changed on a buffer, in runs:
// a change more than runGap cells after the run before starts a run of
// its own, which costs a call, where one run over the gap would cost a
// compare of every cell between.
type runs struct {
	f      *vt.Frame
	x, y   int       // where the row is on f
	out    []vt.Cell // the row's cells
	lo, hi int       // the run so far (lo == hi: none)
}

const runGap = 8

// add adds column i, after those added before, to the runs.
func (r *runs) add(i int) {
	switch {
	case r == nil:
	case r.lo < r.hi && i-r.hi <= runGap:
		r.hi = i + 1
	default:
		r.flush()
		r.lo, r.hi = i, i+1
	}
}

// flush sets the run so far.
func (r *runs) flush() {
	if r.lo < r.hi {
		r.f.SetCells(r.x+r.lo, r.y, r.out[r.lo:r.hi])
	}
	r.lo, r.hi = 0, 0
}

// same returns how many cells a and b hold alike from their start, or a
// few fewer: it compares them as bytes, all at once first (most of a row
// is as it was), then eight at a time, inline, to the first word that
// differs.
func same(a, b []cell) int {
	n := min(len(a), len(b)) * int(unsafe.Sizeof(cell{}))
	if n == 0 {
		return 0
	}
	ab := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), n)
	bb := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), n)
	if bytes.Equal(ab, bb) {
		return n / int(unsafe.Sizeof(cell{}))
	}
	i := 0
	for ; i+8 <= n; i += 8 {
		if binary.LittleEndian.Uint64(ab[i:]) != binary.LittleEndian.Uint64(bb[i:]) {
			break
		}
	}
	return i / int(unsafe.Sizeof(cell{}))
}

// rune is the rune of what cell p shows, as glyph.
func (c *canvas) rune(p cell) rune {
	switch {
	case p.ink == inkNone:
		return ' '
	case c.ascii, p.ink == inkHostile:
		return rune(p.glyph & 0x7f)
	}
	return 0x2800 + rune(p.bits)
}

// glyph is what cell p shows: a blank, its ASCII character (a saucer's
// shot's too, which stands out so among braille dots) or its braille
// dots.
func (c *canvas) glyph(p cell) string {
	switch {
	case p.ink == inkNone:
		return blank
	case c.ascii, p.ink == inkHostile:
		return asciiChars[p.glyph&0x7f]
	}
	return brailleGlyphs[p.bits]
}

// lateRows is how many frames a slow change may wait, plus one.
const lateRows = 3

// slow tells whether ink k is of something that moves under a dot a
// frame (debris, rocks), or none.
func slow(k ink) bool { return k <= inkAsteroid && k != inkGhost }

// unknownCell is never painted: a shown cell that holds it is not known
// (no change waits on it), and blit leaves a canvas cell that holds it
// (see cover) to the caller.
var unknownCell = cell{ink: numInks}

// cover marks the w cells from (x, y) as drawn by someone else this frame
// (a player's name): blit leaves them to it, and no change waits on them
// once they are uncovered.
func (c *canvas) cover(x, y, w int) {
	if y < 0 || y >= c.h {
		return
	}
	for i := max(x, 0); i < min(x+w, c.w); i++ {
		c.cells[y*c.w+i] = unknownCell
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
