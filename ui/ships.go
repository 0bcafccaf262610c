package ui

import (
	"math"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
)

// playerColours are the ships' colours by slot: slot 0 keeps the solo
// game's cyan, the others are set apart from it and from each other.
var playerColours = [game.MaxShips][3]int32{
	{80, 230, 255}, {255, 120, 200}, {140, 255, 110}, {255, 190, 60},
	{170, 140, 255}, {255, 255, 255}, {60, 200, 150}, {255, 110, 90},
	{120, 170, 255}, {230, 230, 90}, {200, 120, 255}, {150, 220, 220},
	{255, 160, 130}, {100, 255, 200}, {210, 170, 120}, {255, 90, 160},
}

func init() {
	for i, c := range playerColours {
		inkStyles[inkShip+ink(i)] = fg(c[0], c[1], c[2]).Bold(true)
		inkStyles[inkNose+ink(i)] = fg(c[0], c[1], c[2]).Bold(true).Reverse(true)
	}
	inkStyles[inkRefused] = fg(255, 60, 60).Bold(true)
}

// playerStyle is slot's colour, for its name.
func playerStyle(slot int) tcell.Style { return inkStyles[inkShip+ink(slot)] }

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
// seconds left: until it is due, and, where its place was not clear
// then, until it comes back at the latest (sooner if the place clears):
// see game.Player. blockedNotes are the latter in ASCII.
var (
	respawnNotes = [...]string{"ship now", "ship in 1", "ship in 2", "ship in 3", "ship in 4", "ship in 5"}
	blockedNotes = [2][6]string{
		{"ship now", "ship in ≤1", "ship in ≤2", "ship in ≤3", "ship in ≤4", "ship in ≤5"},
		{"ship now", "ship in <=1", "ship in <=2", "ship in <=3", "ship in <=4", "ship in <=5"},
	}
)

// respawnNote is what shows where slot p's lost ship comes back, or "".
func (a *arena) respawnNote(p *game.Player) string {
	secs := func(steps int) int { return min((steps+game.TPS-1)/game.TPS, len(respawnNotes)-1) }
	switch {
	case p.Phase != game.Respawning || p.Deaths == 0: // a ship joining comes at once
		return ""
	case p.Blocked:
		return blockedNotes[b2i(a.cv.ascii)][secs(p.Respawn)]
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
func (a *arena) note(p game.Vec, slot int, name string, reach float64) {
	if name == "" {
		return
	}
	dx, dy := a.dotOf(p)
	sx, sy := dx*a.cv.w/max(a.cv.dw, 1), dy*a.cv.h/max(a.cv.dh, 1)
	rx, ry := int(math.Ceil(reach*float64(a.cv.w)/float64(max(a.cv.dw, 1)))), int(math.Ceil(reach*float64(a.cv.h)/float64(max(a.cv.dh, 1))))
	x := max(sx-utf8.RuneCountInString(name)/2, 0)
	a.labels = append(a.labels, label{x: x, y: sy + 1 + ry, sx: sx, sy: sy, rx: rx, ry: ry, name: name, st: playerStyle(slot)})
}

// placeLabels puts each name under its ship, else over it, else right or
// left of it, clear of the ship's drawing, a cell clear of the other
// ships and a space clear of the names placed before it. A name with room
// at none of these is left out: names drawn into each other or over a
// ship read as neither.
func (a *arena) placeLabels() {
	for i := range a.labels {
		l := &a.labels[i]
		w := utf8.RuneCountInString(l.name)
		switch {
		case a.roomFor(i, l.x, l.sy+1+l.ry, w):
			l.y = l.sy + 1 + l.ry
		case a.roomFor(i, l.x, l.sy-1-l.ry, w):
			l.y = l.sy - 1 - l.ry
		case a.roomFor(i, l.sx+2+l.rx, l.sy, w): // past the ship's cells and a space
			l.x, l.y = l.sx+2+l.rx, l.sy
		case a.roomFor(i, l.sx-2-l.rx-w, l.sy, w):
			l.x, l.y = l.sx-2-l.rx-w, l.sy
		default:
			l.y = -1 // visible shows nothing
		}
	}
}

// roomFor tells whether the i-th name fits w cells from (x, y): on the
// field, off every other ship's drawing and off the names placed before
// it.
func (a *arena) roomFor(i, x, y, w int) bool {
	if y < 0 || y >= a.cv.h || x < 0 || x+w > a.cv.w {
		return false
	}
	for j := range a.labels {
		o := &a.labels[j]
		if j != i && y >= o.sy-o.ry && y <= o.sy+o.ry && o.sx+o.rx >= x-1 && o.sx-o.rx <= x+w {
			return false
		}
		if j < i && o.y == y && x <= o.x+utf8.RuneCountInString(o.name) && o.x <= x+w {
			return false
		}
	}
	return true
}

// visible tells where label l shows on screen, and in how many cells:
// none (0) where it is off the field or would overlap the overlay at over.
func (a *arena) visible(l *label, over rect) (x, y, w int) {
	f := a.frame
	w = min(utf8.RuneCountInString(l.name), a.cv.w-l.x)
	x, y = f.x+l.x, f.y+l.y
	if w <= 0 || l.y < 0 || (y >= over.y && y < over.y+over.h && x < over.x+over.w && x+w > over.x) {
		return 0, 0, 0
	}
	return x, y, w
}

// coverLabels marks the canvas cells under the names, before it is
// flushed: see canvas.cover.
func (a *arena) coverLabels(over rect) {
	for i := range a.labels {
		if _, _, w := a.visible(&a.labels[i], over); w > 0 {
			a.cv.cover(a.labels[i].x, a.labels[i].y, w)
		}
	}
}

// drawLabels draws the names over the field, but not into the overlay at
// over. Where names overlap, the later one shows; each cell is set once,
// since the screen sends a cell again whenever it is set to something
// else, even when set back within the frame.
func (a *arena) drawLabels(scr putter, over rect) {
	for i := range a.labels {
		x, y, w := a.visible(&a.labels[i], over)
		a.spots[i] = rect{x, y, w, 1}
	}
	for i := range a.labels {
		l, at := &a.labels[i], a.spots[i]
		name := l.name
		for j := 0; j < at.w && name != ""; j++ {
			if !a.hidden(i, at.x+j, at.y) {
				scr.Put(at.x+j, at.y, name, l.st)
			}
			_, size := utf8.DecodeRuneInString(name)
			name = name[size:]
		}
	}
}

// hidden tells whether a name after the i-th covers the screen cell
// (x, y), by where drawLabels found the names show.
func (a *arena) hidden(i, x, y int) bool {
	for _, at := range a.spots[i+1 : len(a.labels)] {
		if at.y == y && x >= at.x && x < at.x+at.w {
			return true
		}
	}
	return false
}
