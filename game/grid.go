package game

// grid buckets the asteroids by position, so a bullet is tested only
// against the rocks in its own and the eight neighbouring cells instead of
// every rock: the bullet pass goes from O(bullets × rocks) to about
// O(bullets). A cell is wider than the largest rock's radius, so a rock
// touching a point always has its centre in one of those nine cells.
type grid struct {
	head [gridCols * gridRows]int32 // first rock of each cell, -1: none
	next []int32                    // per rock: the next rock of its cell, -1: none
}

const (
	cellSize = 128.0
	gridCols = int(Width / cellSize)
	gridRows = int(Height / cellSize)
)

func cellOf(p Vec) (cx, cy int) {
	return min(int(p.X/cellSize), gridCols-1), min(int(p.Y/cellSize), gridRows-1)
}

// build files every rock under its cell. Each cell lists its rocks in
// slice order, so the first hit found in a cell is its lowest index.
func (g *grid) build(rocks []Asteroid) {
	for i := range g.head {
		g.head[i] = -1
	}
	g.next = g.next[:len(rocks)]
	for i := len(rocks) - 1; i >= 0; i-- {
		cx, cy := cellOf(rocks[i].Pos)
		c := cy*gridCols + cx
		g.next[i], g.head[c] = g.head[c], int32(i)
	}
}

// first returns the index of the first rock in slice order that p is
// inside, or len(rocks).
func (g *grid) first(rocks []Asteroid, p Vec) int32 {
	best := int32(len(rocks))
	cx, cy := cellOf(p)
	for dy := -1; dy <= 1; dy++ {
		y := (cy + dy + gridRows) % gridRows
		for dx := -1; dx <= 1; dx++ {
			x := (cx + dx + gridCols) % gridCols
			for j := g.head[y*gridCols+x]; j >= 0 && j < best; j = g.next[j] {
				if within(p, rocks[j].Pos, rocks[j].Radius) {
					best = j
					break
				}
			}
		}
	}
	return best
}
