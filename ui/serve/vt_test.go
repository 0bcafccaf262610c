package serve

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// vt is just enough of a terminal to read what tcell draws: printable
// runes, cursor addressing and erasing. Colours, modes and every other
// sequence are parsed and ignored. Safe for concurrent use.
type vt struct {
	mu    sync.Mutex
	w, h  int
	cells [][]rune
	x, y  int
	rest  []byte // an unfinished sequence or rune from the last Write
}

func newVT(w, h int) *vt {
	v := &vt{}
	v.resize(w, h)
	return v
}

// resize changes the size and clears the screen, as a terminal's
// reflow-less resize would leave it to the application to redraw.
func (v *vt) resize(w, h int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.w, v.h = w, h
	v.cells = make([][]rune, h)
	for i := range v.cells {
		v.cells[i] = []rune(strings.Repeat(" ", w))
	}
	v.x, v.y = 0, 0
}

func (v *vt) Write(p []byte) (int, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	b := append(v.rest, p...)
	i := 0
	for i < len(b) {
		n := v.step(b[i:])
		if n == 0 {
			break // incomplete: wait for more
		}
		i += n
	}
	v.rest = append([]byte(nil), b[i:]...)
	return len(p), nil
}

// step interprets one rune or sequence at the start of b and returns its
// length, or 0 if b ends before it does.
func (v *vt) step(b []byte) int {
	switch c := b[0]; {
	case c == 0x1b:
		return v.escape(b)
	case c == '\r':
		v.x = 0
	case c == '\n':
		v.y = min(v.y+1, v.h-1)
	case c == '\b':
		v.x = max(v.x-1, 0)
	case c < 0x20 || c == 0x7f:
	default:
		if !utf8.FullRune(b) {
			return 0
		}
		r, n := utf8.DecodeRune(b)
		if v.x < v.w && v.y < v.h {
			v.cells[v.y][v.x] = r
		}
		v.x++
		return n
	}
	return 1
}

func (v *vt) escape(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '[':
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				v.csi(string(b[2:i]), b[i])
				return i + 1
			}
		}
		return 0
	case ']', 'P', '_', '^':
		// OSC, DCS, APC, PM: up to BEL or ST.
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1
			}
			if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2
			}
		}
		return 0
	case '(', ')', '*', '+', '#':
		if len(b) < 3 {
			return 0
		}
		return 3
	}
	return 2
}

func (v *vt) csi(params string, final byte) {
	if params != "" && strings.ContainsRune("?<>=", rune(params[0])) {
		return // private modes
	}
	var n []int
	for _, f := range strings.Split(params, ";") {
		k, _ := strconv.Atoi(f)
		n = append(n, k)
	}
	arg := func(i, def int) int {
		if i < len(n) && n[i] != 0 {
			return n[i]
		}
		return def
	}
	switch final {
	case 'H', 'f':
		v.y, v.x = min(arg(0, 1)-1, v.h-1), min(arg(1, 1)-1, v.w-1)
	case 'A':
		v.y = max(v.y-arg(0, 1), 0)
	case 'B':
		v.y = min(v.y+arg(0, 1), v.h-1)
	case 'C':
		v.x = min(v.x+arg(0, 1), v.w-1)
	case 'D':
		v.x = max(v.x-arg(0, 1), 0)
	case 'G':
		v.x = min(arg(0, 1)-1, v.w-1)
	case 'd':
		v.y = min(arg(0, 1)-1, v.h-1)
	case 'J':
		if arg(0, 0) == 2 || arg(0, 0) == 3 {
			for y := range v.cells {
				v.blank(y, 0, v.w)
			}
			return
		}
		v.blank(v.y, v.x, v.w)
		for y := v.y + 1; y < v.h; y++ {
			v.blank(y, 0, v.w)
		}
	case 'K':
		v.blank(v.y, v.x, v.w)
	case 'X':
		v.blank(v.y, v.x, v.x+arg(0, 1))
	}
}

func (v *vt) blank(y, from, to int) {
	if y < 0 || y >= v.h {
		return
	}
	for x := max(from, 0); x < min(to, v.w); x++ {
		v.cells[y][x] = ' '
	}
}

// text returns the screen, one line per row, trailing blanks trimmed.
func (v *vt) text() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var sb strings.Builder
	for _, row := range v.cells {
		sb.WriteString(strings.TrimRight(string(row), " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}
