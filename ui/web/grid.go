package web

import "github.com/rivo/uniseg"

// Color is a cell's foreground or background colour: the browser's
// default, an index of the 256-colour palette of xterm, or an RGB colour.
// Its zero value is [DefaultColor].
type Color uint32

// DefaultColor is the page's own foreground or background.
const DefaultColor Color = 0

// The kinds of colour, in a Color's top byte.
const (
	kindPalette = 1 << 24
	kindRGB     = 2 << 24
)

// PaletteColor is the colour of index i in xterm's 256-colour palette.
func PaletteColor(i uint8) Color { return Color(kindPalette | uint32(i)) }

// RGBColor is the colour of red r, green g and blue b.
func RGBColor(r, g, b uint8) Color {
	return Color(kindRGB | uint32(r)<<16 | uint32(g)<<8 | uint32(b))
}

// Attr is a set of a cell's attributes. Its zero value is none.
type Attr uint8

// The attributes a cell may have.
const (
	Bold Attr = 1 << iota
	Dim
	Italic
	Underline
	Reverse

	allAttrs = Bold | Dim | Italic | Underline | Reverse
)

// Cell is one cell of a [Grid]: a grapheme cluster and how it is drawn.
// Its zero value is a blank in the default colours.
type Cell struct {
	// Text is one grapheme cluster; "" is a blank, as is " " (which
	// [Grid.Set] stores as "").
	Text   string
	Fg, Bg Color
	Attr   Attr
	// Wide is set when Text takes two columns: the cell to its right is
	// covered, and what it holds is not drawn.
	Wide bool
}

// Grid is a screen of cells, row after row. Its zero value is an empty
// grid; [Grid.Resize] gives it a size. A Grid is not safe for concurrent
// use.
type Grid struct {
	w, h  int
	cells []Cell
	dirty []span // the columns of each row set since the last take (see take)
}

// span is the columns lo to hi-1 of a row; none when lo >= hi.
type span struct{ lo, hi int }

// add extends s to cover the columns lo to hi-1.
func (s *span) add(lo, hi int) {
	if s.lo >= s.hi {
		*s = span{lo, hi}
		return
	}
	s.lo, s.hi = min(s.lo, lo), max(s.hi, hi)
}

// NewGrid returns a grid of w×h blank cells.
func NewGrid(w, h int) *Grid {
	g := new(Grid)
	g.Resize(w, h)
	return g
}

// Resize makes g w×h blank cells, reusing its memory when it has enough.
// A negative size is taken as 0.
func (g *Grid) Resize(w, h int) {
	w, h = max(w, 0), max(h, 0)
	if n := w * h; cap(g.cells) < n {
		g.cells = make([]Cell, n)
	} else {
		g.cells = g.cells[:n]
		clear(g.cells)
	}
	if cap(g.dirty) < h {
		g.dirty = make([]span, h)
	}
	g.dirty = g.dirty[:h]
	g.w, g.h = w, h
	g.touchAll()
}

// touchAll marks every cell as set.
func (g *Grid) touchAll() {
	for y := range g.dirty {
		g.dirty[y] = span{0, g.w}
	}
}

// Size returns g's width and height in cells.
func (g *Grid) Size() (w, h int) { return g.w, g.h }

// Clear blanks every cell.
func (g *Grid) Clear() {
	clear(g.cells)
	g.touchAll()
}

// At returns the cell at column x of row y; off the grid, a blank.
func (g *Grid) At(x, y int) Cell {
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return Cell{}
	}
	return g.cells[y*g.w+x]
}

// Set sets the cell at column x of row y; off the grid it does nothing.
func (g *Grid) Set(x, y int, c Cell) {
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return
	}
	if c.Text == " " {
		c.Text = ""
	}
	g.cells[y*g.w+x] = c
	g.dirty[y].add(x, x+1)
}

// SetText sets the cells of row y from column x on to the grapheme
// clusters of s, in colours fg and bg with attributes a, a cluster two
// columns wide taking two cells, as far as the row goes. It returns the
// columns it took. It allocates nothing: the cells hold parts of s.
func (g *Grid) SetText(x, y int, s string, fg, bg Color, a Attr) int {
	start, state := x, -1
	for s != "" && x < g.w {
		var cl string
		var width int
		cl, s, width, state = uniseg.FirstGraphemeClusterInString(s, state)
		if width == 0 {
			continue // a lone combining mark: dropped
		}
		g.Set(x, y, Cell{Text: cl, Fg: fg, Bg: bg, Attr: a, Wide: width > 1})
		x += min(width, 2)
	}
	return x - start
}

// CopyFrom makes g a copy of src, size and cells.
func (g *Grid) CopyFrom(src *Grid) {
	if g.w != src.w || g.h != src.h {
		g.Resize(src.w, src.h)
	}
	copy(g.cells, src.cells)
	g.touchAll()
}

// take copies into g the cells of src set since src's last take, and
// marks them set in g: a g that held src whole at that take holds it
// whole again. A src of another size is copied whole. It is how a frame
// goes from Show to the page at the cost of the cells that changed, not
// of the whole grid.
func (g *Grid) take(src *Grid) {
	if g.w != src.w || g.h != src.h {
		g.CopyFrom(src)
	} else {
		for y, d := range src.dirty {
			if d.lo < d.hi {
				copy(g.cells[y*g.w+d.lo:y*g.w+d.hi], src.cells[y*src.w+d.lo:y*src.w+d.hi])
				g.dirty[y].add(d.lo, d.hi)
			}
		}
	}
	clear(src.dirty)
}
