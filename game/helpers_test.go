package game

import (
	"testing"

	"poolroids/levels"
	"poolroids/pool"
)

// testLevel is a calm level with round numbers, so rules can be checked by
// hand. Tests change what they need.
func testLevel() levels.Level {
	return levels.Level{
		Name:           "test",
		Asteroids:      4,
		Size:           3,
		SpeedMin:       30,
		SpeedMax:       60,
		FireCooldown:   10,
		BulletSpeed:    600,
		BulletLife:     60,
		BulletsPerShot: 1,
		DebrisPerBreak: 8,
		DebrisLifeMin:  20,
		DebrisLifeMax:  40,
	}
}

// testSet is a set of copies of l.
func testSet(l levels.Level, n int) *levels.Set {
	s := &levels.Set{Name: "test", Bullets: 64, Debris: 512, Strategy: pool.FreeList}
	for range n {
		s.Levels = append(s.Levels, l)
	}
	return s
}

// busySet keeps both pools full: a dense wave, a wide fast volley every
// step, big debris bursts.
func busySet() *levels.Set {
	l := testLevel()
	l.Asteroids, l.SpeedMin, l.SpeedMax = 24, 40, 90
	l.FireCooldown, l.BulletsPerShot, l.Spread, l.BulletLife = 2, 5, 6, 50
	l.DebrisPerBreak, l.DebrisLifeMin, l.DebrisLifeMax = 40, 30, 90
	l.Saucer = true
	s := testSet(l, 3)
	s.Bullets, s.Debris = 96, 600
	return s
}

func newWorld(t testing.TB, cfg Config) *World {
	t.Helper()
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// bare returns a world of the test level with an empty field and a ship at
// rest in the centre that can be hit.
func bare(t testing.TB, l levels.Level) *World {
	t.Helper()
	w := newWorld(t, Config{Levels: testSet(l, 3), Seed: 7})
	w.asteroids = w.asteroids[:0]
	w.ship.Invulnerable = 0
	return w
}

// rock places an asteroid of the given size; its outline comes from the
// world's generator as in play.
func (w *World) rock(pos, vel Vec, size int) *Asteroid {
	a := w.newAsteroid(pos, size)
	a.Pos, a.Vel, a.Spin = pos, vel, 0
	w.addAsteroid(a)
	return &w.asteroids[len(w.asteroids)-1]
}

// bullet places a bullet as if fired.
func (w *World) bullet(pos, vel Vec, life int, hostile bool) {
	w.shoot(pos, vel, life, hostile)
}

// sizes lists the sizes of the asteroids in order.
func sizes(w *World) []int {
	var s []int
	for _, a := range w.asteroids {
		s = append(s, a.Size)
	}
	return s
}

// pooled lists the strategies that must not allocate.
func pooled() []pool.Strategy {
	var s []pool.Strategy
	for _, x := range pool.Strategies() {
		if x != pool.Alloc && x != pool.SyncPool {
			s = append(s, x)
		}
	}
	return s
}
