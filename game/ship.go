package game

import (
	"math"

	"poolroids/pool"
)

// control applies a slot's intent to its live ship: turn, thrust, fire,
// jump. Timers of the ship run here too.
func (w *World) control(slot int, in Input) {
	p := &w.pilots[slot]
	s := &p.ship
	p.fireWait = max(p.fireWait-1, 0)
	p.hyperWait = max(p.hyperWait-1, 0)
	s.Invulnerable = max(s.Invulnerable-1, 0)
	s.Thrusting = false
	if !s.Alive {
		return
	}
	if in.Left {
		s.Angle -= turnRate / TPS
	}
	if in.Right {
		s.Angle += turnRate / TPS
	}
	s.Angle = normAngle(s.Angle)
	if in.Thrust {
		s.Thrusting = true
		s.Vel = s.Vel.add(polar(s.Angle, thrustAccel/TPS))
	}
	if in.Fire && p.fireWait == 0 {
		w.fire(slot)
	}
	if in.Hyperspace && p.hyperWait == 0 {
		w.hyperspace(slot)
	}
}

// move applies drag and the speed cap, then moves the ship.
func (s *Ship) move() {
	if !s.Alive {
		return
	}
	s.Vel = s.Vel.scale(1 - drag/TPS)
	if v := s.Vel.len(); v > maxSpeed {
		s.Vel = s.Vel.scale(maxSpeed / v)
	}
	s.Pos = wrap(s.Pos.add(s.Vel.scale(1.0 / TPS)))
}

// fire shoots one volley: BulletsPerShot bullets fanned Spread degrees
// apart around the ship's heading, from its nose, with the ship's own
// velocity added. A bullet is refused (a miss of the slot) when the slot
// has its Share in flight and others could use the room, or when the pool
// is full (a miss of the pool too).
func (w *World) fire(slot int) {
	p, l := &w.pilots[slot], &w.level
	s := &p.ship
	p.fireWait = max(l.FireCooldown, 1)
	n := max(l.BulletsPerShot, 1)
	spread := l.Spread * math.Pi / 180
	share := w.Share()
	for k := range n {
		if p.inFlight >= share && w.bullets.Len() < w.bullets.Cap() {
			p.misses++
			p.refused = w.steps
			w.overShare++
			continue
		}
		a := s.Angle + (float64(k)-float64(n-1)/2)*spread
		if !w.launch(slot, s.Pos.add(polar(s.Angle, shipNose)), s.Vel.add(polar(a, l.BulletSpeed)), l.BulletLife, false) {
			p.misses++
			p.refused = w.steps
		}
	}
}

// launch acquires one bullet fired by owner (a slot; ignored for a Hostile
// one); a full pool skips it (the pool counts the miss) and reports false.
func (w *World) launch(owner int, pos, vel Vec, life int, hostile bool) bool {
	_, b, ok := w.bullets.Acquire()
	if !ok {
		return false
	}
	*b = Bullet{Pos: wrap(pos), Vel: vel, Life: max(life, 1), Serial: w.bulletSerial, Hostile: hostile}
	w.bulletSerial++
	if hostile {
		w.hostile++
	} else {
		b.Owner = uint8(owner)
		w.pilots[owner].inFlight++
		w.pilots[owner].shots++
	}
	return true
}

// release returns bullet b (at h) to the pool and to its owner's share.
func (w *World) release(h pool.Handle, b *Bullet) {
	if b.Hostile {
		w.hostile--
	} else {
		w.pilots[b.Owner].inFlight--
	}
	w.bullets.Release(h)
}

// HyperspaceRisk returns the chance that a jump with n asteroids in the
// field ends in an explosion on re-entry: 1 in 16 in an empty field, rising
// with the crowd to at most 1 in 3.
func HyperspaceRisk(n int) float64 { return min(1.0/16+float64(n)/160, 1.0/3) }

// hyperspace moves slot's ship to a random place, at rest. On re-entry it
// may blow up (HyperspaceRisk) or land on a rock, the classic risks.
func (w *World) hyperspace(slot int) {
	p := &w.pilots[slot]
	s := &p.ship
	p.hyperWait = hyperCooldown
	x := w.rng.between(hyperMargin, Width-hyperMargin)
	y := w.rng.between(hyperMargin, Height-hyperMargin)
	fate := w.rng.float()
	s.Pos, s.Vel = Vec{x, y}, Vec{}
	if fate < HyperspaceRisk(len(w.asteroids)) {
		w.kill(slot, NoSlot)
	}
}

// kill destroys slot's ship, downed by slot by (NoSlot: by no player): one
// life less, a burst of debris three times an asteroid's, and a wait before
// the next ship (or the end of the slot's game). A kill by another slot
// scores KillPoints for it.
func (w *World) kill(slot, by int) {
	p := &w.pilots[slot]
	s := &p.ship
	s.Alive, s.Thrusting, s.Invulnerable = false, false, 0
	p.lives--
	p.deaths++
	p.killedBy = by
	w.breaks = append(w.breaks, breakEvent{
		pos: s.Pos, vel: s.Vel, kind: ShipDebris,
		radius: ShipRadius, debris: 3 * w.level.DebrisPerBreak,
	})
	p.respawnWait = respawnLimit
	if p.lives <= 0 {
		p.lives = 0
		p.phase = GameOver
	} else {
		p.phase = Respawning
	}
	if by != NoSlot && by != slot {
		w.pilots[by].kills++
		w.credit(by, KillPoints)
	}
}

// respawn brings back the ship of every slot that waits: at its spawn
// point once respawnDelay has passed and the point is clear, or at the
// clearest spot of the field when respawnLimit has passed without it being
// clear, so a lost ship is never gone for long.
func (w *World) respawn() {
	for i := range w.ships {
		p := &w.pilots[i]
		if p.phase != Respawning {
			continue
		}
		p.respawnWait = max(p.respawnWait-1, 0)
		if p.respawnWait > respawnLimit-respawnDelay {
			continue
		}
		if at := w.SpawnPoint(i); w.placeClear(i, at) {
			w.spawnShip(i, at)
		} else if p.respawnWait == 0 {
			w.spawnShip(i, w.clearestSpot(i))
		} else {
			p.blocked = true
		}
	}
}

// placeClear reports whether no rock is, or within half a second will be,
// near at, no saucer or bullet that could hurt slot's ship is close to
// it, and no other ship is on or beside it.
func (w *World) placeClear(slot int, at Vec) bool {
	return w.clearance(slot, at) >= safeRadius
}

// clearance is how far at is from the nearest danger to slot's ship: a rock
// (edge to edge, now or half a second on), the saucer (counted at double
// range: it shoots) or a bullet that can hurt the ship; noThreat for an
// empty field. Another ship in the field counts as a danger within
// shipApart of it, so that a ship never comes back on or beside one.
func (w *World) clearance(slot int, at Vec) float64 {
	d := noThreat
	for i := range w.ships {
		if o := &w.pilots[i].ship; i != slot && o.Alive {
			d = min(d, delta(at, o.Pos).len()+safeRadius-shipApart)
		}
	}
	for i := range w.asteroids {
		a := &w.asteroids[i]
		d = min(d, delta(at, a.Pos).len()-a.Radius, delta(at, a.Pos.add(a.Vel.scale(0.5))).len()-a.Radius)
	}
	if w.saucer.alive {
		d = min(d, delta(at, w.saucer.Pos).len()/2)
	}
	for _, b := range w.bullets.All() {
		if w.hurts(b, slot) {
			d = min(d, delta(at, b.Pos).len())
		}
	}
	return d
}

// clearestSpot is the point of a coarse grid over the field farthest from
// every danger to slot's ship, and never beside another ship while the
// grid has a point that is not; the first such point in grid order among
// equals, so the choice is deterministic.
func (w *World) clearestSpot(slot int) Vec {
	const cols, rows = 8, 6
	best, crowded, at := math.Inf(-1), true, centre
	for y := range rows {
		for x := range cols {
			p := Vec{(float64(x) + 0.5) * Width / cols, (float64(y) + 0.5) * Height / rows}
			d, beside := w.clearance(slot, p), w.besideShip(slot, p)
			if crowded && !beside || crowded == beside && d > best {
				best, crowded, at = d, beside, p
			}
		}
	}
	return at
}

// besideShip reports whether a ship other than slot's is in the field
// within shipApart of at.
func (w *World) besideShip(slot int, at Vec) bool {
	for i := range w.ships {
		if o := &w.pilots[i].ship; i != slot && o.Alive && delta(at, o.Pos).len() < shipApart {
			return true
		}
	}
	return false
}

// hurts reports whether bullet b can hit slot's ship: the saucer's always,
// another slot's in PvP.
func (w *World) hurts(b *Bullet, slot int) bool {
	return b.Hostile || (w.mode == PvP && int(b.Owner) != slot)
}

// ShipPoints appends the outline of slot 0's ship to dst, or nothing while
// it is not alive: see [Ship.Points].
func (w *World) ShipPoints(dst []Vec) []Vec {
	if !w.ship.Alive {
		return dst
	}
	return w.ship.Points(dst)
}

// Points appends the ship's outline in world space to dst: nose, one wing,
// tail notch, the other wing (a closed shape). It allocates only if dst is
// too small.
func (s *Ship) Points(dst []Vec) []Vec {
	sn, cs := math.Sincos(s.Angle)
	for _, p := range shipShape {
		dst = append(dst, s.Pos.add(p.rotate(sn, cs)))
	}
	return dst
}

// shipShape is the ship pointing along +X.
var shipShape = [4]Vec{{shipNose, 0}, {-10, 9}, {-5, 0}, {-10, -9}}
