package game

import (
	"math"
	"slices"
	"testing"

	"poolroids/levels"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestSplitAndScore(t *testing.T) {
	tests := []struct {
		size      int
		wantSizes []int
		wantScore int
	}{
		{size: 3, wantSizes: []int{2, 2}, wantScore: 20},
		{size: 2, wantSizes: []int{1, 1}, wantScore: 50},
		{size: 1, wantSizes: nil, wantScore: 100},
	}
	for _, tt := range tests {
		w := bare(t, testLevel())
		parent := w.rock(Vec{300, 300}, Vec{}, tt.size).Serial
		w.bullet(Vec{299, 300}, Vec{60, 0}, 10, false)
		w.Step(Input{})
		if got := sizes(w); !slices.Equal(got, tt.wantSizes) {
			t.Errorf("size %d: sizes after the hit = %v, want %v", tt.size, got, tt.wantSizes)
		}
		if w.Score() != tt.wantScore {
			t.Errorf("size %d: score = %d, want %d", tt.size, w.Score(), tt.wantScore)
		}
		if w.Bullets().Len() != 0 {
			t.Errorf("size %d: the bullet was not used up", tt.size)
		}
		if got, want := w.Debris().Len(), testLevel().DebrisPerBreak; got != want {
			t.Errorf("size %d: %d debris particles, want %d", tt.size, got, want)
		}
		for _, a := range w.Asteroids() {
			if a.Serial <= parent || a.Radius != AsteroidRadius(a.Size) || a.N < minVertices || a.N > MaxVertices {
				t.Errorf("size %d: bad fragment %+v", tt.size, a)
			}
			if d := delta(Vec{300, 300}, a.Pos).len(); d > 2*AsteroidRadius(tt.size) {
				t.Errorf("size %d: fragment %v away from its parent", tt.size, d)
			}
		}
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		name string
		in   Vec
		want Vec
	}{
		{"inside", Vec{10, 20}, Vec{10, 20}},
		{"past right", Vec{Width + 3, 5}, Vec{3, 5}},
		{"past left", Vec{-3, 5}, Vec{Width - 3, 5}},
		{"past bottom", Vec{5, Height + 1}, Vec{5, 1}},
		{"past top", Vec{5, -1}, Vec{5, Height - 1}},
		{"exact edge", Vec{Width, Height}, Vec{0, 0}},
		{"far away", Vec{3*Width + 2, -2*Height - 4}, Vec{2, Height - 4}},
	}
	for _, tt := range tests {
		if got := wrap(tt.in); !near(got.X, tt.want.X) || !near(got.Y, tt.want.Y) {
			t.Errorf("%s: wrap(%v) = %v, want %v", tt.name, tt.in, got, tt.want)
		}
	}

	// Bodies crossing an edge come back on the other side.
	w := bare(t, testLevel())
	w.rock(Vec{Width - 1, Height - 1}, Vec{120, 120}, 1)
	w.bullet(Vec{0.5, 300}, Vec{-60, 0}, 10, false)
	w.ship.Pos, w.ship.Vel = Vec{400, 2}, Vec{0, -300}
	w.Step(Input{})
	if got := w.Asteroids()[0].Pos; !near(got.X, 1) || !near(got.Y, 1) {
		t.Errorf("rock at %v, want (1, 1)", got)
	}
	for _, b := range w.Bullets().All() {
		if !near(b.Pos.X, Width-0.5) || !near(b.Pos.Y, 300) {
			t.Errorf("bullet at %v, want (%v, 300)", b.Pos, Width-0.5)
		}
	}
	if s := w.Ship().Pos; !near(s.X, 400) || !near(s.Y, 2-300*(1-drag/TPS)/TPS+Height) {
		t.Errorf("ship at %v, want just past the top edge", s)
	}

	// Collisions see across the edge too.
	w = bare(t, testLevel())
	w.rock(Vec{5, 300}, Vec{}, 1)
	w.bullet(Vec{Width - 6, 300}, Vec{60, 0}, 10, false)
	w.Step(Input{})
	if len(w.Asteroids()) != 0 {
		t.Error("a bullet across the edge missed a rock it touches")
	}
}

func TestBulletLifetime(t *testing.T) {
	for _, life := range []int{1, 5, 60} {
		l := testLevel()
		l.BulletLife, l.FireCooldown = life, 1000
		w := bare(t, l)
		w.Step(Input{Fire: true})
		n := 0
		for w.Bullets().Len() > 0 && n < 1000 {
			n++
			w.Step(Input{})
		}
		if n != life {
			t.Errorf("BulletLife %d: bullet seen after %d steps, want %d", life, n, life)
		}
	}
}

func TestCollisions(t *testing.T) {
	ship := Vec{Width / 2, Height / 2}
	tests := []struct {
		name      string
		setup     func(w *World)
		last      bool  // the ship is the player's last
		alive     bool  // ship alive after one step
		sizes     []int // asteroids after
		score     int
		bullets   int // bullets left
		saucer    bool
		leftOwner uint64 // serial of the bullet left, when one is
	}{
		{
			name:  "bullet breaks rock",
			setup: func(w *World) { w.rock(Vec{300, 300}, Vec{}, 1); w.bullet(Vec{295, 300}, Vec{60, 0}, 9, false) },
			alive: true, score: 100,
		},
		{
			name:  "hostile bullet kills ship",
			setup: func(w *World) { w.bullet(ship.sub(Vec{5, 0}), Vec{60, 0}, 9, true) },
			alive: false,
		},
		{
			name: "hostile bullet passes invulnerable ship",
			setup: func(w *World) {
				w.ship.Invulnerable = 10
				w.bullet(ship.sub(Vec{5, 0}), Vec{60, 0}, 9, true)
			},
			alive: true, bullets: 1,
		},
		{
			name:  "own bullet passes ship",
			setup: func(w *World) { w.bullet(ship.sub(Vec{5, 0}), Vec{60, 0}, 9, false) },
			alive: true, bullets: 1,
		},
		{
			name:  "hostile bullet breaks rock unscored",
			setup: func(w *World) { w.rock(Vec{300, 300}, Vec{}, 2); w.bullet(Vec{300, 300}, Vec{}, 9, true) },
			alive: true, sizes: []int{1, 1},
		},
		{
			name:  "ship hits rock and scores it",
			setup: func(w *World) { w.rock(ship.add(Vec{30, 0}), Vec{}, 2) },
			alive: false, sizes: []int{1, 1}, score: 50,
		},
		{
			name:  "last ship hits rock and scores it",
			setup: func(w *World) { w.rock(ship.add(Vec{30, 0}), Vec{}, 2) },
			last:  true, alive: false, sizes: []int{1, 1}, score: 50,
		},
		{
			name: "invulnerable ship passes rock",
			setup: func(w *World) {
				w.ship.Invulnerable = 10
				w.rock(ship.add(Vec{30, 0}), Vec{}, 2)
			},
			alive: true, sizes: []int{2},
		},
		{
			name: "lowest serial bullet wins",
			setup: func(w *World) {
				w.rock(Vec{300, 300}, Vec{}, 1)
				w.bullet(Vec{298, 300}, Vec{}, 9, false)
				w.bullet(Vec{302, 300}, Vec{}, 9, false)
			},
			alive: true, score: 100, bullets: 1, leftOwner: 1,
		},
		{
			name: "a bullet breaks one rock only",
			setup: func(w *World) {
				w.rock(Vec{300, 300}, Vec{}, 1)
				w.rock(Vec{310, 300}, Vec{}, 1)
				w.bullet(Vec{305, 300}, Vec{}, 9, false)
			},
			alive: true, sizes: []int{1}, score: 100,
		},
		{
			name: "bullet downs large saucer",
			setup: func(w *World) {
				w.saucer = saucer{Saucer: Saucer{Pos: Vec{200, 200}, Radius: 20}, alive: true, fire: 99, turn: 99}
				w.bullet(Vec{205, 200}, Vec{}, 9, false)
			},
			alive: true, score: SaucerPoints,
		},
		{
			name: "bullet downs small saucer",
			setup: func(w *World) {
				w.saucer = saucer{Saucer: Saucer{Pos: Vec{200, 200}, Radius: 12, Small: true}, alive: true, fire: 99, turn: 99}
				w.bullet(Vec{205, 200}, Vec{}, 9, false)
			},
			alive: true, score: SmallSaucerPoints,
		},
		{
			name: "saucer and rock destroy each other unscored",
			setup: func(w *World) {
				w.saucer = saucer{Saucer: Saucer{Pos: Vec{200, 200}, Radius: 20}, alive: true, fire: 99, turn: 99}
				w.rock(Vec{220, 200}, Vec{}, 1)
			},
			alive: true,
		},
		{
			name: "saucer rams ship",
			setup: func(w *World) {
				w.saucer = saucer{Saucer: Saucer{Pos: ship.add(Vec{20, 0}), Radius: 20}, alive: true, fire: 99, turn: 99}
			},
			alive: false, score: SaucerPoints,
		},
		{
			name: "last ship rams small saucer and scores it",
			setup: func(w *World) {
				w.saucer = saucer{Saucer: Saucer{Pos: ship.add(Vec{15, 0}), Radius: 12, Small: true}, alive: true, fire: 99, turn: 99}
			},
			last: true, alive: false, score: SmallSaucerPoints,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := bare(t, testLevel())
			lives := StartLives
			if tt.last {
				w.pilots[0].lives, lives = 1, 1
			}
			tt.setup(w)
			w.Step(Input{})
			if w.Ship().Alive != tt.alive {
				t.Errorf("ship alive = %v, want %v", w.Ship().Alive, tt.alive)
			}
			if got := sizes(w); !slices.Equal(got, tt.sizes) {
				t.Errorf("sizes = %v, want %v", got, tt.sizes)
			}
			if w.Score() != tt.score {
				t.Errorf("score = %d, want %d", w.Score(), tt.score)
			}
			if w.Bullets().Len() != tt.bullets {
				t.Errorf("%d bullets left, want %d", w.Bullets().Len(), tt.bullets)
			}
			if _, ok := w.Saucer(); ok != tt.saucer {
				t.Errorf("saucer present = %v, want %v", ok, tt.saucer)
			}
			for _, b := range w.Bullets().All() {
				if tt.leftOwner != 0 && b.Serial != tt.leftOwner {
					t.Errorf("bullet %d left, want %d", b.Serial, tt.leftOwner)
				}
			}
			if !tt.alive {
				if got, want := w.Lives(), lives-1; got != want {
					t.Errorf("lives = %d, want %d", got, want)
				}
				if n := w.Debris().Len(); n < 3*testLevel().DebrisPerBreak {
					t.Errorf("%d debris after the ship's death, want at least 3x a rock's", n)
				}
			}
		})
	}
}

func TestLives(t *testing.T) {
	w := bare(t, testLevel())
	fresh := newWorld(t, Config{Levels: w.set, Seed: w.seed}).Checksum()
	want := []struct {
		lives int
		phase Phase
	}{{2, Respawning}, {1, Respawning}, {0, GameOver}}
	for i, x := range want {
		for w.Phase() != Playing && i > 0 {
			w.Step(Input{})
		}
		w.ship.Invulnerable = 0
		w.bullet(w.ship.Pos, Vec{}, 5, true)
		w.Step(Input{})
		if w.Lives() != x.lives || w.Phase() != x.phase || w.Ship().Alive {
			t.Fatalf("death %d: lives %d phase %v alive %v, want %d %v false",
				i+1, w.Lives(), w.Phase(), w.Ship().Alive, x.lives, x.phase)
		}
	}
	for range 5 * respawnDelay {
		w.Step(Input{Fire: true, Thrust: true})
	}
	if w.Phase() != GameOver || w.Ship().Alive {
		t.Fatalf("game over did not last: phase %v", w.Phase())
	}
	w.Restart()
	if w.Lives() != StartLives || w.Phase() != Playing || w.Score() != 0 || w.Wave() != 1 || w.Steps() != 0 {
		t.Fatalf("after Restart: lives %d phase %v score %d wave %d steps %d", w.Lives(), w.Phase(), w.Score(), w.Wave(), w.Steps())
	}
	if w.Checksum() != fresh {
		t.Error("Restart does not give the world New gives")
	}
}

func TestExtraLife(t *testing.T) {
	tests := []struct {
		score, add, wantLives int
	}{
		{0, 20, StartLives},
		{9980, 20, StartLives + 1},
		{9979, 20, StartLives},
		{19950, 100, StartLives + 1},
		{9500, 1000, StartLives + 1},
	}
	for _, tt := range tests {
		w := bare(t, testLevel())
		w.addScore(tt.score)
		w.lives = StartLives
		w.addScore(tt.add)
		if w.Lives() != tt.wantLives {
			t.Errorf("%d + %d: lives %d, want %d", tt.score, tt.add, w.Lives(), tt.wantLives)
		}
	}
	// And through play: the rock that crosses 10,000 gives a ship.
	w := bare(t, testLevel())
	w.score, w.nextLife = 9990, ExtraLifeEvery
	w.rock(Vec{300, 300}, Vec{}, 3)
	w.bullet(Vec{300, 300}, Vec{}, 5, false)
	w.Step(Input{})
	if w.Score() != 10010 || w.Lives() != StartLives+1 {
		t.Errorf("score %d lives %d, want 10010 and %d", w.Score(), w.Lives(), StartLives+1)
	}
}

func TestWaveAdvance(t *testing.T) {
	l1, l2 := testLevel(), testLevel()
	l1.Name, l2.Name = "one", "two"
	l2.Asteroids, l2.Size = 6, 2
	set := &levels.Set{Name: "waves", Bullets: 16, Debris: 64, Levels: []levels.Level{l1, l2}}
	w := newWorld(t, Config{Levels: set, Seed: 3})
	if w.Wave() != 1 || w.Level().Name != "one" || len(w.Asteroids()) != l1.Asteroids {
		t.Fatalf("start: wave %d level %q %d rocks", w.Wave(), w.Level().Name, len(w.Asteroids()))
	}
	w.asteroids = w.asteroids[:0]
	w.saucer = saucer{Saucer: Saucer{Pos: Vec{100, 100}, Vel: Vec{1, 0}, Radius: 20}, alive: true, fire: 1e6, turn: 1e6}
	for range 2 * waveDelay {
		w.Step(Input{})
	}
	if w.Wave() != 1 {
		t.Fatal("the wave ended with a saucer in the field")
	}
	w.saucer.alive = false
	for range waveDelay - 1 {
		w.Step(Input{})
	}
	if w.Wave() != 1 {
		t.Fatal("the next wave came before its delay")
	}
	w.Step(Input{})
	if w.Wave() != 2 || w.Level().Name != "two" || !slices.Equal(sizes(w), []int{2, 2, 2, 2, 2, 2}) {
		t.Fatalf("wave %d level %q sizes %v, want wave 2 of six medium rocks", w.Wave(), w.Level().Name, sizes(w))
	}
	for _, a := range w.Asteroids() {
		if d := delta(w.Ship().Pos, a.Pos).len(); d < spawnClearance {
			t.Errorf("a new rock starts %v from the ship", d)
		}
	}
}

// TestRespawn: a lost ship comes back after respawnDelay when the centre
// is clear; otherwise the player is told (Blocked, with a countdown) and
// the ship comes back as soon as the centre clears, or after respawnLimit
// at the clearest spot, invulnerable. The field is never left without a
// ship for longer.
func TestRespawn(t *testing.T) {
	tests := []struct {
		name  string
		rock  *Asteroid // nil: a clear field
		clear bool      // the rock is taken away once the ship is blocked
		after int       // steps after the loss it comes back
	}{
		{name: "clear centre", after: respawnDelay},
		{name: "rock sitting in the centre", rock: &Asteroid{Pos: centre, Size: 1}, after: respawnLimit},
		{name: "rock about to reach the centre", rock: &Asteroid{Pos: centre.add(Vec{230, 0}), Vel: Vec{-30, 0}, Size: 3}, after: respawnLimit},
		{name: "centre cleared while blocked", rock: &Asteroid{Pos: centre, Size: 1}, clear: true, after: respawnDelay + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := bare(t, testLevel())
			w.rock(Vec{40, 40}, Vec{}, 1) // keeps the wave going
			w.killShip()
			if tt.rock != nil {
				w.rock(tt.rock.Pos, tt.rock.Vel, tt.rock.Size)
			}
			n := 0
			for w.Phase() == Respawning && n <= respawnLimit {
				if p := w.Player(0); p.Respawn != respawnLimit-n || p.Due != max(respawnDelay-n, 0) || p.Blocked != (n >= respawnDelay) {
					t.Fatalf("%d steps after the loss: Respawn %d Due %d Blocked %v, want %d %d %v",
						n, p.Respawn, p.Due, p.Blocked, respawnLimit-n, max(respawnDelay-n, 0), n >= respawnDelay)
				}
				if tt.clear && w.Player(0).Blocked {
					w.asteroids = w.asteroids[:1]
				}
				w.Step(Input{})
				n++
			}
			if n != tt.after {
				t.Fatalf("came back after %d steps, want %d", n, tt.after)
			}
			s, p := w.Ship(), w.Player(0)
			if !s.Alive || s.Vel != (Vec{}) || s.Invulnerable != InvulnerableSteps || p.Blocked || p.Respawn != 0 {
				t.Errorf("respawned ship %+v, player %+v", s, p)
			}
			if tt.after == respawnLimit {
				if s.Pos == centre || !w.placeClear(0, s.Pos) {
					t.Errorf("came back at %v, want a clear spot away from the rock", s.Pos)
				}
			} else if s.Pos != centre {
				t.Errorf("came back at %v, want the centre", s.Pos)
			}
		})
	}
}

func TestHyperspace(t *testing.T) {
	tests := []struct {
		rocks    int
		min, max int // deaths out of 400 seeds
	}{
		{rocks: 0, min: 10, max: 45},   // 1/16: 25 expected
		{rocks: 20, min: 50, max: 100}, // 3/16: 75 expected
	}
	for _, tt := range tests {
		deaths := 0
		for seed := range uint64(400) {
			w := newWorld(t, Config{Levels: testSet(testLevel(), 1), Seed: seed})
			w.asteroids = w.asteroids[:0]
			for range tt.rocks {
				w.rock(Vec{5, 5}, Vec{}, 1)
			}
			w.Step(Input{Hyperspace: true})
			s := w.Ship()
			if !s.Alive {
				deaths++
				continue
			}
			if s.Vel != (Vec{}) || s.Pos.X < hyperMargin || s.Pos.X > Width-hyperMargin || s.Pos.Y < hyperMargin || s.Pos.Y > Height-hyperMargin || s.Pos == centre {
				t.Fatalf("seed %d: ship after a jump %+v", seed, s)
			}
			w.Step(Input{Hyperspace: true})
			if w.Ship().Pos != s.Pos {
				t.Fatalf("seed %d: jumped again during the cooldown", seed)
			}
		}
		if deaths < tt.min || deaths > tt.max {
			t.Errorf("%d rocks: %d of 400 jumps killed the ship, want %d..%d (risk %.3f)",
				tt.rocks, deaths, tt.min, tt.max, HyperspaceRisk(tt.rocks))
		}
	}
}

func TestShipMotion(t *testing.T) {
	tests := []struct {
		name      string
		vel       Vec
		in        Input
		steps     int
		wantAngle float64
		wantSpeed float64
	}{
		{"turn right", Vec{}, Input{Right: true}, 1, -math.Pi/2 + turnRate/TPS, 0},
		{"turn left", Vec{}, Input{Left: true}, 1, -math.Pi/2 - turnRate/TPS, 0},
		{"thrust", Vec{}, Input{Thrust: true}, 1, -math.Pi / 2, thrustAccel / TPS * (1 - drag/TPS)},
		{"speed cap", Vec{}, Input{Thrust: true}, 10 * TPS, -math.Pi / 2, maxSpeed},
		{"drag", Vec{300, 0}, Input{}, TPS, -math.Pi / 2, 300 * math.Pow(1-drag/TPS, TPS)},
	}
	for _, tt := range tests {
		w := bare(t, testLevel())
		w.ship.Invulnerable = 1 << 20 // the empty field refills meanwhile
		w.ship.Vel = tt.vel
		for range tt.steps {
			w.Step(tt.in)
		}
		s := w.Ship()
		if !near(s.Angle, tt.wantAngle) || math.Abs(s.Vel.len()-tt.wantSpeed) > 1e-6 || s.Thrusting != tt.in.Thrust {
			t.Errorf("%s: angle %v speed %v thrusting %v, want %v %v %v",
				tt.name, s.Angle, s.Vel.len(), s.Thrusting, tt.wantAngle, tt.wantSpeed, tt.in.Thrust)
		}
	}
}

func TestVolley(t *testing.T) {
	l := testLevel()
	l.BulletsPerShot, l.Spread, l.FireCooldown = 3, 10, 10
	w := bare(t, l)
	w.Step(Input{Fire: true})
	angles := make([]float64, 3)
	for _, b := range w.Bullets().All() {
		angles[b.Serial] = math.Atan2(b.Vel.Y, b.Vel.X)
	}
	for i, a := range angles {
		want := -math.Pi/2 + float64(i-1)*10*math.Pi/180
		if !near(a, want) {
			t.Errorf("bullet %d flies at %v, want %v", i, a, want)
		}
	}
	for range 34 {
		w.Step(Input{Fire: true})
	}
	if w.bulletSerial != 4*3 {
		t.Errorf("%d bullets fired in 35 steps at a cooldown of 10, want 12", w.bulletSerial)
	}
}

func TestOutlines(t *testing.T) {
	a := newWorld(t, Config{Seed: 1, Levels: testSet(testLevel(), 1)})
	b := newWorld(t, Config{Seed: 1, Levels: testSet(testLevel(), 1)})
	c := newWorld(t, Config{Seed: 2, Levels: testSet(testLevel(), 1)})
	if a.Asteroids()[0].Outline != b.Asteroids()[0].Outline {
		t.Error("the same seed gave different outlines")
	}
	if a.Asteroids()[0].Outline == c.Asteroids()[0].Outline {
		t.Error("different seeds gave the same outline")
	}
	seen := map[[MaxVertices]Vec]bool{}
	for _, r := range a.Asteroids() {
		if seen[r.Outline] {
			t.Error("two rocks share an outline")
		}
		seen[r.Outline] = true
		pts := r.Points(nil)
		if len(pts) != r.N {
			t.Fatalf("Points gave %d corners, want %d", len(pts), r.N)
		}
		for _, p := range pts {
			if d := p.sub(r.Pos).len(); d < 0.72*r.Radius-1e-9 || d > 1.12*r.Radius+1e-9 {
				t.Errorf("corner %v from the centre of a rock of radius %v", d, r.Radius)
			}
		}
	}
}

func TestSaucer(t *testing.T) {
	l := testLevel()
	l.Saucer = true
	w := bare(t, l)
	w.rock(Vec{40, 40}, Vec{}, 1)
	w.ship.Invulnerable = 1 << 20
	n := 0
	for _, ok := w.Saucer(); !ok && n < 16*TPS; _, ok = w.Saucer() {
		w.Step(Input{})
		n++
	}
	s, ok := w.Saucer()
	if first := int(w.saucers.First * TPS); !ok || n < first || n > first+saucerWaitJitter {
		t.Fatalf("saucer came after %d steps (present %v), want %d..%d", n, ok, first, first+saucerWaitJitter)
	}
	if len(s.Points(nil)) != 8 {
		t.Error("saucer outline is not 8 corners")
	}
	shot := false
	for ; ok; _, ok = w.Saucer() {
		w.Step(Input{})
		for _, b := range w.Bullets().All() {
			shot = shot || b.Hostile
		}
	}
	if !shot {
		t.Error("the saucer crossed without shooting")
	}
	if p := w.saucer.Pos.X; p > 0 && p < Width {
		t.Errorf("the saucer left at x=%v, not at an edge", p)
	}

	w = bare(t, testLevel())
	w.rock(Vec{40, 40}, Vec{}, 1)
	w.ship.Invulnerable = 1 << 20
	for range 20 * TPS {
		w.Step(Input{})
		if _, ok := w.Saucer(); ok {
			t.Fatal("a saucer came in a level without one")
		}
	}
}

func TestPause(t *testing.T) {
	w := newWorld(t, Config{Seed: 5, Levels: busySet()})
	var ap Autopilot
	for range 30 {
		w.Step(ap.Input(w))
	}
	sum, steps := w.Checksum(), w.Steps()
	w.SetPaused(true)
	for range 10 {
		w.Step(Input{Fire: true, Thrust: true, Hyperspace: true})
	}
	if !w.Paused() || w.Steps() != steps {
		t.Fatal("steps counted while paused")
	}
	w.SetPaused(false)
	if w.Checksum() != sum {
		t.Error("the world changed while paused")
	}
}

func TestAutopilot(t *testing.T) {
	tests := []struct {
		name     string
		pressure bool
	}{{"normal", false}, {"pressure", true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, Config{Seed: 11, Levels: testSet(testLevel(), 3)})
			ap := Autopilot{Pressure: tt.pressure}
			fired, jumps, alive := 0, 0, 0
			for range 60 * TPS {
				in := ap.Input(w)
				if in.Hyperspace && w.hyperWait == 0 && w.ship.Alive {
					jumps++
				}
				if w.ship.Alive {
					alive++
					if in.Fire {
						fired++
					}
				}
				w.Step(in)
			}
			if w.Score() < 1000 {
				t.Errorf("scored %d in a minute, want at least 1000", w.Score())
			}
			if jumps > 60*TPS/jumpEvery {
				t.Errorf("%d hyperspace jumps in a minute", jumps)
			}
			if tt.pressure && fired != alive {
				t.Errorf("pressure fired on %d of %d steps", fired, alive)
			}
			t.Logf("score %d wave %d lives %d jumps %d fired %d/%d", w.Score(), w.Wave(), w.Lives(), jumps, fired, alive)
		})
	}
}

// TestSaucerSooner: the longer a wave lasts, the sooner the next saucer
// comes, so waiting in a corner is not safe; and the longer no one
// scores, or the higher the best score, the likelier it is the small one.
func TestSaucerSooner(t *testing.T) {
	l := testLevel()
	l.Saucer = true
	w := bare(t, l)
	w.rock(Vec{40, 40}, Vec{}, 1)
	// Waits and saucers drawn waveSteps into a wave, quiet steps after
	// the last point, at score.
	sample := func(waveSteps, quiet, score int) (lo, hi, small int) {
		lo = math.MaxInt
		w.steps, w.scored, w.score = 1000*TPS, uint64(1000*TPS-quiet), score
		for range 200 {
			w.waveSteps = waveSteps
			d := w.saucerDelay()
			lo, hi = min(lo, d), max(hi, d)
			w.saucer = saucer{wait: 1}
			w.saucerArrival()
			if w.saucer.Small {
				small++
			}
		}
		return lo, hi, small
	}
	first, every := int(w.saucers.First*TPS), int(w.saucers.Every*TPS)
	lo0, hi0, small0 := sample(0, 0, 0)
	lo1, hi1, _ := sample(60*TPS, 0, 0)
	if lo0 != first || hi0 != first+saucerWaitJitter {
		t.Errorf("at a wave's start a saucer waits %d..%d steps, want %d..%d", lo0, hi0, first, first+saucerWaitJitter)
	}
	if lo1 != every || hi1 != every+saucerWaitJitter {
		t.Errorf("a minute into a wave a saucer waits %d..%d steps, want %d..%d", lo1, hi1, every, every+saucerWaitJitter)
	}
	_, _, halfQuiet := sample(0, saucerLurk/2, 0)
	_, _, quiet := sample(0, saucerLurk, 0)
	_, _, halfScore := sample(0, 0, w.saucers.SmallScore/2)
	_, _, score := sample(0, 0, w.saucers.SmallScore)
	if small0 != 0 || halfQuiet < 70 || halfQuiet > 130 || quiet != 200 {
		t.Errorf("small saucers of 200 at no score: %d just after a point, %d after %v without one, %d after %v; want none, half, all",
			small0, halfQuiet, gameTime(saucerLurk/2), quiet, gameTime(saucerLurk))
	}
	if halfScore < 70 || halfScore > 130 || score != 200 {
		t.Errorf("small saucers of 200 just after a point: %d at %d points, %d at %d; want half, all",
			halfScore, w.saucers.SmallScore/2, score, w.saucers.SmallScore)
	}
}

// TestSaucerAim: the small saucer aims at the ship, better as the score
// grows and the longer no one scores; the large one shoots anywhere.
func TestSaucerAim(t *testing.T) {
	spread := func(score, quiet int, small bool) float64 {
		w := bare(t, testLevel())
		w.ship.Pos = Vec{600, 384}
		w.score, w.steps, w.scored = score, uint64(quiet), 0
		w.saucer = saucer{Saucer: Saucer{Pos: Vec{100, 384}, Small: small, Radius: 12}, alive: true}
		worst := 0.0
		for range 1000 {
			worst = max(worst, math.Abs(w.saucerAim()))
		}
		return worst
	}
	if e := spread(0, 0, false); e < 3 {
		t.Errorf("the large saucer shoots within %v rad of the ship, want anywhere", e)
	}
	most := levels.DefaultSaucers.Aim * math.Pi / 180
	e0, e1, e2 := spread(0, 0, true), spread(10000, 0, true), spread(100000, 0, true)
	if e0 > most || !(e1 < e0) || !(e2 < e1) || e2 > most*aimFloor {
		t.Errorf("the small saucer misses by up to %v, %v, %v rad at 0, 10,000, 100,000 points; want less and less, %v at most",
			e0, e1, e2, most)
	}
	if e := spread(0, saucerLurk, true); e > most/3+1e-9 || e < most/3*0.9 {
		t.Errorf("the small saucer misses by up to %v rad after %v without a point, want a third of %v", e, gameTime(saucerLurk), most)
	}
}

// TestSaucerFair: a saucer's shot is one a player can see coming: none
// from closer than HoldFire to a ship, none before the saucer is whole
// inside the field, at most saucerShots in flight, and none that comes
// round an edge.
func TestSaucerFair(t *testing.T) {
	l := testLevel()
	l.Saucer = true
	hold := levels.DefaultSaucers.HoldFire
	// fired places a still small saucer at x, y with its gun ready and a
	// ship dist to its right, and reports whether it shoots in the next
	// step.
	fired := func(x, y, dist float64) bool {
		w := bare(t, l)
		w.ship.Invulnerable = 1 << 20
		w.ship.Pos = Vec{x + dist, y}
		w.saucer = saucer{Saucer: Saucer{Pos: Vec{x, y}, Small: true, Radius: 12}, alive: true, fire: 1, turn: 1 << 20}
		w.Step(Input{})
		return w.hostile > 0
	}
	if fired(300, 384, hold-20) {
		t.Errorf("the saucer shot at a ship %v away, within its HoldFire %v", hold-20, hold)
	}
	if !fired(300, 384, hold+20) {
		t.Errorf("the saucer held its fire at a ship %v away, past its HoldFire %v", hold+20, hold)
	}
	if fired(10, 384, hold+20) {
		t.Error("the saucer shot from the field's edge, half off it")
	}

	w := bare(t, l)
	w.ship.Invulnerable = 1 << 20
	w.saucers.Reload = 1
	w.saucer = saucer{Saucer: Saucer{Pos: Vec{100, 384}, Radius: 20}, alive: true, fire: 1, turn: 1 << 20}
	most := 0
	for range 2 * TPS {
		w.Step(Input{})
		most = max(most, w.hostile)
		n := 0
		for _, b := range w.Bullets().All() {
			if b.Hostile {
				n++
				if !inField(b.Pos) {
					t.Fatalf("a saucer's shot at %v, off the field", b.Pos)
				}
			}
		}
		if n != w.hostile {
			t.Fatalf("%d saucer shots in the pool, %d counted", n, w.hostile)
		}
	}
	if most != saucerShots {
		t.Errorf("a saucer reloading every step had at most %d shots in flight, want %d", most, saucerShots)
	}

	// A saucer's shot ends at the edge; a ship's wraps round it.
	w = bare(t, l)
	w.bullet(Vec{Width - 2, 300}, Vec{600, 0}, 30, true)
	w.bullet(Vec{Width - 2, 500}, Vec{600, 0}, 30, false)
	w.Step(Input{})
	if w.hostile != 0 || w.Bullets().Len() != 1 {
		t.Errorf("after a step past the edge: %d saucer shots, %d bullets; want the ship's one only", w.hostile, w.Bullets().Len())
	}
}
