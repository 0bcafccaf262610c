package ui

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// Drawing goes through tcell's Screen.Put with strings that already exist:
// Put keeps a substring of its argument, where SetContent builds a new
// string for every cell. Numbers are formatted into reused byte slices and
// become strings only when they change (textCache), so that a frame
// allocates nothing. All the text the game shows is one cell per rune.

// putString sets s at (x, y), at most maxw cells, and returns the cells
// used. On a surface the back buffer takes the string whole (see
// vt.Frame.PutString): its style is resolved once.
func putString(scr putter, x, y, maxw int, s string, st tcell.Style) int {
	if sf, ok := scr.(*surface); ok {
		return sf.f.PutString(x, y, maxw, s, st)
	}
	n := 0
	for s != "" && n < maxw {
		var w int
		s, w = scr.Put(x+n, y, s, st)
		if w == 0 { // off the screen
			break
		}
		n += w
	}
	return n
}

// clearLine blanks w cells from (x, y) in the default style.
func clearLine(scr tcell.Screen, x, y, w int) { line(scr, x, y, 1, 0, w, blank, tcell.StyleDefault) }

// line draws n copies of s, one cell each, from (x, y) along the row
// (dx 1) or down the column (dy 1).
func line(scr putter, x, y, dx, dy, n int, s string, st tcell.Style) {
	var k cellOf
	k.line(scr, x, y, dx, dy, n, s, st)
}

// textCache holds the string of the bytes last formatted, so that text
// that seldom changes costs an allocation only when it does.
type textCache struct{ s string }

func (c *textCache) of(b []byte) string {
	if string(b) != c.s { // the comparison does not convert
		c.s = string(b)
	}
	return c.s
}

// appendCell appends s cut or padded to width cells.
func appendCell(dst []byte, s string, width int) []byte {
	n := 0
	for _, r := range s {
		if n == width {
			break
		}
		dst = utf8.AppendRune(dst, r)
		n++
	}
	for ; n < width; n++ {
		dst = append(dst, ' ')
	}
	return dst
}

// cells is the number of screen cells b takes. (utf8.RuneCount copies b
// past its first non-ASCII byte into a string, which allocates beyond 32
// bytes: a watcher's header is that long.)
func cells(b []byte) int {
	n := 0
	for ; len(b) > 0; n++ {
		_, size := utf8.DecodeRune(b)
		b = b[size:]
	}
	return n
}

// pad appends spaces so that what follows start fills width cells; text
// already wider is left as it is.
func pad(dst []byte, start, width int) []byte {
	for n := cells(dst[start:]); n < width; n++ {
		dst = append(dst, ' ')
	}
	return dst
}

// appendRight appends s right-aligned in width cells.
func appendRight(dst []byte, s []byte, width int) []byte {
	for n := cells(s); n < width; n++ {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

// appendIntRight appends v right-aligned in width cells.
func appendIntRight(dst []byte, v int64, width int) []byte {
	var tmp [24]byte
	return appendRight(dst, strconv.AppendInt(tmp[:0], v, 10), width)
}

// appendUintRight appends v right-aligned in width cells.
func appendUintRight(dst []byte, v uint64, width int) []byte {
	var tmp [24]byte
	return appendRight(dst, strconv.AppendUint(tmp[:0], v, 10), width)
}

// appendFloatRight appends v with prec decimals right-aligned in width cells.
func appendFloatRight(dst []byte, v float64, prec, width int) []byte {
	var tmp [32]byte
	return appendRight(dst, strconv.AppendFloat(tmp[:0], v, 'f', prec, 64), width)
}

// appendSize appends a byte count in KiB, MiB or GiB with one decimal.
func appendSize(dst []byte, n uint64) []byte {
	const kib = 1024
	v, unit := float64(n)/kib, " KiB"
	if v >= kib {
		v, unit = v/kib, " MiB"
	}
	if v >= kib {
		v, unit = v/kib, " GiB"
	}
	dst = strconv.AppendFloat(dst, v, 'f', 1, 64)
	return append(dst, unit...)
}

// appendDuration appends d in a short form: "850ns", "41µs", "1.25ms",
// "2.0s"; micro is the microseconds' unit (see glyphs).
func appendDuration(dst []byte, d time.Duration, micro string) []byte {
	switch {
	case d < time.Microsecond:
		dst = strconv.AppendInt(dst, int64(d), 10)
		return append(dst, "ns"...)
	case d < time.Millisecond:
		dst = strconv.AppendInt(dst, int64(d/time.Microsecond), 10)
		return append(dst, micro...)
	case d < time.Second:
		dst = strconv.AppendFloat(dst, float64(d)/float64(time.Millisecond), 'f', 2, 64)
		return append(dst, "ms"...)
	}
	dst = strconv.AppendFloat(dst, d.Seconds(), 'f', 1, 64)
	return append(dst, 's')
}

// rect is a box of cells on screen.
type rect struct{ x, y, w, h int }

// at is r moved by (dx, dy).
func (r rect) at(dx, dy int) rect { return rect{r.x + dx, r.y + dy, r.w, r.h} }

// putter is what draws cells: a tcell.Screen, or a test's log of them.
type putter interface {
	Put(x, y int, str string, st tcell.Style) (remain string, width int)
	Colors() int
}

// blank is what a cleared cell holds (tcell's Clear).
const blank = " "

// fg is the style of the colour nearest to r, g, b among the 240 of
// xterm's 256-colour palette that themes leave alone: what tcell shows on
// a 256-colour terminal anyway, and on a truecolor one a style change of
// 11 bytes where the colour's own took up to 19.
func fg(r, g, b int32) tcell.Style {
	return tcell.StyleDefault.Foreground(tcell.FindColor(tcell.NewRGBColor(r, g, b), fixedColours))
}

var fixedColours = func() []tcell.Color {
	p := make([]tcell.Color, 240)
	for i := range p {
		p[i] = tcell.PaletteColor(16 + i)
	}
	return p
}()

var (
	borderStyle  = tcell.StyleDefault.Foreground(tcell.ColorGray)
	focusStyle   = tcell.StyleDefault.Foreground(tcell.ColorTeal)
	titleStyle   = tcell.StyleDefault.Foreground(tcell.ColorWhite).Bold(true)
	badgeStyle   = tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(tcell.ColorYellow)
	overlayStyle = tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(tcell.ColorBlack)
	overlayTitle = overlayStyle.Foreground(tcell.ColorYellow).Bold(true)
)

var (
	labelStyle    = tcell.StyleDefault.Foreground(tcell.ColorGray)
	valueStyle    = tcell.StyleDefault.Foreground(tcell.ColorWhite)
	headStyle     = tcell.StyleDefault.Foreground(tcell.ColorTeal).Bold(true)
	strategyStyle = tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
	alertStyle    = tcell.StyleDefault.Foreground(tcell.ColorRed).Bold(true)
	sparkStyles   = [3]tcell.Style{
		tcell.StyleDefault.Foreground(tcell.ColorGreen),
		tcell.StyleDefault.Foreground(tcell.ColorYellow),
		tcell.StyleDefault.Foreground(tcell.ColorRed),
	}
)
