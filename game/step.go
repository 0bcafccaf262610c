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
	target int32 // index into asteroids, targetSaucer, or shipTarget(slot)
}

const targetSaucer = -1

// shipTarget is the target of slot's ship; slotOf undoes it.
func shipTarget(slot int) int32 { return -2 - int32(slot) }
func slotOf(target int32) int   { return int(-2 - target) }

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

// Step advances the world by 1/TPS s with in as slot 0's intent and none
// for the other slots: StepAll with only in[0] set.
func (w *World) Step(in Input) {
	var all Inputs
	all[0] = in
	w.StepAll(&all)
}

// StepAll advances the world by 1/TPS s with every slot's intent in in.
// While paused it does nothing. It allocates nothing with a pooled strategy.
//
// A step: the ships obey their input in slot order (rotate, thrust, fire,
// hyperspace); everything moves; bullets age and collide; debris ages;
// rocks, ships and the saucer collide; what was destroyed breaks up; then
// ships respawn, the saucer comes or goes, and a cleared field brings the
// next wave.
func (w *World) StepAll(in *Inputs) {
	if w.paused {
		return
	}
	w.steps++
	w.hits, w.breaks = w.hits[:0], w.breaks[:0]

	for i := range w.ships {
		w.control(i, in[i])
	}
	for i := range w.ships {
		w.pilots[i].ship.move()
	}
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
	w.grid.build(w.asteroids)
	for h, b := range w.bullets.All() {
		if b.Life <= 0 {
			w.release(h, b)
			continue
		}
		b.Life--
		b.Pos = b.Pos.add(b.Vel.scale(1.0 / TPS))
		if b.Hostile && !inField(b.Pos) {
			// A saucer's shot ends at the edge: none comes from off the field.
			w.release(h, b)
			continue
		}
		b.Pos = wrap(b.Pos)
		target := w.grid.first(w.asteroids, b.Pos)
		if t, ok := w.shipHit(b); ok {
			target = t
		} else if !b.Hostile && w.saucer.alive && within(b.Pos, w.saucer.Pos, w.saucer.Radius) {
			target = targetSaucer
		} else if target == int32(len(w.asteroids)) {
			continue
		}
		// hits has room for every bullet of the pool.
		w.hits = append(w.hits, hit{serial: b.Serial, h: h, target: target})
	}
}

// shipHit returns the target of the first ship, in slot order, that bullet
// b is inside and can hurt.
func (w *World) shipHit(b *Bullet) (int32, bool) {
	if !b.Hostile && w.mode != PvP {
		return 0, false
	}
	for i := range w.ships {
		p := &w.pilots[i]
		if p.hittable() && w.hurts(b, i) && within(b.Pos, p.ship.Pos, ShipRadius) {
			return shipTarget(i), true
		}
	}
	return 0, false
}

// inField reports whether p is on the field, not past an edge.
func inField(p Vec) bool { return p.X >= 0 && p.X < Width && p.Y >= 0 && p.Y < Height }

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
		by := int(b.Owner)
		if b.Hostile {
			by = NoSlot
		}
		switch {
		case x.target == targetSaucer:
			if !w.saucer.alive {
				continue
			}
			w.killSaucer(by)
		case x.target < 0:
			slot := slotOf(x.target)
			if !w.pilots[slot].ship.Alive {
				continue
			}
			w.kill(slot, by)
		default:
			a := &w.asteroids[x.target]
			if a.Size == 0 {
				continue
			}
			w.breakAsteroid(a, by)
		}
		w.release(x.h, b)
	}
}

// collide settles the collisions between bodies: ships and saucer with the
// rocks (in slice order, ships in slot order) and with each other; ships
// pass through each other. A rock that hits a ship breaks and scores for
// it, as in the arcade game.
func (w *World) collide() {
	s := &w.saucer
	for i := range w.asteroids {
		a := &w.asteroids[i]
		if a.Size == 0 {
			continue
		}
		// What a ship rams scores before the ship is lost: on its last
		// ship the player is out of play after, and scores nothing.
		if k := w.rammed(a.Pos, a.Radius); k != NoSlot {
			w.breakAsteroid(a, k)
			w.kill(k, NoSlot)
			continue
		}
		if s.alive && within(s.Pos, a.Pos, a.Radius+s.Radius) {
			w.killSaucer(NoSlot)
			w.breakAsteroid(a, NoSlot)
		}
	}
	for k := range w.ships {
		if p := &w.pilots[k]; s.alive && p.hittable() && within(p.ship.Pos, s.Pos, ShipRadius+s.Radius) {
			w.killSaucer(k)
			w.kill(k, NoSlot)
		}
	}
}

// rammed returns the first slot whose hittable ship touches a body of
// radius r at pos, or NoSlot.
func (w *World) rammed(pos Vec, r float64) int {
	for k := range w.ships {
		if p := &w.pilots[k]; p.hittable() && within(p.ship.Pos, pos, r+ShipRadius) {
			return k
		}
	}
	return NoSlot
}

// credit adds n points to slot by; NoSlot scores for no one. A point
// scored by a slot in play quiets the saucers (see quiet).
func (w *World) credit(by, n int) {
	if by == NoSlot {
		return
	}
	if w.pilots[by].inPlay() {
		w.scored = w.steps
	}
	w.pilots[by].addScore(n)
}

// quiet is how many steps have passed since a slot in play last scored
// (since the game began, if none has): the longer, the likelier the next
// saucer is small and the better it aims, so that lurking does not pay.
func (w *World) quiet() int { return int(w.steps - w.scored) }

// breakAsteroid destroys a rock (marked by Size 0 until compactAsteroids),
// scores it for slot by (NoSlot: for no one) and queues its fragments and
// debris.
func (w *World) breakAsteroid(a *Asteroid, by int) {
	w.credit(by, points[a.Size])
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
	if w.slotsInPlay() > 0 {
		w.waveSteps++
	}
	if len(w.asteroids) > 0 || w.saucer.alive || w.slotsInPlay() == 0 {
		w.waveWait = 0
		return
	}
	w.waveWait++
	if w.waveWait >= waveDelay {
		w.startWave(w.wave + 1)
	}
}
