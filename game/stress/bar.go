package stress

import (
	"io"
	"strconv"
)

// Bar is a progress bar drawn on one terminal line and redrawn in place.
// Update allocates nothing, so it can serve as [Config.Progress] without
// showing in the allocation figures; it redraws only when the shown
// percentage changes. Write errors are ignored: a progress bar is a
// courtesy.
type Bar struct {
	w     io.Writer
	width int
	buf   []byte
	shown int // percent last drawn; -1: nothing yet
}

// NewBar returns a bar of width cells that draws on w, normally a terminal's
// stderr.
func NewBar(w io.Writer, width int) *Bar {
	return &Bar{w: w, width: width, buf: make([]byte, 0, 4*width+64), shown: -1}
}

// Update draws done of total.
func (b *Bar) Update(done, total int) {
	if total <= 0 {
		return
	}
	pct := min(100*done/total, 100)
	if pct == b.shown {
		return
	}
	b.shown = pct
	full := b.width * pct / 100
	buf := append(b.buf[:0], "\rstress ["...)
	for i := range b.width {
		if i < full {
			buf = append(buf, "█"...)
		} else {
			buf = append(buf, "░"...)
		}
	}
	buf = append(buf, "] "...)
	buf = strconv.AppendInt(buf, int64(pct), 10)
	buf = append(buf, "% "...)
	b.buf = buf
	b.w.Write(buf)
}

// Clear erases the bar's line, leaving the cursor at its start.
func (b *Bar) Clear() {
	if b.shown < 0 {
		return
	}
	b.w.Write([]byte("\r\x1b[2K"))
	b.shown = -1
}
