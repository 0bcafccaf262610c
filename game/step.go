package game

import (
	"cmp"
	"slices"

	"poolroids/pool"
)

// hit is a bullet found inside a target during the bullet pass. Hits are
// resolved after the pass, in bullet serial order, so the outcome does not
// depend on the order the pool iterates in.
type hit struct {
	serial uint64
	h      pool.Handle
	target int32 // index into asteroids, or targetShip / targetSaucer
}

const (
	targetShip   = -1
	targetSaucer = -2
)

// breakEvent is something destroyed this step, remembered in order so its
// fragments and debris are spawned (and their random numbers drawn) after
// every pool pass, in a deterministic order.
type breakEvent struct {
	pos, vel Vec
	size     int // asteroid size; 0 for the ship or a saucer
	kind     ParticleKind
	radius   float64
	debris   int
}

var centre = Vec{Width / 2, Height / 2}

// Step advances the world by 1/TPS s with the player's intent in. While
// paused it does nothing. It allocates nothing with a pooled strategy.
//
// A step: the ship obeys in (rotate, thrust, fire, hyperspace); everything
// moves; bullets age and collide; debris ages; rocks, the ship and the
// saucer collide; what was destroyed breaks up; then the ship respawns, the
// saucer comes or goes, and a cleared field brings the next wave.
func (w *World) Step(in Input) {
	if w.paused {
		return
	}
	w.steps++
	w.hits, w.breaks = w.hits[:0], w.breaks[:0]

	w.control(in)
	w.moveShip()
	w.moveAsteroids()
	w.moveSaucer()
	w.bulletPass()
	w.resolveHits()
	w.collide()
	w.debrisPass()
	w.compactAsteroids()
	w.breakUp()
	w.respawn()
	w.saucerArrival()
	w.advanceWave()
}

// bulletPass ages and moves every bullet and notes the first target each
// one is inside. It only reads the rest of the world, draws no random
// number and acquires nothing: all of that waits for resolveHits.
func (w *World) bulletPass() {
	ship := &w.ship
	shipHittable := ship.Alive && ship.Invulnerable == 0
	w.grid.build(w.asteroids)
	for h, b := range w.bullets.All() {
		if b.Life <= 0 {
			w.bullets.Release(h)
			continue
		}
		b.Life--
		b.Pos = wrap(b.Pos.add(b.Vel.scale(1.0 / TPS)))
		target := w.grid.first(w.asteroids, b.Pos)
		switch {
		case b.Hostile && shipHittable && within(b.Pos, ship.Pos, ShipRadius):
			target = targetShip
		case !b.Hostile && w.saucer.alive && within(b.Pos, w.saucer.Pos, w.saucer.Radius):
			target = targetSaucer
		case target == int32(len(w.asteroids)):
			continue
		}
		// hits has room for every bullet of the pool.
		w.hits = append(w.hits, hit{serial: b.Serial, h: h, target: target})
	}
}

// within reports whether p is within r of c on the torus.
func within(p, c Vec, r float64) bool {
	d := delta(c, p)
	return d.X*d.X+d.Y*d.Y < r*r
}

// resolveHits applies the hits in bullet serial order: the lowest serial in
// a target destroys it and is used up; a later bullet in the same, already
// destroyed target flies on.
func (w *World) resolveHits() {
	slices.SortFunc(w.hits, func(a, b hit) int { return cmp.Compare(a.serial, b.serial) })
	for _, x := range w.hits {
		b, _ := w.bullets.Get(x.h)
		switch x.target {
		case targetShip:
			if !w.ship.Alive {
				continue
			}
			w.killShip()
		case targetSaucer:
			if !w.saucer.alive {
				continue
			}
			w.killSaucer(true)
		default:
			a := &w.asteroids[x.target]
			if a.Size == 0 {
				continue
			}
			w.breakAsteroid(a, !b.Hostile)
		}
		w.bullets.Release(x.h)
	}
}

// collide settles the collisions between bodies: ship and saucer with the
// rocks (in slice order) and with each other. A rock that hits the ship
// breaks and scores, as in the arcade game.
func (w *World) collide() {
	ship, s := &w.ship, &w.saucer
	for i := range w.asteroids {
		a := &w.asteroids[i]
		if a.Size == 0 {
			continue
		}
		if ship.Alive && ship.Invulnerable == 0 && within(ship.Pos, a.Pos, a.Radius+ShipRadius) {
			w.killShip()
			w.breakAsteroid(a, true)
			continue
		}
		if s.alive && within(s.Pos, a.Pos, a.Radius+s.Radius) {
			w.killSaucer(false)
			w.breakAsteroid(a, false)
		}
	}
	if ship.Alive && ship.Invulnerable == 0 && s.alive && within(ship.Pos, s.Pos, ShipRadius+s.Radius) {
		w.killShip()
		w.killSaucer(true)
	}
}

// breakAsteroid destroys a rock (marked by Size 0 until compactAsteroids)
// and queues its fragments and debris.
func (w *World) breakAsteroid(a *Asteroid, scored bool) {
	if scored {
		w.addScore(points[a.Size])
	}
	w.breaks = append(w.breaks, breakEvent{
		pos: a.Pos, vel: a.Vel, size: a.Size, kind: Rock,
		radius: a.Radius, debris: w.level.DebrisPerBreak,
	})
	a.Size = 0
}

// breakUp spawns, in the order things were destroyed, the fragments of each
// rock and the debris of everything.
func (w *World) breakUp() {
	for _, e := range w.breaks {
		if e.size > 1 {
			for range 2 {
				c := w.newAsteroid(e.pos, e.size-1)
				c.Pos = wrap(e.pos.add(c.Vel.scale(c.Radius / (c.Vel.len() + 1))))
				w.addAsteroid(c)
			}
		}
		w.burst(e)
	}
}

// burst spawns e.debris particles around e.pos. The random numbers of a
// particle are drawn before its Acquire, so a full pool changes nothing but
// the particles shown.
func (w *World) burst(e breakEvent) {
	lo, hi := max(w.level.DebrisLifeMin, 1), max(w.level.DebrisLifeMax, 1)
	for range min(e.debris, maxDebrisBurst) {
		dir := w.rng.between(0, 6.283185307179586)
		speed := w.rng.between(debrisSpeedMin, debrisSpeedMax)
		off := w.rng.between(0, e.radius*0.6)
		life := w.rng.inclusive(lo, hi)
		_, p, ok := w.debris.Acquire()
		if !ok {
			continue
		}
		d := polar(dir, 1)
		*p = Particle{
			Pos:    wrap(e.pos.add(d.scale(off))),
			Vel:    e.vel.scale(0.3).add(d.scale(speed)),
			Life:   life,
			Serial: w.particleSerial,
			Kind:   e.kind,
		}
		w.particleSerial++
	}
}

// debrisPass ages and moves every particle, releasing the expired ones.
func (w *World) debrisPass() {
	for h, p := range w.debris.All() {
		p.Age++
		if p.Age >= p.Life {
			w.debris.Release(h)
			continue
		}
		p.Pos = wrap(p.Pos.add(p.Vel.scale(1.0 / TPS)))
	}
}

// advanceWave starts the next wave once the field has been clear of rocks
// and saucers for waveDelay steps.
func (w *World) advanceWave() {
	if len(w.asteroids) > 0 || w.saucer.alive || w.phase == GameOver {
		w.waveWait = 0
		return
	}
	w.waveWait++
	if w.waveWait >= waveDelay {
		w.startWave(w.wave + 1)
	}
}
