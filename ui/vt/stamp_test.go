package vt

import (
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestStamps: a frame drawn with SetCellsAs, SetCellsFrom and
// SetColumnAs holds what one drawn with SetCells and SetColumn does, whatever other drawing
// (Puts, wide clusters among them, SetCells over a stamped span, Clear,
// Resize, Render) comes between: a stamp never keeps a cell that changed.
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
			// One of the first three, from another: they differ in
			// columns 2 to 4 at most.
			a, b := rows[rnd.IntN(3)], rows[rnd.IntN(3)]
			f.SetCellsFrom(x, y, b.cs, b.k, a.k, 2, 5)
			want.SetCells(x, y, b.want)
			did = "SetCellsFrom"
		case op < 12:
			c, n := cols[rnd.IntN(len(cols))], rnd.IntN(h+1)
			f.SetColumnAs(x, y, n, c.cs[0], c.k)
			want.SetColumn(x, y, n, c.want[0])
			did = "SetColumnAs"
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
