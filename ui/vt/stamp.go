package vt

import (
	"math/bits"
	"slices"
)

// A screen drawn whole every frame sets most of its cells as they were:
// each costs a compare, and what costs most in a server of many screens
// is the memory those compares read. So a Frame remembers which spans of
// its rows, and which areas, were set from which content (a stamp), for
// as long as none of their cells changes: a span set again from the same
// content costs a lookup, not a compare, and a widget whose area holds
// what it would draw (Holds) draws nothing. The content is named by a Key
// that its maker takes anew whenever it changes (Frame.NewKey).

// Key names cells' content for SetCellsAs and Stamp, in a Frame: content
// made anew takes a new one (NewKey).
type Key uint64

// NewKey returns a Key no content drawn on f has had; never 0.
func (f *Frame) NewKey() Key {
	f.keys++
	return f.keys
}

// stamp is a span of a row (lo to hi-1) that holds the cells of content
// k, but for those its Keep cells left, since it was set: any change in
// the span drops it.
type stamp struct {
	lo, hi int32
	k      Key
}

// area is a stamp of the cells x0 to x1-1 of the rows y0 to y1-1 (see
// Holds).
type area struct {
	x0, y0, x1, y1 int32
	k              Key
}

// maxAreas bounds the areas stamped at once (a few a widget); past it
// the oldest slot goes.
const maxAreas = 64

// rowStamps bounds a row's stamps (a few widgets side by side); past it
// the oldest goes.
const rowStamps = 6

// SetCellsAs is SetCells of cs, content named k: it costs nothing where
// the cells from (x, y) hold k's already, set by SetCellsAs and unchanged
// since.
func (f *Frame) SetCellsAs(x, y int, cs []Cell, k Key) {
	if y < 0 || y >= f.h || x >= f.w {
		return
	}
	s := stamp{int32(max(x, 0)), int32(min(x+len(cs), f.w)), k}
	if s.lo >= s.hi {
		return
	}
	row := f.rows[y*rowStamps : y*rowStamps+int(f.nrows[y])]
	if slices.Contains(row, s) {
		return
	}
	f.SetCells(x, y, cs)
	f.unstampRow(y, s.lo, s.hi) // those the cells alike kept
	if f.nrows[y] == rowStamps {
		row := f.rows[y*rowStamps : (y+1)*rowStamps]
		copy(row, row[1:])
		f.nrows[y]--
	}
	f.rows[y*rowStamps+int(f.nrows[y])] = s
	f.nrows[y]++
}

// Holds tells whether the w×h cells from (x, y) hold content k: stamped
// so (Stamp) and none of them changed since. A widget that finds its
// area holds what it would draw has nothing to draw.
func (f *Frame) Holds(x, y, w, h int, k Key) bool {
	a, ok := f.area(x, y, w, h, k)
	if !ok {
		return false
	}
	for m := f.amask[a.y0]; m != 0; m &= m - 1 {
		if f.areas[bits.TrailingZeros64(m)] == a {
			return true
		}
	}
	return false
}

// Stamp names the w×h cells from (x, y), as they are, content k (not 0)
// until one of them changes. An area may hold stamps of the areas within
// it (a widget's and its parts'); one stamped again gets k in place of
// its old content.
func (f *Frame) Stamp(x, y, w, h int, k Key) {
	a, ok := f.area(x, y, w, h, k)
	if !ok || k == 0 {
		return
	}
	for m := f.amask[a.y0]; m != 0; m &= m - 1 {
		if i := bits.TrailingZeros64(m); f.areas[i].x0 == a.x0 && f.areas[i].y0 == a.y0 &&
			f.areas[i].x1 == a.x1 && f.areas[i].y1 == a.y1 {
			f.dropArea(i)
		}
	}
	i := bits.TrailingZeros64(^f.inUse)
	if i == maxAreas { // full: the oldest slot goes
		i = f.oldest
		f.oldest = (f.oldest + 1) % maxAreas
		f.dropArea(i)
	}
	f.areas[i] = a
	f.inUse |= 1 << i
	for y := a.y0; y < a.y1; y++ {
		f.amask[y] |= 1 << i
	}
}

// area is the stamp of the w×h cells from (x, y) as k, within the frame;
// false when none of them is.
func (f *Frame) area(x, y, w, h int, k Key) (area, bool) {
	a := area{int32(max(x, 0)), int32(max(y, 0)), int32(min(x+w, f.w)), int32(min(y+h, f.h)), k}
	return a, a.x0 < a.x1 && a.y0 < a.y1
}

// dropArea drops the stamp in slot i.
func (f *Frame) dropArea(i int) {
	a := f.areas[i]
	for y := a.y0; y < a.y1; y++ {
		f.amask[y] &^= 1 << i
	}
	f.inUse &^= 1 << i
}

// unstamp drops the stamps over the columns lo to hi-1 of row y, whose
// cells changed.
func (f *Frame) unstamp(y, lo, hi int) {
	if f.nrows[y] > 0 {
		f.unstampRow(y, int32(lo), int32(hi))
	}
	for m := f.amask[y]; m != 0; m &= m - 1 {
		if i := bits.TrailingZeros64(m); f.areas[i].x0 < int32(hi) && f.areas[i].x1 > int32(lo) {
			f.dropArea(i)
		}
	}
}

// unstampRow drops the stamps of row y over the columns lo to hi-1.
func (f *Frame) unstampRow(y int, lo, hi int32) {
	row := f.rows[y*rowStamps : y*rowStamps+int(f.nrows[y])]
	n := 0
	for _, s := range row {
		if s.hi <= lo || s.lo >= hi {
			row[n] = s
			n++
		}
	}
	f.nrows[y] = uint8(n)
}

// unstampAll drops every stamp: the cells were renumbered or resized.
func (f *Frame) unstampAll() {
	clear(f.nrows)
	clear(f.amask)
	f.inUse = 0
}
