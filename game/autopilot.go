package game

import "math"

// Autopilot plays the game: it dodges what is about to hit the ship by
// turning away and thrusting, jumps to hyperspace only as a last resort,
// and otherwise turns towards the nearest target (the saucer first), leads
// it and fires when the shot would land. With Pressure it holds fire on
// every step, so the bullet pool runs as full as the weapon allows: the
// stress mode and the title demo use that.
//
// The zero Autopilot plays slot 0 normally. Its decisions depend only on
// the world and on its own state, so a recorded game replays exactly.
type Autopilot struct {
	Pressure bool
	Slot     int    // the slot it flies, 0 to MaxShips-1
	jumped   uint64 // step of the last jump plus one; 0: none yet
}

const (
	dangerHorizon = 0.9     // seconds ahead a collision is dodged
	jumpHorizon   = 0.1     // seconds ahead a collision makes it jump
	dangerMargin  = 16.0    // extra clearance kept from rocks and saucers
	jumpEvery     = 5 * TPS // steps between two autopilot jumps
	carelessSteps = TPS / 3 // invulnerability left under which it dodges
	aimTolerance  = 0.03    // radians: the narrowest aim it waits for
	noThreat      = math.MaxFloat64
)

// Input decides this step's intent. It allocates nothing.
func (a *Autopilot) Input(w *World) Input {
	in := Input{Fire: a.Pressure}
	s := &w.pilots[a.Slot].ship
	if !s.Alive {
		return in
	}
	if t, at := a.threat(w); t < dangerHorizon {
		if t < jumpHorizon && (a.jumped == 0 || w.steps+1 >= a.jumped+jumpEvery) {
			a.jumped = w.steps + 1
			in.Hyperspace = true
			return in
		}
		d := delta(s.Pos, at)
		var diff float64
		in.Left, in.Right, diff = steer(s.Angle, math.Atan2(-d.Y, -d.X))
		in.Thrust = math.Abs(diff) < 0.6
		return in
	}
	pos, vel, r, ok := a.target(w)
	if !ok {
		return in
	}
	l := &w.level
	d := delta(s.Pos, pos)
	t := intercept(d, vel.sub(s.Vel), l.BulletSpeed)
	aim := d.add(vel.sub(s.Vel).scale(t))
	var diff float64
	in.Left, in.Right, diff = steer(s.Angle, math.Atan2(aim.Y, aim.X))
	dist := aim.len()
	tol := max(math.Atan2(r*0.8, dist), aimTolerance)
	inRange := l.BulletSpeed*float64(l.BulletLife)/TPS >= dist
	in.Fire = in.Fire || (math.Abs(diff) <= tol && inRange)
	return in
}

// threat returns the time until the first body would hit the ship if
// nothing changed course, and where that body is. Ties go to the lower
// serial, so the answer does not depend on pool order.
func (a *Autopilot) threat(w *World) (float64, Vec) {
	s := &w.pilots[a.Slot].ship
	best, at := noThreat, Vec{}
	if s.Invulnerable > carelessSteps {
		return best, at
	}
	for i := range w.asteroids {
		r := &w.asteroids[i]
		if t := impact(s, r.Pos, r.Vel, r.Radius+ShipRadius+dangerMargin); t < best {
			best, at = t, r.Pos
		}
	}
	if u := &w.saucer; u.alive {
		if t := impact(s, u.Pos, u.Vel, u.Radius+ShipRadius+dangerMargin); t < best {
			best, at = t, u.Pos
		}
	}
	serial := uint64(noSerial)
	for _, b := range w.bullets.All() {
		if !w.hurts(b, a.Slot) {
			continue
		}
		t := impact(s, b.Pos, b.Vel, ShipRadius+4)
		if t < best || (t == best && t != noThreat && b.Serial < serial) {
			best, at, serial = t, b.Pos, b.Serial
		}
	}
	return best, at
}

// target picks the saucer when there is one, else the nearest rock (edge
// to edge, on the torus; the first in spawn order among equals).
func (a *Autopilot) target(w *World) (pos, vel Vec, r float64, ok bool) {
	if u := &w.saucer; u.alive {
		return u.Pos, u.Vel, u.Radius, true
	}
	best := math.MaxFloat64
	for i := range w.asteroids {
		x := &w.asteroids[i]
		if d := delta(w.pilots[a.Slot].ship.Pos, x.Pos).len() - x.Radius; d < best {
			best, pos, vel, r, ok = d, x.Pos, x.Vel, x.Radius, true
		}
	}
	return pos, vel, r, ok
}

// impact returns the time in seconds until a body at p moving at v comes
// within r of the ship, 0 if it already is, noThreat if it never will.
func impact(s *Ship, p, v Vec, r float64) float64 {
	d, rv := delta(s.Pos, p), v.sub(s.Vel)
	c := d.dot(d) - r*r
	if c <= 0 {
		return 0
	}
	qa, qb := rv.dot(rv), 2*d.dot(rv)
	disc := qb*qb - 4*qa*c
	if qa == 0 || qb >= 0 || disc < 0 {
		return noThreat
	}
	return (-qb - math.Sqrt(disc)) / (2 * qa)
}

// intercept returns the flight time of a bullet of the given speed (fired
// from the ship, which adds its own velocity) that meets a target at d
// moving at rv relative to the ship; 0 when no shot can catch it.
func intercept(d, rv Vec, speed float64) float64 {
	qa, qb, qc := rv.dot(rv)-speed*speed, 2*d.dot(rv), d.dot(d)
	if qa == 0 {
		if qb >= 0 {
			return 0
		}
		return -qc / qb
	}
	disc := qb*qb - 4*qa*qc
	if disc < 0 {
		return 0
	}
	sq := math.Sqrt(disc)
	t1, t2 := (-qb-sq)/(2*qa), (-qb+sq)/(2*qa)
	switch {
	case t1 > 0 && (t2 <= 0 || t1 < t2):
		return t1
	case t2 > 0:
		return t2
	}
	return 0
}

// steer tells which way to turn from heading from to heading to, and the
// difference; within half a step's turn it does not turn.
func steer(from, to float64) (left, right bool, diff float64) {
	diff = normAngle(to - from)
	half := turnRate / TPS / 2
	return diff < -half, diff > half, diff
}
