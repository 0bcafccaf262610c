package vt

import "slices"

// A screen drawn whole every frame sets most of its cells as they were:
// each costs a compare, and what costs most in a server of many screens
// is the memory those compares read. So a Frame remembers which spans of
// its rows were set from which content (a stamp), for as long as none of
// their cells changes: a span set again from the same content costs a
// lookup, not a compare. The content is named by a Key that its maker
// takes anew whenever it changes (Frame.NewKey).

// Key names cells' content for SetCellsAs and SetColumnAs, in a Frame:
// content made anew takes a new one (NewKey).
type Key uint64

// NewKey returns a Key no content drawn on f has had; never 0.
func (f *Frame) NewKey() Key {
	f.keys++
	return f.keys
}

// stamp is a span of a row (lo to hi-1), or of a column (the rows lo to
// hi-1 of column x), that holds the cells of content k, but for those its
// Keep cells left, since it was set: any change in the span drops it.
type stamp struct {
	x, lo, hi int32
	k         Key
}

// rowStamps bounds a row's stamps (a few widgets side by side); past it
// the oldest goes.
const rowStamps = 6

// SetCellsAs is SetCells of cs, content named k: it costs nothing where
// the cells from (x, y) hold k's already, set by SetCellsAs and unchanged
// since.
func (f *Frame) SetCellsAs(x, y int, cs []Cell, k Key) { f.SetCellsFrom(x, y, cs, k, 0, 0, 0) }

// SetCellsFrom is SetCellsAs of cs, content named k, which differs from
// the content named from only in cs[lo:hi]: where the cells from (x, y)
// hold from's, set by SetCellsAs or SetCellsFrom and unchanged since, it
// sets only those that differ. (from 0: none.)
func (f *Frame) SetCellsFrom(x, y int, cs []Cell, k, from Key, lo, hi int) {
	if y < 0 || y >= f.h || x >= f.w {
		return
	}
	s := stamp{0, int32(max(x, 0)), int32(min(x+len(cs), f.w)), k}
	if s.lo >= s.hi {
		return
	}
	held := false
	for _, r := range f.rows[y*rowStamps : y*rowStamps+int(f.nrows[y])] {
		switch {
		case r == s:
			return
		case from != 0 && r == stamp{0, s.lo, s.hi, from}:
			held = true
		}
	}
	if held {
		lo, hi = max(lo, 0), min(hi, len(cs))
		if lo < hi {
			f.SetCells(x+lo, y, cs[lo:hi])
		}
	} else {
		f.SetCells(x, y, cs)
	}
	f.unstampRow(y, s.lo, s.hi) // from's, and those the cells alike kept
	if f.nrows[y] == rowStamps {
		row := f.rows[y*rowStamps : (y+1)*rowStamps]
		copy(row, row[1:])
		f.nrows[y]--
	}
	f.rows[y*rowStamps+int(f.nrows[y])] = s
	f.nrows[y]++
}

// SetColumnAs is SetColumn of c, named k: it costs nothing where the n
// cells from (x, y) down hold c already, set by SetColumnAs and unchanged
// since.
func (f *Frame) SetColumnAs(x, y, n int, c Cell, k Key) {
	if x < 0 || x >= f.w {
		return
	}
	s := stamp{int32(x), int32(max(y, 0)), int32(min(y+n, f.h)), k}
	if s.lo >= s.hi || slices.Contains(f.cols, s) {
		return
	}
	f.SetColumn(x, y, n, c)
	f.unstampColumns(int(s.lo), int(s.hi), x, x+1)
	f.cols = append(f.cols, s)
}

// unstamp drops the stamps over the columns lo to hi-1 of row y, whose
// cells changed.
func (f *Frame) unstamp(y, lo, hi int) {
	if f.nrows[y] > 0 {
		f.unstampRow(y, int32(lo), int32(hi))
	}
	if len(f.cols) > 0 {
		f.unstampColumns(y, y+1, lo, hi)
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

// unstampColumns drops the column stamps over the rows y0 to y1-1 of the
// columns x0 to x1-1.
func (f *Frame) unstampColumns(y0, y1, x0, x1 int) {
	n := 0
	for _, s := range f.cols {
		if int(s.x) < x0 || int(s.x) >= x1 || int(s.lo) >= y1 || int(s.hi) <= y0 {
			f.cols[n] = s
			n++
		}
	}
	f.cols = f.cols[:n]
}

// unstampAll drops every stamp: the cells were renumbered or resized.
func (f *Frame) unstampAll() {
	clear(f.nrows)
	f.cols = f.cols[:0]
}
