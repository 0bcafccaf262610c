package game

import (
	"testing"
)

// TestGridFirst checks the grid against a plain scan over every rock: the
// same first rock in slice order for points all over the field, edges and
// corners included.
func TestGridFirst(t *testing.T) {
	if radii[3] >= cellSize {
		t.Fatalf("a large rock (radius %v) outgrows a grid cell (%v)", radii[3], cellSize)
	}
	var r rng
	rocks := make([]Asteroid, 300)
	for i := range rocks {
		size := 1 + r.intn(3)
		rocks[i] = Asteroid{Pos: Vec{r.between(0, Width), r.between(0, Height)}, Size: size, Radius: radii[size]}
	}
	var g grid
	g.next = make([]int32, 0, len(rocks))
	g.build(rocks)
	for k := range 20000 {
		p := Vec{r.between(0, Width), r.between(0, Height)}
		if k%10 == 0 {
			p.X = float64(k%3) * (Width - 1e-9) / 2
		}
		want := int32(len(rocks))
		for i := range rocks {
			if within(p, rocks[i].Pos, rocks[i].Radius) {
				want = int32(i)
				break
			}
		}
		if got := g.first(rocks, p); got != want {
			t.Fatalf("point %v: grid found rock %d, a scan %d", p, got, want)
		}
	}
}
