package ui

import (
	"runtime"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/pool"
	"poolroids/ui/vt"
)

const (
	panelWidth    = 34             // side panel, borders included
	panelHeight   = panelLines + 2 // the stats box, borders included
	panelLines    = 19
	compactWidth  = 18 // the compact panel, borders included
	compactHeight = compactLines + 2
	compactLines  = 12

	sampleEvery = game.TPS / 4 // steps between two samples of the pools: 4 a second
	sparkLen    = 24           // samples in a sparkline: the last 6 s
	rateWindow  = 4            // samples over which rates are taken: 1 s
	memEvery    = 500 * time.Millisecond
)

// The two pools, in panel order.
const (
	bulletsPool = iota
	debrisPool
	numPools
)

var poolNames = [numPools]string{"bullets", "debris"}

// rateSample is a pool's counters at one sample.
type rateSample struct {
	at                       time.Duration
	acquires, probes, allocs uint64
}

// poolView is what the panel shows of one pool.
type poolView struct {
	stats        pool.Stats
	rated        bool    // a window of samples with acquires in it exists
	perSec       float64 // acquires per second over the window
	probesPerAcq float64 // probes per acquire over the window
	allocsPerSec float64 // items taken from the heap per second over the window
	spark        [sparkLen]float32
	hist         [rateWindow]rateSample // ring of the last samples
	nhist, next  int
}

// sample adds the pool's counters at now.
func (v *poolView) sample(st pool.Stats, now time.Duration) {
	v.stats = st
	copy(v.spark[:], v.spark[1:])
	v.spark[sparkLen-1] = float32(st.Active) / float32(max(st.Capacity, 1))
	cur := rateSample{at: now, acquires: st.Acquires, probes: st.Probes, allocs: st.Allocs}
	if v.nhist > 0 {
		old := v.hist[0]
		if v.nhist == rateWindow {
			old = v.hist[v.next]
		}
		acq, dt := cur.acquires-old.acquires, max((cur.at-old.at).Seconds(), 1e-9)
		v.perSec = float64(acq) / dt
		v.allocsPerSec = float64(cur.allocs-old.allocs) / dt
		v.rated = acq > 0
		if v.rated {
			v.probesPerAcq = float64(cur.probes-old.probes) / float64(acq)
		}
	}
	v.hist[v.next] = cur
	v.next = (v.next + 1) % rateWindow
	v.nhist = min(v.nhist+1, rateWindow)
}

// restart forgets the rate window, so rates after a strategy switch are
// the new strategy's alone.
func (v *poolView) restart() { v.nhist, v.next, v.rated = 0, 0, false }

// view is the sampled state of the pools, written by the stepping
// goroutine under the session lock a few times a second; gen counts samples.
type view struct {
	gen   uint64
	pools [numPools]poolView
	step  time.Duration // mean time of a step since the previous sample
	title string        // the panel's title; "": " pools "
}

// panel is the stats box of the side panel. In full form it shows the two
// pools side by side, their sparklines, the Go runtime, the frame and the
// input mode; in compact form, for each pool its strategy, active and
// capacity and misses, then the frame rate and which pool the strategy
// keys switch. Its text is formatted only when a new sample arrives (a few
// times a second), so the cells it sends a terminal change no faster than
// that; drawing it, whole every frame, reuses the formatted lines and
// allocates nothing.
type panel struct {
	*tview.Box
	// What the session hands it for each frame (see session.take): the
	// glyphs, a new sample (fresh, with v and gen), the frames drawn and
	// their time, what the screen sent, whether keys are held for real,
	// and the pools the strategy keys switch.
	g      *glyphs
	fresh  bool
	frames uint64
	drawn  time.Duration
	sent   vt.Stats
	sentOK bool
	held   bool
	target target
	// switcher is who switches the pools when this screen's 1-0 do not;
	// "": they do.
	switcher string
	gen      uint64
	latest   view
	compact  bool
	stale    bool // the lines must be formatted again though no sample came
	text     textLines
	box      box
	tmp      []byte

	ms             runtime.MemStats
	memAt          time.Time
	memFrames      uint64
	allocsPerFrame float64
	fpsAt          time.Time
	fpsFrames      uint64
	fpsRender      time.Duration
	fps            float64
	render         time.Duration // mean time to draw a frame

	out           vt.Stats // the screen's output at the last measure
	outOK         bool     // the screen writes its own frames: out counts
	bytesPerFrame float64  // sent to the terminal, since the last measure
	cellsPerFrame float64
}

func newPanel() *panel {
	return &panel{Box: tview.NewBox(), g: utf8Glyphs, text: newTextLines(panelLines), tmp: make([]byte, 0, 64)}
}

// MouseHandler ignores the mouse: the stats box holds nothing to click.
func (p *panel) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
		return false, nil
	}
}

// setForm formats the panel for form f from its next draw.
func (p *panel) setForm(f form) {
	p.compact, p.stale = f == formCompact, true
}

func (p *panel) Draw(scr tcell.Screen) {
	fresh := p.fresh || p.stale
	p.fresh = false
	if fresh {
		p.format(time.Now())
		p.stale = false
	}
	x, y, w, h := p.GetRect()
	title := p.latest.title
	if title == "" {
		title = " pools "
	}
	p.box.draw(scr, p.g, rect{x, y, w, h}, borderStyle, 2, title, "", "")
	p.text.draw(scr, x+1, y+1, w-2, h-2)
}

// format rebuilds every line from the latest sample.
func (p *panel) format(now time.Time) {
	p.measure(now)
	g := p.g
	if p.compact {
		p.formatCompact(g)
	} else {
		p.formatFull(g)
	}
	p.text.settle()
}

// formatFull formats the full panel's lines.
func (p *panel) formatFull(g *glyphs) {
	next := p.text.next
	l := next().style(headStyle).str("          ")
	for _, name := range poolNames {
		p.tmp = appendRight(p.tmp[:0], []byte(name), 11)
		l.b = append(l.b, p.tmp...)
	}
	p.row(next(), "strategy", strategyStyle, func(v *poolView, b []byte) []byte { return append(b, v.stats.Strategy...) })
	p.row(next(), "capacity", valueStyle, func(v *poolView, b []byte) []byte { return appendIntRight(b, int64(v.stats.Capacity), 0) })
	p.row(next(), "active", valueStyle, func(v *poolView, b []byte) []byte { return appendIntRight(b, int64(v.stats.Active), 0) })
	p.row(next(), "free", valueStyle, func(v *poolView, b []byte) []byte {
		return appendIntRight(b, int64(v.stats.Capacity-v.stats.Active), 0)
	})
	p.row(next(), "high-water", valueStyle, func(v *poolView, b []byte) []byte { return appendIntRight(b, int64(v.stats.HighWater), 0) })
	p.row(next(), "misses", valueStyle, func(v *poolView, b []byte) []byte { return appendUintRight(b, v.stats.Misses, 0) })
	p.row(next(), "rejects", valueStyle, func(v *poolView, b []byte) []byte { return appendUintRight(b, v.stats.Rejects, 0) })
	p.row(next(), "probes/acq", valueStyle, func(v *poolView, b []byte) []byte {
		if !v.rated {
			return append(b, '-')
		}
		return appendFloatRight(b, v.probesPerAcq, 2, 0)
	})
	p.row(next(), "acquires/s", valueStyle, func(v *poolView, b []byte) []byte {
		if !v.rated {
			return append(b, '-')
		}
		return appendFloatRight(b, v.perSec, 0, 0)
	})
	p.row(next(), "allocs/s", valueStyle, func(v *poolView, b []byte) []byte {
		if !v.rated {
			return append(b, '-')
		}
		return appendFloatRight(b, v.allocsPerSec, 0, 0)
	})
	for i := range p.latest.pools {
		p.spark(next(), i)
	}

	l = next().style(labelStyle).str("proc heap  ").style(valueStyle)
	l.b = appendSize(l.b, p.ms.HeapInuse)

	l = next().style(labelStyle).str("proc gc    ").style(valueStyle)
	l.b = appendUintRight(l.b, uint64(p.ms.NumGC), 0)
	l.style(labelStyle).str(g.sep).str("last pause ").style(valueStyle)
	l.b = appendDuration(l.b, time.Duration(p.ms.PauseNs[(p.ms.NumGC+255)%256]), g.micro)

	l = next().style(labelStyle).str("proc alloc ").style(valueStyle)
	l.b = appendFloatRight(l.b, p.allocsPerFrame, 1, 0)
	l.style(labelStyle).str(" per frame")

	l = next().style(labelStyle).str("fps ").style(valueStyle)
	l.b = appendFloatRight(l.b, p.fps, 0, 0)
	l.style(labelStyle).str("  step ").style(valueStyle)
	l.b = appendDuration(l.b, p.latest.step, g.micro)
	l.style(labelStyle).str("  draw ").style(valueStyle)
	l.b = appendDuration(l.b, p.render, g.micro)

	l = next().style(labelStyle).str("out/frame  ").style(valueStyle)
	if p.outOK {
		l.b = appendFloatRight(l.b, p.bytesPerFrame, 0, 0)
		l.style(labelStyle).str(" B").str(g.sep).style(valueStyle)
		l.b = appendFloatRight(l.b, p.cellsPerFrame, 0, 0)
		l.style(labelStyle).str(" cells")
	} else {
		l.str("-") // tcell writes the frames
	}

	l = next().style(labelStyle).str("input     ").style(valueStyle)
	if p.held {
		l.str("held keys")
	} else {
		l.str("press-only")
	}
}

// compactTargets name the pools the strategy keys switch, in the compact
// panel's narrow lines.
var compactTargets = [numTargets]string{"both", "bullets", "debris"}

// formatCompact formats the compact panel's lines.
func (p *panel) formatCompact(g *glyphs) {
	next := p.text.next
	for i := range p.latest.pools {
		st := &p.latest.pools[i].stats
		next().style(headStyle).str(poolNames[i])
		l := next().style(strategyStyle).str(" ")
		l.b = append(l.b, st.Strategy...)
		p.tmp = strconv.AppendInt(p.tmp[:0], int64(st.Active), 10)
		p.tmp = append(p.tmp, '/')
		p.tmp = strconv.AppendInt(p.tmp, int64(st.Capacity), 10)
		p.pair(next(), "active", valueStyle, p.tmp)
		miss := valueStyle
		if st.Misses > 0 {
			miss = alertStyle
		}
		p.pair(next(), "misses", miss, strconv.AppendUint(p.tmp[:0], st.Misses, 10))
		next()
	}
	l := next().style(labelStyle).str(" fps ").style(valueStyle)
	l.b = appendFloatRight(l.b, p.fps, 0, 0)
	if p.switcher != "" {
		next().style(labelStyle).str(" pools: ").style(valueStyle).str(p.switcher)
		return
	}
	next().style(labelStyle).str(" 1-0 ").str(g.arrow).str(" ").style(valueStyle).str(compactTargets[p.target])
}

// pair formats a line of the compact panel: label, and val at its right
// end; the label is cut to its first three letters ("act 1013/1024"), or
// left out, where both do not fit.
func (p *panel) pair(l *textLine, label string, st tcell.Style, val []byte) {
	w := compactWidth - 2 - 1 // a blank at the left
	if len(label)+1+cells(val) > w {
		label = label[:min(3, len(label))]
	}
	if len(label)+1+cells(val) > w {
		label = ""
	}
	l.style(labelStyle).str(" ").str(label).style(st)
	l.b = appendRight(l.b, val, w-len(label))
}

// row formats one line of the pool table: a label and a value per pool,
// right-aligned in columns of 11.
func (p *panel) row(l *textLine, label string, st tcell.Style, val func(*poolView, []byte) []byte) {
	l.style(labelStyle).str(label)
	l.b = pad(l.b, 0, 10)
	for i := range p.latest.pools {
		v := &p.latest.pools[i]
		p.tmp = val(v, p.tmp[:0])
		s := st
		if label == "misses" && v.stats.Misses > 0 {
			s = alertStyle
		}
		l.style(s)
		l.b = appendRight(l.b, p.tmp, 11)
	}
}

// spark formats the sparkline of pool i's fill (active / capacity).
func (p *panel) spark(l *textLine, i int) {
	l.style(labelStyle).str(poolNames[i])
	l.b = pad(l.b, 0, 8)
	ramp := &p.g.sparks
	last := -1
	for _, f := range p.latest.pools[i].spark {
		lvl := min(max(int(f*float32(len(ramp)-1)+0.5), 0), len(ramp)-1)
		c := 0
		switch {
		case f >= 0.9:
			c = 2
		case f >= 0.5:
			c = 1
		}
		if c != last {
			l.style(sparkStyles[c])
			last = c
		}
		l.str(ramp[lvl])
	}
}

// measure updates the frame and runtime figures: frames per second and
// draw time from the frames drawn since the last call, the Go runtime's
// memory statistics at most every memEvery (reading them stops the world
// briefly, so never every frame).
func (p *panel) measure(now time.Time) {
	frames, render := p.frames, p.drawn
	if dt := now.Sub(p.fpsAt); !p.fpsAt.IsZero() && dt > 0 {
		p.fps = float64(frames-p.fpsFrames) / dt.Seconds()
		if n := frames - p.fpsFrames; n > 0 {
			p.render = (render - p.fpsRender) / time.Duration(n)
		}
	}
	p.fpsAt, p.fpsFrames, p.fpsRender = now, frames, render
	if out, ok := p.sent, p.sentOK; ok {
		if n := out.Renders - p.out.Renders; p.outOK && n > 0 {
			p.bytesPerFrame = float64(out.Bytes-p.out.Bytes) / float64(n)
			p.cellsPerFrame = float64(out.Cells-p.out.Cells) / float64(n)
		}
		p.out, p.outOK = out, true
	}
	if now.Sub(p.memAt) < memEvery {
		return
	}
	mallocs := p.ms.Mallocs
	runtime.ReadMemStats(&p.ms)
	if n := frames - p.memFrames; !p.memAt.IsZero() && n > 0 {
		p.allocsPerFrame = float64(p.ms.Mallocs-mallocs) / float64(n)
	}
	p.memAt, p.memFrames = now, frames
}

// form is the side panel's form. The arena takes the rest of the width.
type form uint8

const (
	formFull    form = iota // the stats box over the strategy list
	formCompact             // a few lines: strategy, active/capacity and misses per pool, fps
	formHidden              // none: the arena has the whole width
	numForms
)

// width is the columns the panel takes in form f.
func (f form) width() int {
	switch f {
	case formFull:
		return panelWidth
	case formCompact:
		return compactWidth
	}
	return 0
}

// height is the rows the stats box takes in form f.
func (f form) height() int {
	if f == formCompact {
		return compactHeight
	}
	return panelHeight
}
