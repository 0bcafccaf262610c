package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestLineDrawsFromChange: a line drawn over its last frame from where it
// changed shows what a whole draw shows, whether its bytes changed (in
// runes of one byte or more) or only the style of a run.
func TestLineDrawsFromChange(t *testing.T) {
	red := tcell.StyleDefault.Foreground(tcell.ColorRed)
	type run struct {
		s  string
		st tcell.Style
	}
	frames := [][]run{
		{{"ann ", headStyle}, {"  120", valueStyle}, {" 3", red}},
		{{"ann ", headStyle}, {"  125", valueStyle}, {" 3", red}},    // digits
		{{"ann ", headStyle}, {"  125", red}, {" 3", red}},           // a run's style
		{{"ann ", headStyle}, {"  125", red}},                        // a run fewer
		{{"añn ", headStyle}, {"  125", red}},                        // a rune of two bytes
		{{"añn ", headStyle}, {"  12", red}, {"5", valueStyle}},      // a run more
		{{"añé ", headStyle}, {"  12", red}, {"5", valueStyle}},      // after one of two bytes
		{{"aéé ", headStyle}, {"  12", red}, {"5 and more", red}},    // within a rune of two bytes; a run
		{{"aéé ", headStyle}, {"  12", red}, {"5 and more", red}},    // nothing
		{{"x", valueStyle}, {"", red}, {"yz", headStyle}, {"", red}}, // empty runs
	}
	kept, whole := newSim(t, "UTF-8", 30, 1), newSim(t, "UTF-8", 30, 1)
	lines := newTextLines(1)
	for i, f := range frames {
		l := lines.next()
		for _, r := range f {
			l.style(r.st).str(r.s)
		}
		lines.settle()
		lines.draw(kept, 0, 0, 30, 1, i == 0)
		whole.Clear()
		lines.draw(whole, 0, 0, 30, 1, true)
		kept.Show()
		whole.Show()
		a, _, _ := kept.GetContents()
		b, _, _ := whole.GetContents()
		for x := range a {
			if !sameLook(a[x], b[x]) || a[x].Style != b[x].Style {
				t.Fatalf("frame %d, cell %d: kept %q in %v, whole %q in %v", i, x, string(a[x].Runes), a[x].Style, string(b[x].Runes), b[x].Style)
			}
		}
	}
}
