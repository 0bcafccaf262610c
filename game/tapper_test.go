package game

import "math"

// tapper is a model of an arcade player at a terminal that reports no key
// releases (see package ui, press-only keys): it reads the field as drawn,
// acts 100 to 200 ms after what it saw, and presses keys as taps, at most
// one a key every 80 to 150 ms. A tap acts for a fixed number of steps, as
// ui's taps do: a turn's is a 21st of a turn, thrust's and fire's a short
// burst (fire's one shot). It aims by taps, fires when the shot would
// land, dodges what it sees coming by turning across its path and
// thrusting, and jumps to hyperspace when that comes too late. It reads
// only what the screen shows: the exported accessors of the world.
//
// It is a model of a fair player for the rules' targets, not a strong one:
// it never holds a key, and never sees what it has not seen for its
// latency.
type tapper struct {
	rng  rng
	seen [tapperMemory]intent // what it made of the world, by step
	lag  int                  // the latency of the next tap, in steps

	keys   [tapKeys]tapKey
	jumped uint64 // step of the last jump plus one; 0: none yet
}

// intent is what the player makes of one step's field.
type intent struct {
	valid                    bool
	heading                  float64 // where it wants the ship to point
	turn, fire, thrust, jump bool
}

// tapKey is one key's taps: the step its last tap began, how many steps
// it still acts, and the gap before the next.
type tapKey struct {
	at   uint64
	left int
	gap  int
	dir  int // a turn's: -1 left, +1 right
}

const (
	tapTurn = iota
	tapFire
	tapThrust
	tapKeys
)

// tapSteps are ui's press-only taps: a turn's (4 steps, 0.3 rad), fire's
// and thrust's (6).
var tapSteps = [tapKeys]int{tapTurn: 4, tapFire: 6, tapThrust: 6}

const (
	tapperMemory  = 16 // steps of what it saw, at least its longest latency
	tapAngle      = 4 * turnRate / TPS
	tapperHorizon = 1.2         // seconds ahead it dodges what would hit the ship
	tapperPanic   = 0.1         // … and jumps, at most every jumpEvery steps
	tapperMargin  = 12.0        // clearance it keeps from rocks and saucers
	tapperRange   = 0.9         // share of its bullets' range it shoots within
	bulletMargin  = 6.0         // clearance it keeps from a saucer's bullets
	tapperSeed    = 0x7a99e4b1d // its own generator's, mixed with the game's
)

func newTapper(seed uint64) *tapper {
	t := &tapper{rng: rng{state: seed ^ tapperSeed}}
	t.lag = t.latency()
	return t
}

// latency is 100 to 200 ms, in steps.
func (t *tapper) latency() int { return t.rng.inclusive(TPS/10, TPS/5) }

// gap is 80 to 150 ms between two taps of a key, in steps.
func (t *tapper) gap() int { return t.rng.inclusive(5, 9) }

// Input is the player's keys for the next step of w.
func (t *tapper) Input(w *World) Input {
	now := w.Steps()
	t.seen[now%tapperMemory] = t.look(w)
	var in Input
	s := w.Player(0).Ship
	if !s.Alive {
		t.keys = [tapKeys]tapKey{}
		return in
	}
	var it intent
	if now >= uint64(t.lag) {
		it = t.seen[(now-uint64(t.lag))%tapperMemory]
	}
	if it.jump && (t.jumped == 0 || now+1 >= t.jumped+jumpEvery) {
		t.jumped = now + 1
		in.Hyperspace = true
	}
	if k := &t.keys[tapTurn]; k.left == 0 && it.valid && it.turn && t.ready(k, now) {
		switch d := normAngle(it.heading - s.Angle); {
		case d > tapAngle/2:
			t.tap(tapTurn, now, 1)
		case d < -tapAngle/2:
			t.tap(tapTurn, now, -1)
		}
	}
	if k := &t.keys[tapFire]; k.left == 0 && it.fire && t.ready(k, now) {
		t.tap(tapFire, now, 0)
	}
	if k := &t.keys[tapThrust]; k.left == 0 && it.thrust && t.ready(k, now) {
		t.tap(tapThrust, now, 0)
	}
	for i := range t.keys {
		k := &t.keys[i]
		if k.left == 0 {
			continue
		}
		k.left--
		switch i {
		case tapTurn:
			in.Left, in.Right = k.dir < 0, k.dir > 0
		case tapFire:
			in.Fire = true
		case tapThrust:
			in.Thrust = true
		}
	}
	return in
}

// ready reports whether key k may be tapped again at now.
func (t *tapper) ready(k *tapKey, now uint64) bool {
	return k.at == 0 || now >= k.at+uint64(k.gap)
}

// tap starts a tap of key i at now, turning dir for a turn, and draws the
// gap before the next tap and the latency of the next thing seen.
func (t *tapper) tap(i int, now uint64, dir int) {
	k := &t.keys[i]
	k.at, k.left, k.gap, k.dir = now, tapSteps[i], t.gap(), dir
	t.lag = t.latency()
}

// look is what the player makes of the field of w: dodge what would hit
// the ship soon, else aim at a target and fire when the shot would land.
func (t *tapper) look(w *World) intent {
	p := w.Player(0)
	s := p.Ship
	if !s.Alive {
		return intent{}
	}
	if dt, at, vel := t.threat(w, &s); dt < tapperHorizon {
		if dt < tapperPanic {
			return intent{valid: true, jump: true}
		}
		// Across the threat's path, on the side away from it.
		d := delta(s.Pos, at)
		rel := vel.sub(s.Vel)
		across := Vec{-rel.Y, rel.X}
		if across.dot(d) > 0 {
			across = across.scale(-1)
		}
		h := math.Atan2(across.Y, across.X)
		return intent{valid: true, heading: h, turn: true, thrust: math.Abs(normAngle(h-s.Angle)) < 0.6}
	}
	pos, vel, r, ok := t.target(w, &s)
	if !ok {
		return intent{}
	}
	l := w.Level()
	d := delta(s.Pos, pos)
	dt := intercept(d, vel.sub(s.Vel), l.BulletSpeed)
	aim := d.add(vel.sub(s.Vel).scale(dt))
	h := math.Atan2(aim.Y, aim.X)
	dist := aim.len()
	tol := tapAngle/2 + math.Atan2(r*0.8, dist)
	inRange := l.BulletSpeed*float64(l.BulletLife)/TPS*tapperRange >= dist
	return intent{valid: true, heading: h, turn: true, fire: inRange && math.Abs(normAngle(h-s.Angle)) <= tol}
}

// threat returns the time until the first thing seen would hit the ship
// if nothing changed course, where it is and how it moves.
func (t *tapper) threat(w *World, s *Ship) (float64, Vec, Vec) {
	best, at, vel := noThreat, Vec{}, Vec{}
	if s.Invulnerable > carelessSteps {
		return best, at, vel
	}
	for _, r := range w.Asteroids() {
		if dt := impact(s, r.Pos, r.Vel, r.Radius+ShipRadius+tapperMargin); dt < best {
			best, at, vel = dt, r.Pos, r.Vel
		}
	}
	if u, ok := w.Saucer(); ok {
		if dt := impact(s, u.Pos, u.Vel, u.Radius+ShipRadius+tapperMargin); dt < best {
			best, at, vel = dt, u.Pos, u.Vel
		}
	}
	for _, b := range w.Bullets().All() {
		if !b.Hostile {
			continue
		}
		if dt := impact(s, b.Pos, b.Vel, ShipRadius+bulletMargin); dt < best {
			best, at, vel = dt, b.Pos, b.Vel
		}
	}
	return best, at, vel
}

// target is the saucer when one is in range, else the nearest rock.
func (t *tapper) target(w *World, s *Ship) (pos, vel Vec, r float64, ok bool) {
	l := w.Level()
	reach := l.BulletSpeed * float64(l.BulletLife) / TPS
	if u, ok := w.Saucer(); ok && delta(s.Pos, u.Pos).len() < reach {
		return u.Pos, u.Vel, u.Radius, true
	}
	best := math.MaxFloat64
	for _, x := range w.Asteroids() {
		if d := delta(s.Pos, x.Pos).len() - x.Radius; d < best {
			best, pos, vel, r, ok = d, x.Pos, x.Vel, x.Radius, true
		}
	}
	return pos, vel, r, ok
}
