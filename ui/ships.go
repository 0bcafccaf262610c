package ui

import (
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
	}
}

// playerStyle is slot's colour, for its name.
func playerStyle(slot int) tcell.Style { return inkStyles[inkShip+ink(slot)] }

// label is a player's name drawn under its ship (or over it), or a
// respawn countdown under the ship's spawn point, in cells of the field.
type label struct {
	x, y   int
	sx, sy int // the ship's cell
	name   string
	st     tcell.Style
}

// respawnNotes is what shows where a blocked ship will come back, by the
// seconds left: see game.Player.Blocked.
var respawnNotes = [...]string{"ship now", "ship in 1", "ship in 2", "ship in 3", "ship in 4", "ship in 5"}

// note notes name, in slot's colour, under p: a player's name (if it has
// one: in an arena) under its ship, or a respawn countdown. The caller
// holds the lock that paints.
func (a *arena) note(p game.Vec, slot int, name string) {
	if name == "" {
		return
	}
	dx, dy := a.dotOf(p)
	sx, sy := dx*a.cv.w/max(a.cv.dw, 1), dy*a.cv.h/max(a.cv.dh, 1)
	x := max(sx-utf8.RuneCountInString(name)/2, 0)
	a.labels = append(a.labels, label{x: x, y: sy + 1, sx: sx, sy: sy, name: name, st: playerStyle(slot)})
}

// placeLabels puts each name under its ship, else over it, else right or
// left of it, a cell clear of the other ships and a space clear of the
// names placed before it. A name with room at none of these is left out:
// names drawn into each other or over a ship read as neither.
func (a *arena) placeLabels() {
	for i := range a.labels {
		l := &a.labels[i]
		w := utf8.RuneCountInString(l.name)
		switch {
		case a.roomFor(i, l.x, l.sy+1, w):
			l.y = l.sy + 1
		case a.roomFor(i, l.x, l.sy-1, w):
			l.y = l.sy - 1
		case a.roomFor(i, l.sx+3, l.sy, w): // past the ship's cells and a space
			l.x, l.y = l.sx+3, l.sy
		case a.roomFor(i, l.sx-3-w, l.sy, w):
			l.x, l.y = l.sx-3-w, l.sy
		default:
			l.y = -1 // visible shows nothing
		}
	}
}

// roomFor tells whether the i-th name fits w cells from (x, y): on the
// field, off every other ship and off the names placed before it.
func (a *arena) roomFor(i, x, y, w int) bool {
	if y < 0 || y >= a.cv.h || x < 0 || x+w > a.cv.w {
		return false
	}
	for j := range a.labels {
		o := &a.labels[j]
		if j != i && o.sy == y && o.sx >= x-1 && o.sx <= x+w {
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
