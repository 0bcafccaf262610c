package game

import "math"

// control applies the player's intent to a live ship: turn, thrust, fire,
// jump. Timers of the ship run here too.
func (w *World) control(in Input) {
	s := &w.ship
	w.fireWait = max(w.fireWait-1, 0)
	w.hyperWait = max(w.hyperWait-1, 0)
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
	if in.Fire && w.fireWait == 0 {
		w.fire()
	}
	if in.Hyperspace && w.hyperWait == 0 {
		w.hyperspace()
	}
}

// moveShip applies drag and the speed cap, then moves the ship.
func (w *World) moveShip() {
	s := &w.ship
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
// velocity added. A full pool skips the bullets it cannot hold.
func (w *World) fire() {
	s, l := &w.ship, &w.level
	w.fireWait = max(l.FireCooldown, 1)
	n := max(l.BulletsPerShot, 1)
	spread := l.Spread * math.Pi / 180
	for k := range n {
		a := s.Angle + (float64(k)-float64(n-1)/2)*spread
		w.shoot(s.Pos.add(polar(s.Angle, shipNose)), s.Vel.add(polar(a, l.BulletSpeed)), l.BulletLife, false)
	}
}

// shoot acquires one bullet; a full pool skips it (the pool counts the miss).
func (w *World) shoot(pos, vel Vec, life int, hostile bool) {
	_, b, ok := w.bullets.Acquire()
	if !ok {
		return
	}
	*b = Bullet{Pos: wrap(pos), Vel: vel, Life: max(life, 1), Serial: w.bulletSerial, Hostile: hostile}
	w.bulletSerial++
}

// HyperspaceRisk returns the chance that a jump with n asteroids in the
// field ends in an explosion on re-entry: 1 in 16 in an empty field, rising
// with the crowd to at most 1 in 3.
func HyperspaceRisk(n int) float64 { return min(1.0/16+float64(n)/160, 1.0/3) }

// hyperspace moves the ship to a random place, at rest. On re-entry it may
// blow up (HyperspaceRisk) or land on a rock, the classic risks.
func (w *World) hyperspace() {
	s := &w.ship
	w.hyperWait = hyperCooldown
	x := w.rng.between(hyperMargin, Width-hyperMargin)
	y := w.rng.between(hyperMargin, Height-hyperMargin)
	fate := w.rng.float()
	s.Pos, s.Vel = Vec{x, y}, Vec{}
	if fate < HyperspaceRisk(len(w.asteroids)) {
		w.killShip()
	}
}

// killShip destroys the ship: one life less, a burst of debris three times
// an asteroid's, and a wait before the next ship (or the end of the game).
func (w *World) killShip() {
	s := &w.ship
	s.Alive, s.Thrusting, s.Invulnerable = false, false, 0
	w.lives--
	w.breaks = append(w.breaks, breakEvent{
		pos: s.Pos, vel: s.Vel, kind: ShipDebris,
		radius: ShipRadius, debris: 3 * w.level.DebrisPerBreak,
	})
	w.respawnWait = respawnDelay
	if w.lives <= 0 {
		w.lives = 0
		w.phase = GameOver
		return
	}
	w.phase = Respawning
}

// respawn brings a new ship once the wait is over and the centre is clear.
func (w *World) respawn() {
	if w.phase != Respawning {
		return
	}
	w.respawnWait = max(w.respawnWait-1, 0)
	if w.respawnWait == 0 && w.centreClear() {
		w.spawnShip()
	}
}

// centreClear reports whether no rock is, or within half a second will be,
// near the centre, and no saucer or hostile bullet is close to it.
func (w *World) centreClear() bool {
	for i := range w.asteroids {
		a := &w.asteroids[i]
		r := safeRadius + a.Radius
		if within(a.Pos, centre, r) || within(a.Pos.add(a.Vel.scale(0.5)), centre, r) {
			return false
		}
	}
	if w.saucer.alive && within(w.saucer.Pos, centre, 2*safeRadius) {
		return false
	}
	ok := true
	for _, b := range w.bullets.All() {
		if b.Hostile && within(b.Pos, centre, safeRadius) {
			ok = false
			break
		}
	}
	return ok
}

// ShipPoints appends the ship's outline in world space to dst: nose, one
// wing, tail notch, the other wing (a closed shape). It appends nothing while
// the ship is not alive.
func (w *World) ShipPoints(dst []Vec) []Vec {
	s := &w.ship
	if !s.Alive {
		return dst
	}
	sn, cs := math.Sincos(s.Angle)
	for _, p := range shipShape {
		dst = append(dst, s.Pos.add(p.rotate(sn, cs)))
	}
	return dst
}

// shipShape is the ship pointing along +X.
var shipShape = [4]Vec{{shipNose, 0}, {-10, 9}, {-5, 0}, {-10, -9}}
