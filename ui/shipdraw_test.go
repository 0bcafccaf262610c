package ui

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"poolroids/game"
	"poolroids/game/input"
)

// tapHeadings are the headings a ship takes from its first, tap after tap
// of ← in a terminal without key releases: the game's own turn over
// a tap's steps, 21 of them a turn.
func tapHeadings(t *testing.T) []float64 {
	t.Helper()
	w, err := game.New(game.Config{Levels: testLevels(t), Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var hs []float64
	for range 21 {
		hs = append(hs, w.Ship().Angle)
		for range input.TapSteps(input.Left) {
			w.Step(game.Input{Left: true})
		}
	}
	return hs
}

// shipRaster draws ship sh alone on a's canvas and returns the cells
// round it as text, a cell a glyph and its ink, the nose's cells marked.
func shipRaster(a *arena, sh game.Ship) (text string, noses int) {
	a.cv.clear()
	a.drawShip(sh, inkShip, inkNose, false, false)
	var b strings.Builder
	x0, y0 := a.cv.dotOf(sh.Pos)
	if !a.cv.ascii {
		x0, y0 = x0/2, y0/4
	}
	for y := max(y0-4, 0); y <= min(y0+4, a.cv.h-1); y++ {
		for x := max(x0-6, 0); x <= min(x0+6, a.cv.w-1); x++ {
			c := a.cv.cells[y*a.cv.w+x]
			b.WriteString(a.cv.glyph(c))
			switch c.ink {
			case inkNose:
				b.WriteByte('*')
				noses++
			case inkNone:
				b.WriteByte(' ')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String(), noses
}

// TestShipHeadings: the ship reads at a glance at the sizes the game
// plays at. Drawn at the centre of the field of an 80×24 and a 120×40
// session, each of the 21 headings a tap of ← gives draws differently,
// with one cell of nose in a style of its own (reverse video), so that
// the heading shows from one frame. In ASCII, where a heading is one of
// eight arrows, the arrow points the way the ship does.
func TestShipHeadings(t *testing.T) {
	headings := tapHeadings(t)
	if step := math.Remainder(headings[1]-headings[0], 2*math.Pi); math.Abs(math.Abs(step)-2*math.Pi/21) > 0.01 {
		t.Fatalf("a tap turns %.3f rad, want about a 21st of a turn", step)
	}
	if st := inkStyles[inkNose]; st == inkStyles[inkShip] || st == inkStyles[inkShipGhost] {
		t.Errorf("the nose's style %v is the body's", st)
	}
	if _, _, attr := inkStyles[inkNose].Decompose(); attr&tcell.AttrReverse == 0 {
		t.Error("the nose is not in reverse video")
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			d := newDrawn(t, "UTF-8", size[0], size[1], Options{Levels: testLevels(t), Seed: 7})
			a := d.s.arena
			seen := make(map[string]int)
			for i, h := range headings {
				sh := game.Ship{Pos: game.Vec{X: game.Width / 2, Y: game.Height / 2}, Angle: h, Alive: true}
				text, noses := shipRaster(a, sh)
				if noses != 1 {
					t.Errorf("heading %d: %d cells of nose, want 1:\n%s", i, noses, text)
				}
				if j, ok := seen[text]; ok {
					t.Errorf("headings %d and %d draw alike:\n%s", j, i, text)
				}
				seen[text] = i
			}
		})
	}
	t.Run("ascii", func(t *testing.T) {
		d := newDrawn(t, "UTF-8", 80, 24, Options{Levels: testLevels(t), Seed: 7, ASCII: true})
		a := d.s.arena
		for i, h := range headings {
			sh := game.Ship{Pos: game.Vec{X: game.Width / 2, Y: game.Height / 2}, Angle: h, Alive: true}
			a.cv.clear()
			a.drawShip(sh, inkShip, inkNose, false, false)
			x0, y0 := a.cv.dotOf(sh.Pos)
			nx, ny, n := 0, 0, 0
			for y := range a.cv.h {
				for x := range a.cv.w {
					if a.cv.cells[y*a.cv.w+x].ink == inkNose {
						nx, ny, n = x, y, n+1
					}
				}
			}
			// A row is about two columns' worth on screen.
			dir := math.Atan2(float64(ny-y0)*2, float64(nx-x0))
			if off := math.Abs(math.Remainder(dir-h, 2*math.Pi)); n != 1 || off > math.Pi/4 {
				t.Errorf("heading %d (%.0f°): %d arrows, the first %.0f° off the heading", i, h*180/math.Pi, n, off*180/math.Pi)
			}
		}
	})
}

// marked counts the cells of a's canvas that show a refused shot.
func marked(a *arena) int {
	n := 0
	for _, c := range a.cv.cells {
		if c.ink == inkRefused {
			n++
		}
	}
	return n
}

// TestRefusedMark: a shot refused (the ship's four in flight) is marked
// on the field by the ship's nose, in braille and in ASCII, for a moment.
func TestRefusedMark(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		d := newDrawn(t, "UTF-8", 120, 40, Options{Seed: 7, ASCII: ascii}) // the shipped set: four shots a ship
		d.s.startGame()
		w := d.s.world()
		for i := 0; w.Player(0).Refused == 0; i++ {
			if i > 10*game.TPS {
				t.Fatalf("no shot refused in ten seconds of fire: %+v, steps %d, phase %v", w.Player(0), w.Steps(), d.s.game().Phase())
			}
			d.s.keys.Press(input.Fire, d.now) // fire held: a repeat a step
			d.steps(1)
		}
		d.frame()
		if n := marked(d.s.arena); n == 0 {
			t.Errorf("ASCII %v: a shot refused at step %d, and no mark on the field", ascii, w.Player(0).Refused)
		}
		d.steps(input.TapSteps(input.Fire) + refusedSteps) // fire let go, and the mark's time
		d.frame()
		if n := marked(d.s.arena); n != 0 {
			t.Errorf("ASCII %v: the mark stays %d steps after the last refusal", ascii, w.Steps()-w.Player(0).Refused)
		}
	}
}
