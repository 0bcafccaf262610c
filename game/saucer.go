package game

import "math"

// Saucer is the flying saucer that crosses the field in waves whose level
// asks for one, shooting at random (large) or at the ship (small). It
// crosses once, wrapping only vertically, and leaves at the far edge.
type Saucer struct {
	Pos, Vel Vec
	Small    bool
	Radius   float64
	Serial   uint64
}

// saucer is the world's one saucer slot and its timers.
type saucer struct {
	Saucer
	alive bool
	wait  int // steps until the next saucer enters, in a wave that has them
	fire  int // steps until it shoots
	turn  int // steps until it changes course
}

// Scores for downing a saucer.
const (
	SaucerPoints      = 200  // a large saucer
	SmallSaucerPoints = 1000 // a small saucer
)

const (
	// The wait before a saucer shortens by a step for every saucerHaste
	// steps the wave has lasted (a second for every five), and varies by
	// up to saucerWaitJitter.
	saucerHaste      = 5
	saucerWaitJitter = 2 * TPS

	// saucerLurk is how long no one may score before every saucer is
	// small, aiming at a third of its error: lurking does not pay.
	saucerLurk = 30 * TPS

	// saucerShots is how many shots a saucer may have in flight.
	saucerShots = 2

	// aimFloor is the small saucer's aim error at the highest scores, as a
	// share of its error at none.
	aimFloor = 0.1
)

// Saucer returns the saucer and whether one is in the field.
func (w *World) Saucer() (Saucer, bool) { return w.saucer.Saucer, w.saucer.alive }

// Points appends the saucer's outline in world space to dst (a closed shape
// of 8 corners: rim, dome, hull).
func (s *Saucer) Points(dst []Vec) []Vec {
	k := s.Radius / 20
	for _, p := range saucerShape {
		dst = append(dst, s.Pos.add(p.scale(k)))
	}
	return dst
}

// saucerShape is a large saucer (radius 20) around its centre.
var saucerShape = [8]Vec{{-20, 2}, {-9, -4}, {-5, -11}, {5, -11}, {9, -4}, {20, 2}, {10, 9}, {-10, 9}}

// saucerDelay is the wait before the next saucer enters in a wave that has
// saucers (drawing its random number only then), else none: the longer the
// wave has lasted, the shorter the wait, so waiting is never safe.
func (w *World) saucerDelay() int {
	if !w.level.Saucer {
		return 0
	}
	first, every := int(w.saucers.First*TPS), int(w.saucers.Every*TPS)
	d := max(first-w.waveSteps/saucerHaste, min(every, first))
	return d + w.rng.inclusive(0, saucerWaitJitter)
}

// saucerArrival counts down to the next saucer of the wave and sends it in
// from a random side. Saucers keep coming while rocks are left and the game
// is on. The small one, which aims, is likelier the higher the best score
// (always from the set's SmallScore on) and the longer the wave lasts.
func (w *World) saucerArrival() {
	s := &w.saucer
	if s.alive || !w.level.Saucer || len(w.asteroids) == 0 || w.slotsInPlay() == 0 {
		return
	}
	if s.wait--; s.wait > 0 {
		return
	}
	chance := float64(w.bestScore())/float64(w.saucers.SmallScore) + float64(w.quiet())/saucerLurk
	small := w.rng.float() < chance
	left := w.rng.intn(2) == 0
	y := w.rng.between(0.15*Height, 0.85*Height)
	speed, r := 110.0, 20.0
	if small {
		speed, r = 150.0, 12.0
	}
	x := 0.0
	if !left {
		x, speed = Width, -speed
	}
	*s = saucer{
		Saucer: Saucer{Pos: Vec{x, y}, Vel: Vec{speed, 0}, Small: small, Radius: r, Serial: w.saucerSerial},
		alive:  true,
		turn:   w.rng.inclusive(TPS, 2*TPS),
	}
	// Its first shot waits a reload, so it comes from well inside the field.
	s.fire = w.saucerReload()
	w.saucerSerial++
}

// saucerReload is the steps between two shots of the saucer in the field.
func (w *World) saucerReload() int {
	if w.saucer.Small {
		return max(w.saucers.Reload*3/4, 1)
	}
	return w.saucers.Reload
}

// moveSaucer flies the saucer, now and then changing its vertical course,
// shoots when it may (see saucerMayFire), and lets it leave at the far
// edge.
func (w *World) moveSaucer() {
	s := &w.saucer
	if !s.alive {
		return
	}
	if s.turn--; s.turn <= 0 {
		s.Vel.Y = float64(w.rng.intn(3)-1) * math.Abs(s.Vel.X) * 0.6
		s.turn = w.rng.inclusive(TPS, 2*TPS)
	}
	s.Pos = Vec{s.Pos.X + s.Vel.X/TPS, wrap1(s.Pos.Y+s.Vel.Y/TPS, Height)}
	if s.Pos.X < 0 || s.Pos.X > Width {
		s.alive = false
		s.wait = w.saucerDelay()
		return
	}
	if s.fire = max(s.fire-1, 0); s.fire > 0 || !w.saucerMayFire() {
		return
	}
	s.fire = w.saucerReload()
	w.launch(0, s.Pos, polar(w.saucerAim(), w.saucers.ShotSpeed), w.saucers.ShotLife, true)
}

// saucerMayFire reports whether the saucer may shoot now: whole inside
// the field, with fewer than saucerShots shots in flight, and no ship
// closer than the set's HoldFire, which could not dodge a shot from there.
// A saucer that may not keeps its shot for the first step it may.
func (w *World) saucerMayFire() bool {
	s := &w.saucer
	if s.Pos.X < 2*s.Radius || s.Pos.X > Width-2*s.Radius || w.hostile >= saucerShots {
		return false
	}
	for i := range w.ships {
		if p := &w.pilots[i]; p.ship.Alive && p.ship.Pos.sub(s.Pos).len() < w.saucers.HoldFire {
			return false
		}
	}
	return true
}

// saucerAim picks a direction: anywhere for a large saucer; for a small
// one, at the nearest ship in the field (its shots do not wrap around
// the edges), missing by less the higher the best score: by up to the
// set's Aim at none, a third of it at SmallScore, a tenth at most.
func (w *World) saucerAim() float64 {
	s := &w.saucer
	a := w.rng.between(-math.Pi, math.Pi)
	if !s.Small {
		return a
	}
	d, best := Vec{}, math.MaxFloat64
	for i := range w.ships {
		p := &w.pilots[i]
		if e := p.ship.Pos.sub(s.Pos); p.ship.Alive && e.len() < best {
			d, best = e, e.len()
		}
	}
	if best == math.MaxFloat64 {
		return a
	}
	k := float64(w.bestScore())/float64(w.saucers.SmallScore) + float64(w.quiet())/saucerLurk
	e := w.saucers.Aim * math.Pi / 180 * max(1/(1+2*k), aimFloor)
	return math.Atan2(d.Y, d.X) + a/math.Pi*e
}

// bestScore is the highest score of a slot in play: the saucers' aim
// and size follow it.
func (w *World) bestScore() int {
	n := 0
	for i := range w.ships {
		if p := &w.pilots[i]; p.inPlay() {
			n = max(n, p.score)
		}
	}
	return n
}

// killSaucer destroys the saucer with a burst of debris, scored for slot by
// (NoSlot: for no one).
func (w *World) killSaucer(by int) {
	s := &w.saucer
	if s.Small {
		w.credit(by, SmallSaucerPoints)
	} else {
		w.credit(by, SaucerPoints)
	}
	w.breaks = append(w.breaks, breakEvent{
		pos: s.Pos, vel: s.Vel, kind: ShipDebris,
		radius: s.Radius, debris: 2 * w.level.DebrisPerBreak,
	})
	s.alive = false
	s.wait = w.saucerDelay()
}
