package vt

import (
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestStamps: a frame drawn with SetCellsAs, and areas
// drawn only where they do not hold their content (Holds, Stamp), holds
// what one drawn with SetCells and SetColumn does, whatever other
// drawing (Puts, wide clusters among them, SetCells over a stamped span,
// Clear, Resize, Render) comes between: a stamp never keeps a cell that
// changed.
func TestStamps(t *testing.T) {
	const w, h = 16, 4
	var f, want Frame
	f.Resize(w, h)
	want.Resize(w, h)
	// Contents, each named once, as a widget's rows are: made in each
	// frame's own cells.
	type content struct {
		cs, want []Cell
		k        Key
	}
	cells := func(fr *Frame, s string) []Cell {
		var cs []Cell
		for _, r := range s {
			if r == '.' {
				cs = append(cs, Keep)
				continue
			}
			st := red
			if r == 'k' || r == '║' {
				st = bold
			}
			p := fr.Pen(st)
			c, ok := fr.Cell(r, &p)
			if !ok {
				t.Fatalf("no Cell of %q", r)
			}
			cs = append(cs, c)
		}
		return cs
	}
	var rows, cols []content
	for _, s := range []string{"abcdef", "ab·def", "abcdxf", "──────────", "xy", "k..k"} {
		rows = append(rows, content{cells(&f, s), cells(&want, s), f.NewKey()})
	}
	for _, s := range []string{"│", "║"} {
		cols = append(cols, content{cells(&f, s), cells(&want, s), f.NewKey()})
	}
	puts := []string{"z", "日", "e\u0301", " "}

	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		x, y := rnd.IntN(w+2)-1, rnd.IntN(h)
		var did string
		switch op := rnd.IntN(20); {
		case op < 7:
			r := rows[rnd.IntN(len(rows))]
			f.SetCellsAs(x, y, r.cs, r.k)
			want.SetCells(x, y, r.want)
			did = "SetCellsAs"
		case op < 10:
			// A block of one row stamped over a span stamped as a row.
			r := rows[rnd.IntN(len(rows))]
			if !f.Holds(x, y, len(r.cs), 1, r.k) {
				f.SetCellsAs(x, y, r.cs, r.k)
				f.Stamp(x, y, len(r.cs), 1, r.k)
			}
			want.SetCells(x, y, r.want)
			did = "row area"
		case op < 11:
			c, n := cols[rnd.IntN(len(cols))], rnd.IntN(h+1)
			if !f.Holds(x, y, 1, n, c.k) {
				f.SetColumn(x, y, n, c.cs[0])
				f.Stamp(x, y, 1, n, c.k)
			}
			want.SetColumn(x, y, n, c.want[0])
			did = "column area"
		case op < 12:
			// A block of rows of one content, as textLines draws.
			r, n := rows[rnd.IntN(len(rows))], rnd.IntN(h+1)
			if !f.Holds(x, y, len(r.cs), n, r.k) {
				for j := range n {
					f.SetCells(x, y+j, r.cs)
				}
				f.Stamp(x, y, len(r.cs), n, r.k)
			}
			for j := range n {
				want.SetCells(x, y+j, r.want)
			}
			did = "block area"
		case op < 17:
			s := puts[rnd.IntN(len(puts))]
			f.Put(x, y, s, red)
			want.Put(x, y, s, red)
			did = "Put " + s
		case op == 17:
			r := rows[rnd.IntN(len(rows))]
			f.SetCells(x, y, r.cs)
			want.SetCells(x, y, r.want)
			did = "SetCells"
		case op == 18:
			f.Clear()
			want.Clear()
			did = "Clear"
		default:
			f.Render(nil)
			did = "Render"
		}
		if d := same(&f, &want); d != "" {
			t.Fatalf("step %d, %s at (%d,%d): %s", i, did, x, y, d)
		}
	}
	f.Resize(w, h)
	r := rows[0]
	f.SetCellsAs(0, 0, r.cs, r.k)
	want.Resize(w, h)
	want.SetCells(0, 0, r.want)
	if d := same(&f, &want); d != "" {
		t.Fatalf("after Resize: %s", d)
	}
}

// TestStampsSkip: a span set again from its content, unchanged, is not
// compared: a change behind the frame's back (to its cells, as no
// caller can make) stays, which shows the compare was skipped; any
// change through the frame drops the stamp.
func TestStampsSkip(t *testing.T) {
	var f Frame
	f.Resize(8, 2)
	p := f.Pen(red)
	a, _ := f.Cell('a', &p)
	cs, k := []Cell{a, a, a}, f.NewKey()
	f.SetCellsAs(2, 0, cs, k)
	f.cells[3] = Cell{} // behind its back
	f.SetCellsAs(2, 0, cs, k)
	if f.cells[3] != (Cell{}) {
		t.Fatal("a stamped span set again was compared")
	}
	f.Put(4, 0, "b", tcell.StyleDefault) // through the frame: the stamp goes
	f.SetCellsAs(2, 0, cs, k)
	if f.cells[3] != a || f.cells[4] != a {
		t.Fatalf("after a Put in the span: %v %v, want both %v", f.cells[3], f.cells[4], a)
	}
}

// TestAreas: an area stamped holds its content until a cell of it
// changes, it is stamped anew or the frame is resized; another key, or an
// area that differs, does not. Areas within each other hold each their
// own.
func TestAreas(t *testing.T) {
	var f Frame
	f.Resize(10, 5)
	k := f.NewKey()
	f.Stamp(2, 1, 4, 3, k)
	for _, c := range []struct {
		x, y, w, h int
		k          Key
		want       bool
	}{
		{2, 1, 4, 3, k, true}, {2, 1, 4, 3, k + 1, false}, {2, 1, 4, 2, k, false}, {3, 1, 4, 3, k, false},
	} {
		if got := f.Holds(c.x, c.y, c.w, c.h, c.k); got != c.want {
			t.Errorf("Holds(%d, %d, %d, %d, %d) = %v, want %v", c.x, c.y, c.w, c.h, c.k, got, c.want)
		}
	}
	f.Put(6, 2, "x", red) // beside it
	f.Put(1, 3, "x", red)
	if !f.Holds(2, 1, 4, 3, k) {
		t.Error("a change beside the area dropped its stamp")
	}
	f.Put(5, 3, "x", red)
	if f.Holds(2, 1, 4, 3, k) {
		t.Error("a change in the area kept its stamp")
	}
	f.Stamp(2, 1, 4, 3, k)
	f.Put(5, 3, "x", red) // as it is: no change
	if !f.Holds(2, 1, 4, 3, k) {
		t.Error("a cell set as it was dropped the stamp")
	}
	k2, k3 := f.NewKey(), f.NewKey()
	f.Stamp(3, 2, 2, 1, k2)  // within it
	f.Stamp(0, 0, 10, 5, k3) // around both
	if !f.Holds(2, 1, 4, 3, k) || !f.Holds(3, 2, 2, 1, k2) || !f.Holds(0, 0, 10, 5, k3) {
		t.Error("areas within each other do not hold each their own")
	}
	f.Stamp(2, 1, 4, 3, k2) // anew
	if f.Holds(2, 1, 4, 3, k) || !f.Holds(2, 1, 4, 3, k2) {
		t.Error("an area stamped anew holds its old content, or not its new")
	}
	f.Put(0, 0, "y", red)
	if f.Holds(0, 0, 10, 5, k3) || !f.Holds(3, 2, 2, 1, k2) {
		t.Error("a change in one of the areas dropped another's stamp, or not its own")
	}
	// More areas than slots: the oldest go, the newest hold.
	for i := range 2 * maxAreas {
		f.Stamp(i%10, i/10%5, 1, 1, k+Key(i))
	}
	if !f.Holds(7, 2, 1, 1, k+127) {
		t.Error("the newest area of many does not hold")
	}
	f.Resize(10, 5)
	if f.Holds(7, 2, 1, 1, k+127) {
		t.Error("an area held after Resize")
	}
}
