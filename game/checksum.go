package game

import "math"

// hasher folds 64-bit words into a hash, each word through fmix so that
// nearby states hash far apart.
type hasher uint64

func (h *hasher) u(v uint64)  { *h = hasher(fmix(uint64(*h) ^ v + 0x9e3779b97f4a7c15)) }
func (h *hasher) i(v int)     { h.u(uint64(v)) }
func (h *hasher) f(v float64) { h.u(math.Float64bits(v)) }
func (h *hasher) b(v bool) {
	if v {
		h.u(1)
	} else {
		h.u(0)
	}
}
func (h *hasher) v(v Vec) { h.f(v.X); h.f(v.Y) }

// Checksum returns a hash of the whole world state: step count, random
// generator, serial counters, score, lives, wave, phase and timers, the
// ship, every asteroid in order, the saucer, and every bullet and particle
// with all its fields; in a world of several slots, every slot's state too
// (a solo world hashes as it did before slots existed). Pool items are
// hashed one by one and summed, so the result does not depend on the order
// a strategy iterates in; pool statistics and the strategy itself are not
// part of the state. It allocates nothing.
func (w *World) Checksum() uint64 {
	var h hasher
	h.u(w.steps)
	h.u(w.rng.state)
	h.u(w.bulletSerial)
	h.u(w.particleSerial)
	h.u(w.rockSerial)
	h.u(w.saucerSerial)
	h.b(w.paused)
	h.i(int(w.phase))
	h.i(w.score)
	h.i(w.lives)
	h.i(w.wave)
	h.i(w.nextLife)
	h.i(w.fireWait)
	h.i(w.hyperWait)
	h.i(w.respawnWait)
	h.i(w.waveWait)
	h.i(w.waveSteps)
	h.u(w.scored)

	h.ship(&w.ship)

	h.i(len(w.asteroids))
	for i := range w.asteroids {
		a := &w.asteroids[i]
		h.v(a.Pos)
		h.v(a.Vel)
		h.i(a.Size)
		h.f(a.Radius)
		h.f(a.Angle)
		h.f(a.Spin)
		h.u(a.Serial)
		h.i(a.N)
		for _, p := range a.Outline {
			h.v(p)
		}
	}

	u := &w.saucer
	h.b(u.alive)
	h.v(u.Pos)
	h.v(u.Vel)
	h.b(u.Small)
	h.f(u.Radius)
	h.u(u.Serial)
	h.i(u.wait)
	h.i(u.fire)
	h.i(u.turn)

	var sum uint64
	for _, b := range w.bullets.All() {
		var e hasher
		e.v(b.Pos)
		e.v(b.Vel)
		e.i(b.Life)
		e.u(b.Serial)
		e.b(b.Hostile)
		if b.Owner != 0 {
			e.u(uint64(b.Owner))
		}
		sum += uint64(e)
	}
	h.i(w.bullets.Len())
	h.u(sum)

	sum = 0
	for _, p := range w.debris.All() {
		var e hasher
		e.v(p.Pos)
		e.v(p.Vel)
		e.i(p.Age)
		e.i(p.Life)
		e.u(p.Serial)
		e.u(uint64(p.Kind))
		sum += uint64(e)
	}
	h.i(w.debris.Len())
	h.u(sum)
	if w.ships > 1 {
		w.hashSlots(&h)
	}
	return uint64(h)
}

// hashSlots hashes what slot 0's part of Checksum leaves out, and every
// other slot.
func (w *World) hashSlots(h *hasher) {
	for i := range w.ships {
		p := &w.pilots[i]
		if i > 0 {
			h.i(int(p.phase))
			h.i(p.score)
			h.i(p.lives)
			h.i(p.nextLife)
			h.i(p.fireWait)
			h.i(p.hyperWait)
			h.i(p.respawnWait)
			h.ship(&p.ship)
		}
		h.b(p.blocked)
		h.i(p.inFlight)
		h.i(p.shots)
		h.i(p.misses)
		h.i(p.kills)
		h.i(p.deaths)
		h.i(p.killedBy)
	}
}

func (h *hasher) ship(s *Ship) {
	h.v(s.Pos)
	h.v(s.Vel)
	h.f(s.Angle)
	h.b(s.Alive)
	h.i(s.Invulnerable)
	h.b(s.Thrusting)
}
