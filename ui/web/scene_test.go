package web

import (
	"fmt"
	"math/rand/v2"

	"github.com/gdamore/tcell/v2"

	"poolroids/ui/vt"
)

// scene draws a screen like the game's at 120×40: a bordered field of
// braille outlines (rocks, ships with their names, bullets, debris fading
// through greys) and a panel of text with figures and sparklines, a line
// of key help at the bottom. step moves everything the way a game's
// frame does. dense fills the field with debris, as the stress mode does.
type scene struct {
	rng    *rand.Rand
	dense  bool
	things []thing
	frame  int
}

type thing struct {
	x, y, dx, dy int
	w, h         int
	fg           Color
	name         string
	shape        []rune
}

const (
	sceneW, sceneH = 120, 40
	fieldW, fieldH = 86, 38
)

func newScene(seed uint64, dense bool) *scene {
	s := &scene{rng: rand.New(rand.NewPCG(seed, 1)), dense: dense}
	add := func(n, w, h int, fg func() Color, name string) {
		for range n {
			t := thing{
				x: 1 + s.rng.IntN(fieldW-2-w), y: 1 + s.rng.IntN(fieldH-2-h),
				dx: s.rng.IntN(3) - 1, dy: s.rng.IntN(3) - 1, w: w, h: h, fg: fg(), name: name,
			}
			for range w * h {
				t.shape = append(t.shape, 0x2800+rune(s.rng.IntN(255)+1))
			}
			s.things = append(s.things, t)
		}
	}
	white := func() Color { return PaletteColor(252) }
	add(9, 4, 2, white, "") // large rocks
	add(8, 2, 1, white, "") // small ones
	add(1, 2, 1, func() Color { return PaletteColor(11) }, "ann")
	add(1, 2, 1, func() Color { return PaletteColor(14) }, "bob")
	add(12, 1, 1, func() Color { return PaletteColor(9) }, "") // bullets
	grey := func() Color { return PaletteColor(uint8(240 + s.rng.IntN(12))) }
	debris := 40
	if dense {
		debris = 1500
	}
	add(debris, 1, 1, grey, "")
	return s
}

// step moves everything by its speed, bouncing off the border.
func (s *scene) step() {
	s.frame++
	for i := range s.things {
		t := &s.things[i]
		if t.x+t.dx < 1 || t.x+t.dx+t.w > fieldW-1 {
			t.dx = -t.dx
		}
		if t.y+t.dy < 1 || t.y+t.dy+t.h > fieldH-1 {
			t.dy = -t.dy
		}
		if s.frame%(1+i%3) == 0 { // not everything moves every frame
			t.x += t.dx
			t.y += t.dy
		}
	}
}

var (
	sceneBorder = PaletteColor(245)
	sceneLabel  = DefaultColor
	sceneValue  = PaletteColor(11)
	sceneSpark  = PaletteColor(10)
)

// grid returns the scene drawn on a grid of its size.
func (s *scene) grid() *Grid {
	g := NewGrid(sceneW, sceneH)
	s.draw(g)
	return g
}

// draw draws the scene on g from its top left corner, as far as g goes.
func (s *scene) draw(g *Grid) {
	box(g, 0, 0, fieldW, fieldH, fmt.Sprintf(" First contact · wave 3 ─── score %d · lives 2 · high 10000 ", 450+10*s.frame))
	for _, t := range s.things {
		for i, r := range t.shape {
			g.Set(t.x+i%t.w, t.y+i/t.w, Cell{Text: string(r), Fg: t.fg})
		}
		if t.name != "" {
			g.SetText(t.x, t.y+t.h, t.name, t.fg, DefaultColor, 0)
		}
	}
	box(g, fieldW, 0, sceneW-fieldW, 20, " pools ")
	lines := [][2]string{
		{"strategy", "    freelist   freelist"},
		{"capacity", "          32       1024"},
		{"active", fmt.Sprintf("%14d %10d", 3+s.frame%5, 300+s.frame*7%200)},
		{"free", fmt.Sprintf("%16d %10d", 29-s.frame%5, 724-s.frame*7%200)},
		{"high-water", "        9         694"},
		{"misses", fmt.Sprintf("%14d %10d", 86+s.frame/10, 0)},
		{"probes/acq", "          -          -"},
		{"acquires/s", fmt.Sprintf("%10d %10d", 30+s.frame%3, 4100+s.frame%97)},
		{"proc heap", "  4.4 MiB"},
		{"proc gc", "   9 · last pause 64µs"},
		{"fps 30", fmt.Sprintf(" step %dµs  draw %dµs", 4+s.frame%3, 40+s.frame%9)},
		{"out/frame", fmt.Sprintf("  %d B · %d cells", 129+s.frame%50, 14+s.frame%20)},
	}
	for i, l := range lines {
		n := g.SetText(fieldW+1, 1+i, l[0], sceneLabel, DefaultColor, 0)
		g.SetText(fieldW+1+n, 1+i, l[1], sceneValue, DefaultColor, 0)
	}
	sparks := []rune("▁▂▃▄▅▆▇█")
	for _, row := range []int{14, 15} {
		g.SetText(fieldW+1, row, "debris  ", sceneLabel, DefaultColor, 0)
		for i := range 24 {
			g.Set(fieldW+9+i, row, Cell{Text: string(sparks[(i+s.frame+row)%8]), Fg: sceneSpark})
		}
	}
	box(g, fieldW, 20, sceneW-fieldW, 8, " arena den · co-op ")
	g.SetText(fieldW+1, 21, "player            score sh miss", sceneLabel, DefaultColor, Bold)
	g.SetText(fieldW+1, 22, fmt.Sprintf("ann %20d  2   17", 450+10*s.frame), PaletteColor(11), DefaultColor, 0)
	g.SetText(fieldW+1, 23, "bob                 1100  3   18", PaletteColor(14), DefaultColor, 0)
	g.SetText(1, sceneH-1, " ←→↑/wasd move  space fire  h/s hyperspace  1-0 strategy  b pool  v panel  tab list  ? help  q quit", DefaultColor, DefaultColor, Dim)
}

// box draws a light box with a title on its top border.
func box(g *Grid, x, y, w, h int, title string) {
	c := Cell{Fg: sceneBorder}
	for i := x + 1; i < x+w-1; i++ {
		c.Text = "─"
		g.Set(i, y, c)
		g.Set(i, y+h-1, c)
	}
	for j := y + 1; j < y+h-1; j++ {
		c.Text = "│"
		g.Set(x, j, c)
		g.Set(x+w-1, j, c)
	}
	for _, k := range []struct {
		x, y int
		s    string
	}{{x, y, "┌"}, {x + w - 1, y, "┐"}, {x, y + h - 1, "└"}, {x + w - 1, y + h - 1, "┘"}} {
		c.Text = k.s
		g.Set(k.x, k.y, c)
	}
	g.SetText(x+2, y, title, sceneBorder, DefaultColor, 0)
}

// vtBytes writes g to f as a terminal is sent it, and returns the bytes
// package vt sends for the change.
func vtBytes(f *vt.Frame, g *Grid) []byte {
	w, h := g.Size()
	if fw, fh := f.Size(); fw != w || fh != h {
		f.Resize(w, h)
	}
	for y := range h {
		for x := range w {
			c := g.At(x, y)
			if x > 0 && g.At(x-1, y).Wide {
				continue
			}
			text := c.Text
			if text == "" {
				text = " "
			}
			f.Put(x, y, text, tcellStyle(c))
		}
	}
	return f.Render(nil)
}

func tcellStyle(c Cell) tcell.Style {
	st := tcell.StyleDefault.Foreground(tcellColor(c.Fg)).Background(tcellColor(c.Bg))
	return st.Bold(c.Attr&Bold != 0).Dim(c.Attr&Dim != 0).Italic(c.Attr&Italic != 0).
		Underline(c.Attr&Underline != 0).Reverse(c.Attr&Reverse != 0)
}

func tcellColor(c Color) tcell.Color {
	switch c & 0xff000000 {
	case kindPalette:
		return tcell.PaletteColor(int(c & 0xff))
	case kindRGB:
		return tcell.NewHexColor(int32(c & 0xffffff))
	}
	return tcell.ColorDefault
}
