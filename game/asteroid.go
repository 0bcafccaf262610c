package game

import "math"

// MaxVertices is the most corners an asteroid outline has.
const MaxVertices = 12

const minVertices = 8

// Asteroid is a rock. Size is 3 (large), 2 (medium) or 1 (small). Outline
// holds N corners relative to Pos, unrotated; the rock is drawn rotated by
// Angle, which changes by Spin radians per second. Serial orders rocks by
// spawn.
type Asteroid struct {
	Pos, Vel    Vec
	Size        int
	Radius      float64
	Angle, Spin float64
	Serial      uint64
	Outline     [MaxVertices]Vec
	N           int
}

// Points appends the world-space outline (N corners, rotated, not wrapped)
// to dst and returns it. It allocates only if dst is too small.
func (a *Asteroid) Points(dst []Vec) []Vec {
	s, c := math.Sincos(a.Angle)
	for _, p := range a.Outline[:a.N] {
		dst = append(dst, a.Pos.add(p.rotate(s, c)))
	}
	return dst
}

// radii and points are indexed by size.
var (
	radii  = [4]float64{0, 13, 25, 46}
	points = [4]int{0, 100, 50, 20}
	// Smaller rocks fly faster.
	speedFactor = [4]float64{0, 1.6, 1.3, 1}
)

// AsteroidRadius returns the collision radius of an asteroid of the size.
func AsteroidRadius(size int) float64 { return radii[clampSize(size)] }

// AsteroidPoints returns the score for destroying an asteroid of the size.
func AsteroidPoints(size int) int { return points[clampSize(size)] }

// newAsteroid makes a rock of the given size at pos moving in a random
// direction at a speed of the current level, with an outline of its own.
// It draws random numbers in a fixed order.
func (w *World) newAsteroid(pos Vec, size int) Asteroid {
	size = clampSize(size)
	speed := w.rng.between(w.level.SpeedMin, w.level.SpeedMax) * speedFactor[size]
	a := Asteroid{
		Pos:    pos,
		Vel:    polar(w.rng.between(0, 2*math.Pi), speed),
		Size:   size,
		Radius: radii[size],
		Angle:  w.rng.between(-math.Pi, math.Pi),
		Spin:   w.rng.between(-1.2, 1.2),
		Serial: w.rockSerial,
		N:      w.rng.inclusive(minVertices, MaxVertices),
	}
	w.rockSerial++
	// Corners go round once at jittered angles and radii: a jagged rock whose
	// collision circle (Radius) sits between its dents and its bumps.
	step := 2 * math.Pi / float64(a.N)
	for k := range a.N {
		ang := float64(k)*step + w.rng.between(-0.35, 0.35)*step
		a.Outline[k] = polar(ang, a.Radius*w.rng.between(0.72, 1.12))
	}
	return a
}

// addAsteroid appends a rock if the slice has room; a full slice skips it,
// the same way in every run.
func (w *World) addAsteroid(a Asteroid) {
	if len(w.asteroids) < cap(w.asteroids) {
		w.asteroids = append(w.asteroids, a)
	}
}

// startWave sets wave n and scatters its asteroids away from the ship.
func (w *World) startWave(n int) {
	w.wave = n
	w.level = w.set.Level(n - 1)
	w.waveWait, w.waveSteps = 0, 0
	w.saucer.wait = w.saucerDelay()
	for range w.level.Asteroids {
		w.addAsteroid(w.newAsteroid(w.spawnPoint(), w.level.Size))
	}
}

// spawnPoint picks a random point at least spawnClearance from every ship
// in the field and from the spawn point of every slot without one, where a
// ship may enter. A few draws nearly always succeed; the fallback is the
// edge opposite the first ship.
func (w *World) spawnPoint() Vec {
	var p Vec
	for range 8 {
		p = Vec{w.rng.between(0, Width), w.rng.between(0, Height)}
		if w.clearOfShips(p) {
			return p
		}
	}
	from := centre
	for i := range w.ships {
		if s := &w.pilots[i].ship; s.Alive {
			from = s.Pos
			break
		}
	}
	return wrap(Vec{from.X + Width/2, p.Y})
}

// clearOfShips reports whether p is far enough from every ship in play:
// see spawnPoint.
func (w *World) clearOfShips(p Vec) bool {
	for i := range w.ships {
		switch q := &w.pilots[i]; {
		case q.ship.Alive:
			if delta(q.ship.Pos, p).len() < spawnClearance {
				return false
			}
		default: // a ship may enter there
			if delta(w.SpawnPoint(i), p).len() < spawnClearance {
				return false
			}
		}
	}
	return true
}

// moveAsteroids advances every rock.
func (w *World) moveAsteroids() {
	for i := range w.asteroids {
		a := &w.asteroids[i]
		a.Pos = wrap(a.Pos.add(a.Vel.scale(1.0 / TPS)))
		a.Angle = normAngle(a.Angle + a.Spin/TPS)
	}
}

// compactAsteroids drops the rocks destroyed this step (Size 0), keeping
// the order of the others.
func (w *World) compactAsteroids() {
	n := 0
	for _, a := range w.asteroids {
		if a.Size != 0 {
			w.asteroids[n] = a
			n++
		}
	}
	clear(w.asteroids[n:])
	w.asteroids = w.asteroids[:n]
}
