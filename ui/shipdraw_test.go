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

// TestRefusedMarkUnder: the mark of a refused shot hides nothing a player
// must see. Drawn past the nose of a ship at each of the 21 headings,
// with a saucer's shot on each of its dots, the nose's cell stays lit
// and every shot shows; the mark is not in the red of a danger.
func TestRefusedMarkUnder(t *testing.T) {
	if c, _, _ := inkStyles[inkRefused].Decompose(); isRed(c) {
		t.Errorf("the refused mark is red: %v", c)
	}
	d := newDrawn(t, "UTF-8", 80, 24, Options{Levels: testLevels(t), Seed: 7})
	a := d.s.arena
	for i, h := range tapHeadings(t) {
		sh := game.Ship{Pos: game.Vec{X: game.Width / 2, Y: game.Height / 2}, Angle: h, Alive: true}
		a.cv.clear()
		a.drawShip(sh, inkShip, inkNose, false, false)
		var nose []int
		for j, c := range a.cv.cells {
			if c.ink == inkNose {
				nose = append(nose, j)
			}
		}
		a.cv.clear()
		a.drawShip(sh, inkShip, inkNose, false, true)
		for _, j := range nose {
			if k := a.cv.cells[j].ink; k != inkNose {
				t.Errorf("heading %d: the refused mark turns the nose's cell to ink %d", i, k)
			}
		}
		// A saucer's shot in each cell the mark touches.
		var marks []int
		for j, c := range a.cv.cells {
			if c.ink == inkRefused {
				marks = append(marks, j)
			}
		}
		if len(marks) == 0 {
			t.Fatalf("heading %d: no mark", i)
		}
		for _, j := range marks {
			a.cv.dot(j%a.cv.w*2, j/a.cv.w*4, inkHostile, a.hostileShot())
			a.drawShip(sh, inkShip, inkNose, false, true)
			if got := a.cv.glyph(a.cv.cells[j]); a.cv.cells[j].ink != inkHostile || got != "*" {
				t.Errorf("heading %d: a saucer's shot under the mark shows %q in ink %d", i, got, a.cv.cells[j].ink)
			}
		}
	}
}

// isRed tells whether palette colour c is mostly red.
func isRed(c tcell.Color) bool {
	r, g, b := c.RGB()
	return r > 180 && g < 120 && b < 120
}

// TestShotsApart: a saucer's shot and a player's differ at a glance, in
// shape (a star, a block of dots; in ASCII + and *) and in colour.
func TestShotsApart(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		d := newDrawn(t, "UTF-8", 120, 40, Options{Levels: testLevels(t), Seed: 7, ASCII: ascii})
		a := d.s.arena
		a.cv.clear()
		a.bullet(game.Vec{X: 100, Y: 100}, inkBullet)
		a.point(game.Vec{X: 300, Y: 100}, inkHostile, a.hostileShot())
		mine, theirs := a.cv.cells[a.cellAt(game.Vec{X: 100, Y: 100})], a.cv.cells[a.cellAt(game.Vec{X: 300, Y: 100})]
		if mine.ink != inkBullet || theirs.ink != inkHostile {
			t.Fatalf("ASCII %v: inks %d and %d", ascii, mine.ink, theirs.ink)
		}
		if g1, g2 := a.cv.glyph(mine), a.cv.glyph(theirs); g1 == g2 || (!ascii && g2 != "*") || (ascii && g2 != "+") {
			t.Errorf("ASCII %v: the player's shot shows %q, a saucer's %q", ascii, g1, g2)
		}
	}
	mine, _, _ := inkStyles[inkBullet].Decompose()
	theirs, _, _ := inkStyles[inkHostile].Decompose()
	if colourGap(mine, theirs) < 80 || !isRed(theirs) {
		t.Errorf("shots in %v and %v: too alike, or the saucer's not red", mine, theirs)
	}
}

// cellAt is the index of the canvas cell of the playfield's point p.
func (a *arena) cellAt(p game.Vec) int {
	x, y := a.cv.dotOf(p)
	if !a.cv.ascii {
		x, y = x/2, y/4
	}
	return y*a.cv.w + x
}

// colourGap is how far apart two palette colours are, in RGB.
func colourGap(a, b tcell.Color) float64 {
	r1, g1, b1 := a.RGB()
	r2, g2, b2 := b.RGB()
	return math.Sqrt(float64((r1-r2)*(r1-r2) + (g1-g2)*(g1-g2) + (b1-b2)*(b1-b2)))
}

// TestPlayerColours: no ship can be taken for another or for a danger.
// Each slot has a colour of the 256-colour palette (which a truecolor
// terminal is sent too: see fg) that no other slot and no other ink has,
// at least two of the palette's steps from the saucer's, its shots' and
// the refused mark's; on a terminal of 16 colours, the first eight slots
// (an arena's default size) are none of the saucer's or its shots'.
func TestPlayerColours(t *testing.T) {
	col := func(k ink) tcell.Color { c, _, _ := inkStyles[k].Decompose(); return c }
	p16 := make([]tcell.Color, 16)
	for i := range p16 {
		p16[i] = tcell.PaletteColor(i)
	}
	for i := range ink(game.MaxShips) {
		c := col(inkShip + i)
		for k := inkRock2; k < inkNose; k++ {
			if k != inkShip+i && col(k) == c {
				t.Errorf("slot %d's colour %v is ink %d's", i, c, k)
			}
		}
		for _, k := range []ink{inkSaucer, inkHostile, inkRefused} {
			if gap := colourGap(c, col(k)); gap < 80 {
				t.Errorf("slot %d's colour %v is %.0f from ink %d's %v", i, c, gap, k, col(k))
			}
			if i < 8 && tcell.FindColor(c, p16) == tcell.FindColor(col(k), p16) && k != inkRefused {
				t.Errorf("slot %d shows in 16 colours as ink %d does", i, k)
			}
		}
	}
}
