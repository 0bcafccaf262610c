// Package golden compares what a screen shows with a file of golden text,
// for the tests of package ui: its internal tests, which draw a session's
// frames one by one, and its external ones, which play whole sessions
// through the public API. Both write the same files, testdata/golden/
// <name>.txt beside the test, and share one -update flag, which rewrites
// them; read the files that changed before committing them.
//
// A [Frame] is a screen as text: its characters, one line a row with the
// trailing blanks cut, then its styles the same way, a letter a style,
// then the styles the letters stand for. The panel's process-wide figures
// (the heap, the GC, every goroutine's allocations) vary from run to run
// and show as ~.
//
// A [Screen] is the simulation screen the tests start sessions on: it
// takes its size on Init, as a terminal does.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Frame is a screen as text (see the package doc).
type Frame struct {
	Text, Styles, Legend string
}

func (f Frame) String() string {
	return f.Text + "\n-- styles (. is the default) --\n" + f.Styles + "\n" + f.Legend
}

// varying are the panel's process-wide figures (the heap, the GC and the
// allocations of every goroutine in the test binary): the rest of a row
// after one of these labels, up to the panel's border, shows as ~.
var varying = []string{"proc heap", "proc gc", "proc alloc"}

// styleLetters name a frame's styles in the order they first appear.
const styleLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Capture is what scr shows, as its last Show left it. Nothing may draw
// on scr meanwhile.
func Capture(t testing.TB, scr tcell.SimulationScreen) Frame {
	t.Helper()
	cells, w, h := scr.GetContents()
	letters := map[tcell.Style]byte{tcell.StyleDefault: '.'}
	var legend []string
	var text, styles strings.Builder
	row := make([]rune, w)
	look := make([]byte, w)
	for y := range h {
		for x := range w {
			c := cells[y*w+x]
			row[x] = ' '
			if len(c.Runes) > 0 {
				row[x] = c.Runes[0]
			}
			st := visible(row[x], c.Style)
			l, ok := letters[st]
			if !ok {
				if len(legend) == len(styleLetters) {
					t.Fatalf("more than %d styles on the screen", len(styleLetters))
				}
				l = styleLetters[len(legend)]
				letters[st] = l
				legend = append(legend, string(l)+" "+describe(st))
			}
			look[x] = l
		}
		mask(row, look)
		text.WriteString(strings.TrimRight(string(row), " "))
		text.WriteByte('\n')
		styles.WriteString(strings.TrimRight(string(look), "."))
		styles.WriteByte('\n')
	}
	return Frame{text.String(), styles.String(), strings.Join(legend, "\n") + "\n"}
}

// visible is the part of st that shows in a cell holding r: a blank's
// foreground and attributes do not show, only its background.
func visible(r rune, st tcell.Style) tcell.Style {
	_, bg, attr := st.Decompose()
	if (r == ' ' || r == '\u2800') && attr&tcell.AttrReverse == 0 && st.GetUnderlineStyle() == tcell.UnderlineStyleNone {
		return tcell.StyleDefault.Background(bg)
	}
	return st
}

// mask hides the varying figures of a row.
func mask(row []rune, look []byte) {
	s := string(row)
	for _, label := range varying {
		i := strings.Index(s, label)
		if i < 0 {
			continue
		}
		x := len([]rune(s[:i])) + len(label)
		for x < len(row) && row[x] == ' ' {
			x++
		}
		for ; x < len(row) && !strings.ContainsRune("│|┃", row[x]); x++ {
			row[x], look[x] = '~', '~'
		}
	}
}

// describe is a style as its colours and attributes.
func describe(st tcell.Style) string {
	fg, bg, attr := st.Decompose()
	s := "fg " + colour(fg) + " bg " + colour(bg)
	for _, a := range []struct {
		mask tcell.AttrMask
		name string
	}{{tcell.AttrBold, "bold"}, {tcell.AttrDim, "dim"}, {tcell.AttrItalic, "italic"}, {tcell.AttrReverse, "reverse"}, {tcell.AttrBlink, "blink"}, {tcell.AttrStrikeThrough, "strike"}} {
		if attr&a.mask != 0 {
			s += " " + a.name
		}
	}
	if st.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		s += " underline"
	}
	return s
}

// colour names c by its RGB value: tcell's colour names are ambiguous
// (aqua and cyan are one colour).
func colour(c tcell.Color) string {
	if !c.Valid() {
		return c.String() // default, none or reset
	}
	return fmt.Sprintf("#%06X", c.Hex())
}

// Check compares f with testdata/golden/<name>.txt, or rewrites that
// file with -update. A mismatch lists the rows that differ.
func Check(t testing.TB, name string, f Frame) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	got := f.String()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("the screen differs from %s (go test -run %s -update rewrites it):\n%s", path, t.Name(), Diff(string(want), got))
	}
}

// Diff lists the lines of two frames' text that differ, each named by its
// row in the text or in the styles, or as a line of the legend.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	section, row := "row", 1
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		switch {
		case strings.HasPrefix(gl, "-- styles"):
			section, row = "styles row", 0
		case section == "styles row" && gl == "":
			section, row = "legend line", 0
		}
		if wl != gl {
			fmt.Fprintf(&b, "%s %d\n  want: %s\n  got:  %s\n", section, row, wl, gl)
		}
		row++
	}
	return b.String()
}
