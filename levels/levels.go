package levels

import (
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"poolroids/pool"
)

// Set is a level set: the pool capacities a game is built with and its
// waves. The zero Set has no levels and is not valid; get one from
// [Default], [LoadDir] or [LoadFS], or build one and call [Set.Validate].
type Set struct {
	Name     string
	Bullets  int           // bullet pool capacity
	Shots    int           // bullets one ship may have in flight; 0: its equal share of the pool
	Debris   int           // debris pool capacity
	Strategy pool.Strategy // starting strategy
	Levels   []Level       // at least one; the shipped set has >= 5, getting harder
	Saucer   Saucers       // the saucers of the waves that have them; zero fields: the defaults
}

// Saucers are a set's numbers for its flying saucers, which cross the
// waves whose level has them (see the game's package doc): when they
// come, how they shoot, and how the small one, which aims, takes over as
// the score grows. A zero field means its default, as in [DefaultSaucers];
// [Set.Saucers] fills them in.
type Saucers struct {
	First float64 // seconds into a wave before its first saucer (plus up to 2)
	// Every is the shortest wait between two saucers, in seconds: the wait
	// shortens from First by a second for every five the wave has lasted.
	Every      float64
	ShotSpeed  float64 // units per second of a saucer's shots
	ShotLife   int     // steps a saucer's shot flies (it ends at the field's edge too)
	Reload     int     // steps between two shots of the large saucer; the small one's are a quarter fewer
	HoldFire   float64 // units: a saucer holds its fire while a ship is closer than this
	SmallScore int     // from this score every saucer is small; below, the chance of one grows with the score
	Aim        float64 // degrees either side the small saucer may miss by at no score; a third of it at SmallScore
}

// DefaultSaucers are the saucers of a set that does not say, and of the
// shipped one: the 1979 game's large saucer early, shooting blind, and the
// small one, which aims, as the score grows; their shots slower than the
// ship's, none from closer than a ship could dodge.
var DefaultSaucers = Saucers{
	First: 15, Every: 7, ShotSpeed: 250, ShotLife: 100, Reload: 80,
	HoldFire: 220, SmallScore: 20000, Aim: 10,
}

// Saucers returns the set's saucer numbers with every zero field set to
// its default.
func (s *Set) Saucers() Saucers {
	u, d := s.Saucer, DefaultSaucers
	u.First = cmp.Or(u.First, d.First)
	u.Every = cmp.Or(u.Every, d.Every)
	u.ShotSpeed = cmp.Or(u.ShotSpeed, d.ShotSpeed)
	u.ShotLife = cmp.Or(u.ShotLife, d.ShotLife)
	u.Reload = cmp.Or(u.Reload, d.Reload)
	u.HoldFire = cmp.Or(u.HoldFire, d.HoldFire)
	u.SmallScore = cmp.Or(u.SmallScore, d.SmallScore)
	u.Aim = cmp.Or(u.Aim, d.Aim)
	return u
}

// Level is one wave: the asteroids it starts with, the ship's weapon and
// the debris a break throws. Every number has a documented range (see the
// package documentation); [Set.Level] stays inside it.
type Level struct {
	Name           string
	Asteroids      int     // asteroids at the start of the wave
	Size           int     // their size: 3 large, 2 medium, 1 small
	SpeedMin       float64 // asteroid speed range, playfield units per second
	SpeedMax       float64
	FireCooldown   int     // steps (1/60 s) between shots
	BulletSpeed    float64 // units per second
	BulletLife     int     // steps
	BulletsPerShot int
	Spread         float64 // degrees between the bullets of one shot
	DebrisPerBreak int     // particles per destroyed asteroid (the ship's death bursts 3x)
	DebrisLifeMin  int     // steps
	DebrisLifeMax  int
	Saucer         bool // a flying saucer appears in this wave (optional in game)
}

// Ramp is how many waves past the last level [Set.Level] keeps making
// harder; from then on every wave is the same. A game that sizes its
// buffers for the worst wave needs to look no further than
// len(Levels)+Ramp.
const Ramp = 16

// Level returns wave n (0-based). Past the last level it returns the last
// one made harder with every wave, for [Ramp] waves: one more asteroid every
// other wave, asteroids 4% faster and debris bursts 12.5% larger per wave
// (of the last level's figures), and a saucer — always within the
// documented ranges, so the game stays playable and the pools stay the
// bottleneck. The weapon does not change, so a bullet capacity that holds
// one volley of every level holds one of every wave. A negative n is wave 0;
// a Set without levels gives the zero Level. Level is O(1) and allocates
// nothing.
func (s *Set) Level(n int) Level {
	if len(s.Levels) == 0 {
		return Level{}
	}
	last := len(s.Levels) - 1
	if n <= last {
		return s.Levels[max(n, 0)]
	}
	l := s.Levels[last]
	k := min(n-last, Ramp)
	// Each figure only ever goes up: max keeps one that was already past
	// its limit (in a Set built in code) where it was.
	l.Asteroids = max(l.Asteroids, min(l.Asteroids+(k+1)/2, maxAsteroids))
	f := 1 + float64(k)/25
	l.SpeedMax = max(l.SpeedMax, min(l.SpeedMax*f, maxSpeed))
	l.SpeedMin = max(l.SpeedMin, min(l.SpeedMin*f, l.SpeedMax))
	l.DebrisPerBreak = max(l.DebrisPerBreak, min(l.DebrisPerBreak+(l.DebrisPerBreak*k+7)/8, maxPerBreak))
	l.Saucer = true
	return l
}

// Validate checks a Set built in code by the rules the loader applies to
// files: every field in range, SpeedMin <= SpeedMax, DebrisLifeMin <=
// DebrisLifeMax, unique level names, at least one level, and a bullet
// capacity that holds one volley of every level. The error is a
// *[FieldError] whose Field names the level, as in "levels[2].speed_max".
func (s *Set) Validate() error {
	for i := range setFields {
		f := &setFields[i]
		if f.ptr == nil {
			continue
		}
		if msg := f.check(s); msg != "" {
			return &FieldError{Field: f.key, Msg: msg}
		}
	}
	if len(s.Levels) == 0 {
		return &FieldError{Field: "levels", Msg: "no levels, allowed one or more"}
	}
	seen := make(map[string]int, len(s.Levels))
	for i := range s.Levels {
		l := &s.Levels[i]
		for j := range levelFields {
			f := &levelFields[j]
			if msg := f.check(l); msg != "" {
				return &FieldError{Field: fmt.Sprintf("levels[%d].%s", i, f.key), Msg: msg}
			}
		}
		if key, msg := crossCheck(l); msg != "" {
			return &FieldError{Field: fmt.Sprintf("levels[%d].%s", i, key), Msg: msg}
		}
		if j, dup := seen[l.Name]; dup {
			return &FieldError{Field: fmt.Sprintf("levels[%d].name", i), Msg: fmt.Sprintf("%s is already the name of levels[%d], allowed a name of its own", quote(l.Name), j)}
		}
		seen[l.Name] = i
	}
	if i, need := biggestVolley(s.Levels); need > s.Bullets {
		return &FieldError{Field: "pools.bullets", Msg: volleyMsg(s.Bullets, need, fmt.Sprintf("levels[%d]", i))}
	}
	return nil
}

// crossCheck finds a range that is upside down, naming the field at fault.
func crossCheck(l *Level) (key, msg string) {
	if l.SpeedMin > l.SpeedMax {
		return "speed_min", fmt.Sprintf("%s is above speed_max %s, allowed 0..%s", fmtNum(l.SpeedMin), fmtNum(l.SpeedMax), fmtNum(l.SpeedMax))
	}
	if l.DebrisLifeMin > l.DebrisLifeMax {
		return "debris_life_min", fmt.Sprintf("%d is above debris_life_max %d, allowed 1..%d", l.DebrisLifeMin, l.DebrisLifeMax, l.DebrisLifeMax)
	}
	return "", ""
}

// biggestVolley returns the first level firing the most bullets per shot,
// and how many.
func biggestVolley(ls []Level) (at, n int) {
	for i := range ls {
		if ls[i].BulletsPerShot > n {
			at, n = i, ls[i].BulletsPerShot
		}
	}
	return at, n
}

func volleyMsg(have, need int, where string) string {
	return fmt.Sprintf("%d is too small for one volley of %s (bullets_per_shot = %d), allowed %d..%d", have, where, need, need, MaxBullets)
}

// data holds the shipped set: set.toml and one file per level.
//
//go:embed data/*.toml
var data embed.FS

// Embedded returns the shipped level files (set.toml and the levels) as a
// file system rooted at their directory: a starting point for a set of
// one's own.
func Embedded() fs.FS {
	sub, err := fs.Sub(data, "data")
	if err != nil { // fs.Sub fails only on an invalid path, and "data" is valid
		panic(err)
	}
	return sub
}

var shipped = sync.OnceValues(func() (*Set, error) { return LoadFS(data, "data") })

// pressureFiles holds the stress mode's set, in the same format.
//
//go:embed pressure/*.toml
var pressureFiles embed.FS

var pressure = sync.OnceValues(func() (*Set, error) { return LoadFS(pressureFiles, "pressure") })

// Default returns the shipped level set, loaded from the embedded files on
// the first call. Each call returns a fresh copy the caller may change. It
// panics only if the embedded files are broken, which the package's tests
// rule out.
func Default() *Set { return fresh(shipped) }

// Pressure returns the built-in level set of the stress mode (and of a
// game's stress autopilot): dense waves, a wide volley every step and
// large debris bursts, so both pools run full. Each call returns a fresh
// copy, as Default does.
func Pressure() *Set { return fresh(pressure) }

// fresh returns a copy of the embedded set load loads, which the caller
// may change. It panics only if the embedded files are broken, which the
// package's tests rule out.
func fresh(load func() (*Set, error)) *Set {
	s, err := load()
	if err != nil {
		panic("levels: an embedded level set is broken: " + err.Error())
	}
	c := *s
	c.Levels = slices.Clone(s.Levels)
	return &c
}
