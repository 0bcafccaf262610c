package ui

import (
	"math"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/ui/vt"
)

// playerColours are the ships' colours by slot: slot 0 keeps the solo
// game's cyan, the others are set apart from it, from each other and from
// what a ship must not be taken for (the saucer's magenta, its shots' red,
// the rocks): on a 256-colour terminal, and the first eight on one of 16.
var playerColours = [game.MaxShips][3]int32{
	{80, 230, 255}, {140, 255, 110}, {255, 190, 60}, {120, 170, 255},
	{255, 255, 255}, {60, 200, 150}, {90, 130, 255}, {230, 230, 90},
	{150, 220, 220}, {255, 160, 130}, {100, 255, 200}, {200, 255, 150},
	{135, 100, 255}, {180, 180, 255}, {255, 220, 180}, {175, 215, 0},
}

func init() {
	for i, c := range playerColours {
		inkStyles[inkShip+ink(i)] = fg(c[0], c[1], c[2]).Bold(true)
		inkStyles[inkNose+ink(i)] = fg(c[0], c[1], c[2]).Bold(true).Reverse(true)
	}
}

// playerStyle is slot's colour, for its name.
func playerStyle(slot int) tcell.Style { return inkStyles[inkShip+ink(slot)] }

// nameTags are the players' names by their ships in an arena, and the
// respawn countdowns: where each goes on the field of a canvas, and
// where it shows on screen.
type nameTags struct {
	names  shipNames // the players by slot, in an arena, as last painted
	labels []label   // the names and countdowns of this frame, in cells of the field
	tags   []tag     // by label, as last drawn on a surface
}

// shipNames are the names of an arena's players by slot, as last
// painted, for the labels by their ships.
type shipNames [game.MaxShips]string

// label is a player's name drawn under its ship (or over it), or a
// respawn countdown under the ship's spawn point, in cells of the field.
type label struct {
	x, y   int
	sx, sy int // the ship's cell
	rx, ry int // how far the drawn ship reaches from it, in cells; 0 for a countdown
	name   string
	st     tcell.Style
}

// respawnNotes is what shows where a lost ship will come back, by the
// seconds left until it is due. Where its place was not clear then, it
// waits for a clear spot, saying how long at the most (it comes sooner
// if the place clears; see game.Player): blockedNotes, in UTF-8 and in
// ASCII. A countdown that went back to 3 after 1 read as a clock gone
// wrong; a wait says why.
var (
	respawnNotes = [...]string{"ship now", "ship in 1", "ship in 2", "ship in 3", "ship in 4", "ship in 5"}
	blockedNotes = [2][6]string{
		{"ship now", "waiting for a clear spot · ≤1 s", "waiting for a clear spot · ≤2 s", "waiting for a clear spot · ≤3 s", "waiting for a clear spot · ≤4 s", "waiting for a clear spot · ≤5 s"},
		{"ship now", "waiting for a clear spot . <=1 s", "waiting for a clear spot . <=2 s", "waiting for a clear spot . <=3 s", "waiting for a clear spot . <=4 s", "waiting for a clear spot . <=5 s"},
	}
)

// respawnNote is what shows where slot p's lost ship comes back, or "",
// in ASCII or not.
func respawnNote(p *game.Player, ascii bool) string {
	secs := func(steps int) int { return min((steps+game.TPS-1)/game.TPS, len(respawnNotes)-1) }
	switch {
	case p.Phase != game.Respawning || p.Deaths == 0: // a ship joining comes at once
		return ""
	case p.Blocked:
		return blockedNotes[b2i(ascii)][secs(p.Respawn)]
	}
	return respawnNotes[secs(p.Due)]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// note notes name, in slot's colour, under p: a player's name (if it has
// one: in an arena) under its ship, drawn reach dots round p, or a
// respawn countdown (reach 0). The caller holds the lock that paints.
func (t *nameTags) note(cv *canvas, p game.Vec, slot int, name string, reach float64) {
	if name == "" {
		return
	}
	t.noteIn(cv, p, name, reach, playerStyle(slot))
}

// noteIn is note in the style st.
func (t *nameTags) noteIn(cv *canvas, p game.Vec, name string, reach float64, st tcell.Style) {
	dx, dy := cv.dotOf(p)
	sx, sy := dx*cv.w/max(cv.dw, 1), dy*cv.h/max(cv.dh, 1)
	rx, ry := int(math.Ceil(reach*float64(cv.w)/float64(max(cv.dw, 1)))), int(math.Ceil(reach*float64(cv.h)/float64(max(cv.dh, 1))))
	x := max(sx-utf8.RuneCountInString(name)/2, 0)
	t.labels = append(t.labels, label{x: x, y: sy + 1 + ry, sx: sx, sy: sy, rx: rx, ry: ry, name: name, st: st})
}

// placeLabels puts each name under its ship, else over it, else right or
// left of it, clear of the ship's drawing, a cell clear of the other
// ships and a space clear of the names placed before it. A name with room
// at none of these is left out: names drawn into each other or over a
// ship read as neither.
func (t *nameTags) placeLabels(cv *canvas) {
	for i := range t.labels {
		l := &t.labels[i]
		w := utf8.RuneCountInString(l.name)
		switch {
		case t.roomFor(cv, i, l.x, l.sy+1+l.ry, w):
			l.y = l.sy + 1 + l.ry
		case t.roomFor(cv, i, l.x, l.sy-1-l.ry, w):
			l.y = l.sy - 1 - l.ry
		case t.roomFor(cv, i, l.sx+2+l.rx, l.sy, w): // past the ship's cells and a space
			l.x, l.y = l.sx+2+l.rx, l.sy
		case t.roomFor(cv, i, l.sx-2-l.rx-w, l.sy, w):
			l.x, l.y = l.sx-2-l.rx-w, l.sy
		default:
			l.y = -1 // visible shows nothing
		}
	}
}

// roomFor tells whether the i-th name fits w cells from (x, y): on the
// field, off every other ship's drawing and off the names placed before
// it.
func (t *nameTags) roomFor(cv *canvas, i, x, y, w int) bool {
	if y < 0 || y >= cv.h || x < 0 || x+w > cv.w {
		return false
	}
	for j := range t.labels {
		o := &t.labels[j]
		if j != i && y >= o.sy-o.ry && y <= o.sy+o.ry && o.sx+o.rx >= x-1 && o.sx-o.rx <= x+w {
			return false
		}
		if j < i && o.y == y && x <= o.x+utf8.RuneCountInString(o.name) && o.x <= x+w {
			return false
		}
	}
	return true
}

// visible tells where label l shows on screen, on the field of cv at f,
// and in how many cells: none (0) where it is off the field or would
// overlap the overlay at over.
func visible(cv *canvas, f rect, l *label, over rect) (x, y, w int) {
	w = min(utf8.RuneCountInString(l.name), cv.w-l.x)
	x, y = f.x+l.x, f.y+l.y
	if w <= 0 || l.y < 0 || (y >= over.y && y < over.y+over.h && x < over.x+over.w && x+w > over.x) {
		return 0, 0, 0
	}
	return x, y, w
}

// coverLabels marks the canvas cells under the names, before it is
// flushed: see canvas.cover.
func (t *nameTags) coverLabels(cv *canvas, f, over rect) {
	for i := range t.labels {
		if _, _, w := visible(cv, f, &t.labels[i], over); w > 0 {
			cv.cover(t.labels[i].x, t.labels[i].y, w)
		}
	}
}

// drawLabels draws the names over the field, but not into the overlay at
// over, in order: where names overlap, the later one shows.
func (t *nameTags) drawLabels(scr putter, cv *canvas, f, over rect) {
	sf, _ := scr.(*surface)
	for i := range t.labels {
		l := &t.labels[i]
		x, y, w := visible(cv, f, l, over)
		if w <= 0 {
			continue
		}
		if sf != nil {
			for len(t.tags) <= i {
				t.tags = append(t.tags, tag{})
			}
			if cs, k, ok := t.tags[i].of(sf.f, l.name, l.st); ok {
				sf.f.SetCellsAs(x, y, cs[:w], k)
				continue
			}
		}
		putString(scr, x, y, w, l.name, l.st)
	}
}

// tag is a label's text in a buffer's own cells, made when the label
// it is drawn for shows another text or style.
type tag struct {
	name  string
	st    tcell.Style
	on    *vt.Frame
	gen   uint32
	cells []vt.Cell
	key   vt.Key
	ok    bool // cells hold it: no cluster of it is wide
}

// of returns name in st as cells of f, and their key; false where cells
// cannot hold it (see vt.Frame.AppendCells).
func (g *tag) of(f *vt.Frame, name string, st tcell.Style) ([]vt.Cell, vt.Key, bool) {
	if g.on != f || g.gen != f.Gen() || g.name != name || g.st != st {
		g.on, g.gen, g.name, g.st, g.key = f, f.Gen(), name, st, f.NewKey()
		g.cells, g.ok = f.AppendCells(g.cells[:0], name, st)
	}
	return g.cells, g.key, g.ok
}
