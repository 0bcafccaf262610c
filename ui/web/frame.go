package web

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"
)

// The messages the server sends, by their first byte (see the package
// documentation for their layouts).
const (
	MsgFrame byte = 1 // the cells that changed
	MsgTitle byte = 2 // the page's title
	MsgBye   byte = 3 // why the session ends, before the socket closes
	MsgPong  byte = 4 // the answer to a ping
)

// The operations of a frame message.
const (
	opCells   = 0x00 // 0x00–0x3F: 1–64 narrow cells of the page, one byte each
	opSkip    = 0x40 // 0x40–0x5F: move right over 1–32 cells
	opBlank   = 0x60 // 0x60–0x7F: 1–32 blanks
	opRepeat  = 0x80 // 0x80–0xBF: 1–64 times the narrow cell of the byte that follows
	opGoto    = 0xC0 // row, column (uvarints)
	opNextRow = 0xC1 // the first column of the next row
	opPage    = 0xC2 // the page (uvarint): a cell's code point is page·256 + its byte
	opText    = 0xC3 // a narrow cell of any cluster: length (byte), UTF-8
	opWide    = 0xC4 // the same, two columns wide
	opSize    = 0xC5 // the grid is now width × height (uvarints) blank cells
	opStyle   = 0xC8 // 0xC8–0xCF: bits 0, 1, 2 say which of fg, bg, attributes follow

	maxCells  = 64
	maxSkip   = 32
	maxBlank  = 32
	maxRepeat = 64
	maxText   = 255 // bytes of a cluster; a longer one is sent as U+FFFD
)

// Wire colours: a kind byte, then the index or r, g, b.
const (
	wireDefault = 0
	wirePalette = 1
	wireRGB     = 2
)

// AppendFrame appends to dst the frame message that turns before, what the
// browser shows, into after, and returns it: only the cells that differ,
// or, when the sizes differ, the new size and every cell that is not a
// blank in the default colours. When nothing differs it returns dst as it
// is: a still screen sends nothing. It allocates nothing once dst has room.
func AppendFrame(dst []byte, before, after *Grid) []byte {
	return appendFrame(dst, before, after, nil)
}

// appendFrame is AppendFrame looking only at the cells of after that
// spans marks, a span a row (nil: every cell), the others being the same
// in before, unless the sizes differ.
func appendFrame(dst []byte, before, after *Grid, spans []span) []byte {
	start := len(dst)
	e := encoder{dst: append(dst, MsgFrame), open: -1}
	w, h := after.w, after.h
	var old []Cell
	if before.w != w || before.h != h {
		e.dst = append(e.dst, opSize)
		e.dst = binary.AppendUvarint(e.dst, uint64(w))
		e.dst = binary.AppendUvarint(e.dst, uint64(h))
	} else {
		old = before.cells
	}
	if old == nil {
		spans = nil
	}
	for y := range h {
		row := after.cells[y*w : (y+1)*w]
		var was []Cell
		if old != nil {
			was = old[y*w : (y+1)*w]
		}
		lo, hi := 0, w
		if spans != nil {
			lo, hi = spans[y].lo, spans[y].hi
			if lo >= hi {
				continue
			}
			// From a cell neither row covers, to past the last wide
			// cell at the span's end: a change of a wide cell covers or
			// uncovers the cells right of it, a wide one in turn.
			for lo > 0 && (row[lo-1].Wide || was[lo-1].Wide) {
				lo--
			}
			for hi < w && (row[hi-1].Wide || was[hi-1].Wide) {
				hi++
			}
		}
		e.row(row, was, y, lo, hi)
	}
	if len(e.dst) == start+1 {
		return dst[:start]
	}
	return e.dst
}

// encoder writes the operations of one frame message. A message starts
// at the top left, in the default colours, on page 0.
type encoder struct {
	dst    []byte
	x, y   int // where the browser puts the next cell
	fg, bg Color
	attr   Attr
	page   rune
	// open is the index in dst of the last operation when more cells may
	// join it (cells, blank or repeat), else -1.
	open int
}

// row sends the cells of row (row y) from column lo to hi-1 that differ
// from was (nil: blanks); lo is a cell neither covers. A cell right of a
// wide one is covered: it differs when it is covered on one side only,
// and is then sent when it is not covered in row.
func (e *encoder) row(row, was []Cell, y, lo, hi int) {
	var coverNow, coverWas bool
	for x := lo; x < hi; x++ {
		c := row[x]
		var b Cell
		if was != nil {
			b = was[x]
		}
		cn, cw := coverNow, coverWas
		coverNow = !cn && c.Wide && x+1 < len(row)
		coverWas = !cw && b.Wide && x+1 < len(row)
		switch {
		case cn: // drawn by the wide cell on its left, sent if it changed
			continue
		case !cw && same(c, b):
			// A cell that did not change between two that did costs
			// no more sent again than skipped over, and keeps the
			// operation open.
			if x+1 == len(row) || e.x != x || e.y != y || c.Wide || !e.joins(c) || !changed(row, was, x+1) {
				continue
			}
		}
		e.cell(c, x, y)
	}
}

// changed reports whether the cell at x, neither wide nor covered, will
// be sent.
func changed(row, was []Cell, x int) bool {
	var b Cell
	if was != nil {
		b = was[x]
	}
	c := row[x]
	return !c.Wide && !b.Wide && !row[x-1].Wide && (was == nil || !was[x-1].Wide) && !same(c, b)
}

// same reports whether a and b show the same, a blank being "" or " ".
func same(a, b Cell) bool {
	if a == b {
		return true
	}
	return blank(a.Text) && blank(b.Text) && a.Fg == b.Fg && a.Bg == b.Bg && a.Attr == b.Attr && a.Wide == b.Wide
}

func blank(s string) bool { return s == "" || s == " " }

// joins reports whether c, sent next, would join the open operation: it
// is drawn in the current colours, on the current page.
func (e *encoder) joins(c Cell) bool {
	if e.open < 0 || c.Fg != e.fg || c.Bg != e.bg || c.Attr != e.attr {
		return false
	}
	if blank(c.Text) {
		return true
	}
	r, n := utf8.DecodeRuneInString(c.Text)
	return n == len(c.Text) && r != utf8.RuneError && r>>8 == e.page
}

// cell sends c at (x, y).
func (e *encoder) cell(c Cell, x, y int) {
	e.move(x, y)
	if c.Fg != e.fg || c.Bg != e.bg || c.Attr != e.attr {
		e.style(c)
	}
	switch r, n := utf8.DecodeRuneInString(c.Text); {
	case blank(c.Text) && !c.Wide:
		e.blank()
	case n == len(c.Text) && r != utf8.RuneError && !c.Wide:
		if r>>8 != e.page {
			e.open = -1
			e.page = r >> 8
			e.dst = append(e.dst, opPage)
			e.dst = binary.AppendUvarint(e.dst, uint64(e.page))
		}
		e.narrow(byte(r))
	default:
		op := byte(opText)
		if c.Wide {
			op = opWide
		}
		text := c.Text
		switch {
		case text == "":
			text = " "
		case len(text) > maxText || !utf8.ValidString(text):
			text = string(utf8.RuneError)
		}
		e.open = -1
		e.dst = append(e.dst, op, byte(len(text)))
		e.dst = append(e.dst, text...)
	}
	e.x++
	if c.Wide {
		e.x++
	}
}

// move brings the browser's next cell to (x, y), the cheapest way.
func (e *encoder) move(x, y int) {
	if x == e.x && y == e.y {
		return
	}
	e.open = -1
	jump := 1 + uvarintLen(y) + uvarintLen(x)
	switch {
	case y == e.y && x > e.x && skips(x-e.x) <= jump:
		e.skip(x - e.x)
	case y == e.y+1 && 1+skips(x) < jump:
		e.dst = append(e.dst, opNextRow)
		e.skip(x)
	default:
		e.dst = append(e.dst, opGoto)
		e.dst = binary.AppendUvarint(e.dst, uint64(y))
		e.dst = binary.AppendUvarint(e.dst, uint64(x))
	}
	e.x, e.y = x, y
}

// skips is the bytes a move of n cells right takes.
func skips(n int) int { return (n + maxSkip - 1) / maxSkip }

func (e *encoder) skip(n int) {
	for ; n > 0; n -= maxSkip {
		e.dst = append(e.dst, opSkip+byte(min(n, maxSkip)-1))
	}
}

func uvarintLen(v int) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// style sets the colours and attributes to c's, sending those that change.
func (e *encoder) style(c Cell) {
	e.open = -1
	op := len(e.dst)
	e.dst = append(e.dst, opStyle)
	if c.Fg != e.fg {
		e.dst[op] |= 1
		e.dst = appendColor(e.dst, c.Fg)
	}
	if c.Bg != e.bg {
		e.dst[op] |= 2
		e.dst = appendColor(e.dst, c.Bg)
	}
	if c.Attr != e.attr {
		e.dst[op] |= 4
		e.dst = append(e.dst, byte(c.Attr&allAttrs))
	}
	e.fg, e.bg, e.attr = c.Fg, c.Bg, c.Attr
}

func appendColor(dst []byte, c Color) []byte {
	switch c & 0xff000000 {
	case kindPalette:
		return append(dst, wirePalette, byte(c))
	case kindRGB:
		return append(dst, wireRGB, byte(c>>16), byte(c>>8), byte(c))
	}
	return append(dst, wireDefault)
}

// blank sends a blank, joining an open blank operation.
func (e *encoder) blank() {
	if o := e.open; o >= 0 && e.dst[o]&0xe0 == opBlank && e.dst[o]&0x1f < maxBlank-1 {
		e.dst[o]++
		return
	}
	e.open = len(e.dst)
	e.dst = append(e.dst, opBlank)
}

// narrow sends the cell of byte b of the current page: it joins an open
// operation of cells, or a repeat of b; three alike in a row become a
// repeat.
func (e *encoder) narrow(b byte) {
	if o := e.open; o >= 0 {
		op := e.dst[o]
		switch {
		case op&0xc0 == opRepeat && e.dst[o+1] == b && op&0x3f < maxRepeat-1:
			e.dst[o]++
			return
		case op&0xc0 == opCells:
			n := len(e.dst) - o - 1
			if n >= 2 && e.dst[len(e.dst)-1] == b && e.dst[len(e.dst)-2] == b {
				e.dst = e.dst[:len(e.dst)-2]
				if n == 2 {
					e.dst = e.dst[:o]
				} else {
					e.dst[o] -= 2
				}
				e.open = len(e.dst)
				e.dst = append(e.dst, opRepeat+2, b)
				return
			}
			if n < maxCells {
				e.dst[o]++
				e.dst = append(e.dst, b)
				return
			}
		}
	}
	e.open = len(e.dst)
	e.dst = append(e.dst, opCells, b)
}

// ErrFrame is the error of [Grid.Apply] for a message that is not a
// well-formed frame.
var ErrFrame = errors.New("web: malformed frame")

// maxApply bounds the size a frame may give a grid in Apply.
const maxApply = 1 << 20

// Apply applies frame message msg to g, as the page does: g is then what
// the page shows. It returns an error wrapping [ErrFrame] for a message
// that is not a well-formed frame, after which g is left part applied.
// It is the reference of the page's decoder, for tests and Go clients.
func (g *Grid) Apply(msg []byte) error {
	if len(msg) == 0 || msg[0] != MsgFrame {
		return fmt.Errorf("%w: not a frame", ErrFrame)
	}
	g.touchAll()
	d := decoder{msg: msg, i: 1}
	var x, y int
	var pen Cell
	var page rune
	put := func(c Cell) error {
		if x >= g.w || y >= g.h {
			return fmt.Errorf("%w: cell at %d,%d off a %d×%d grid", ErrFrame, x, y, g.w, g.h)
		}
		c.Fg, c.Bg, c.Attr = pen.Fg, pen.Bg, pen.Attr
		g.cells[y*g.w+x] = c
		x++
		if c.Wide {
			if x < g.w {
				g.cells[y*g.w+x] = Cell{} // covered
			}
			x++
		}
		return nil
	}
	for d.i < len(msg) {
		op := d.byte()
		var err error
		switch {
		case op < opSkip:
			for range op&0x3f + 1 {
				if err = put(Cell{Text: runeText(page<<8 | rune(d.byte()))}); err != nil {
					break
				}
			}
		case op < opBlank:
			x += int(op&0x1f) + 1
		case op < opRepeat:
			for range op&0x1f + 1 {
				if err = put(Cell{}); err != nil {
					break
				}
			}
		case op < opGoto:
			t := runeText(page<<8 | rune(d.byte()))
			for range op&0x3f + 1 {
				if err = put(Cell{Text: t}); err != nil {
					break
				}
			}
		case op == opGoto:
			y, x = d.uvarint(), d.uvarint()
		case op == opNextRow:
			x, y = 0, y+1
		case op == opPage:
			if page = rune(d.uvarint()); page > utf8.MaxRune>>8 {
				err = fmt.Errorf("%w: page %#x", ErrFrame, page)
			}
		case op == opText || op == opWide:
			t := d.bytes(int(d.byte()))
			if !utf8.Valid(t) || len(t) == 0 {
				err = fmt.Errorf("%w: bad cluster %q", ErrFrame, t)
				break
			}
			err = put(Cell{Text: string(t), Wide: op == opWide})
		case op == opSize:
			if d.i != 2 {
				return fmt.Errorf("%w: a size after the first operation", ErrFrame)
			}
			w, h := d.uvarint(), d.uvarint()
			if w*h > maxApply {
				return fmt.Errorf("%w: size %d×%d", ErrFrame, w, h)
			}
			g.Resize(w, h)
		case op&0xf8 == opStyle:
			if op&1 != 0 {
				pen.Fg = d.color()
			}
			if op&2 != 0 {
				pen.Bg = d.color()
			}
			if op&4 != 0 {
				if pen.Attr = Attr(d.byte()); pen.Attr&^allAttrs != 0 {
					err = fmt.Errorf("%w: attributes %#x", ErrFrame, pen.Attr)
				}
			}
		default:
			err = fmt.Errorf("%w: operation %#x", ErrFrame, op)
		}
		if err == nil {
			err = d.err
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// runeText is a cell's text for rune r: "" for a blank.
func runeText(r rune) string {
	if r == ' ' {
		return ""
	}
	return string(r)
}

// decoder reads a message, remembering the first error.
type decoder struct {
	msg []byte
	i   int
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s at byte %d", ErrFrame, what, d.i)
	}
	d.i = len(d.msg)
}

func (d *decoder) byte() byte {
	if d.i >= len(d.msg) {
		d.fail("message cut short")
		return 0
	}
	d.i++
	return d.msg[d.i-1]
}

func (d *decoder) bytes(n int) []byte {
	if len(d.msg)-d.i < n {
		d.fail("message cut short")
		return nil
	}
	d.i += n
	return d.msg[d.i-n : d.i]
}

func (d *decoder) uvarint() int {
	v, n := binary.Uvarint(d.msg[d.i:])
	if n <= 0 || v > 1<<20 {
		d.fail("bad number")
		return 0
	}
	d.i += n
	return int(v)
}

func (d *decoder) color() Color {
	switch d.byte() {
	case wireDefault:
		return DefaultColor
	case wirePalette:
		return PaletteColor(d.byte())
	case wireRGB:
		b := d.bytes(3)
		if b == nil {
			return 0
		}
		return RGBColor(b[0], b[1], b[2])
	}
	d.fail("bad colour")
	return 0
}
