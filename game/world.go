package game

import (
	"fmt"
	"math"
	"slices"

	"poolroids/levels"
	"poolroids/pool"
)

// TPS is the number of steps per second: [World.Step] always advances 1/TPS s.
const TPS = 60

// Width and Height are the size of the logical playfield in units. It does
// not depend on the screen; a front end scales it.
const Width, Height = 1024.0, 768.0

// Input is one step's intent. Fire held fires again as soon as the gun's
// cooldown allows; Hyperspace held jumps again after the jump's cooldown.
type Input struct{ Left, Right, Thrust, Fire, Hyperspace bool }

// MaxShips is the most ship slots a world has.
const MaxShips = 16

// Inputs is one step's intent of every slot, indexed by slot; the entries
// of free slots are ignored.
type Inputs [MaxShips]Input

// Mode says whom the ships' bullets hurt.
type Mode uint8

const (
	Coop Mode = iota // bullets hit rocks and saucers, never ships
	PvP              // bullets hit the other ships too; a kill scores KillPoints
)

func (m Mode) String() string {
	switch m {
	case Coop:
		return "co-op"
	case PvP:
		return "pvp"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Config chooses what [New] builds. The zero Config is a valid game with
// the shipped levels and seed 0.
type Config struct {
	Levels   *levels.Set   // nil: levels.Default()
	Seed     uint64        // every random choice of the game derives from it
	Strategy pool.Strategy // "": the set's strategy
	Bullets  int           // bullet pool capacity; 0: the set's
	Debris   int           // debris pool capacity; 0: the set's
	// Ships is the number of ship slots, 1 to MaxShips; 0 means 1. With one
	// slot New joins it (the solo game); with more it joins none: see
	// [World.Join].
	Ships int
	Mode  Mode // Coop (the zero value) or PvP
}

// Phase is what the player of a slot is doing.
type Phase int

const (
	Playing    Phase = iota // the ship is in the field
	Respawning              // the ship was lost (or just joined); it comes back within respawnLimit
	GameOver                // the last ship was lost; only Restart (or Join) plays again
	Absent                  // no player in the slot: never joined, or left
)

func (p Phase) String() string {
	switch p {
	case Playing:
		return "playing"
	case Respawning:
		return "respawning"
	case GameOver:
		return "game over"
	case Absent:
		return "absent"
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// The rules in numbers.
const (
	StartLives        = 3           // ships at the start of a game
	KillPoints        = 1000        // a ship downed by another's bullet, in PvP
	ExtraLifeEvery    = 10000       // points per extra ship
	InvulnerableSteps = 5 * TPS / 2 // steps of invulnerability after a (re)spawn
	ShipRadius        = 10.0        // collision radius of the ship
)

// Tuning. Speeds are per second, times in steps.
const (
	shipNose       = 15.0    // nose distance from the centre; bullets start there
	turnRate       = 4.5     // radians per second
	thrustAccel    = 380.0   // units per second²
	maxSpeed       = 420.0   // the ship's speed cap
	drag           = 0.55    // fraction of the ship's speed lost per second
	hyperCooldown  = TPS     // steps between two jumps
	hyperMargin    = 60.0    // re-entry keeps this far from the edges
	respawnDelay   = 2 * TPS // steps before a lost ship comes back when its place is clear
	respawnLimit   = 5 * TPS // steps before it comes back anyway, at the clearest spot
	safeRadius     = 150.0   // a spawn point must be this clear for a respawn
	shipApart      = 70.0    // … and this far from another ship (16 spawn points are 75 apart)
	waveDelay      = 2 * TPS // steps between a cleared field and the next wave
	spawnClearance = 240.0   // a new wave's asteroids start this far from the ship
	debrisSpeedMin = 30.0    // debris speed range
	debrisSpeedMax = 160.0   //
	maxAsteroids   = 1 << 14 // hard cap of the asteroid slice
	maxDebrisBurst = 1 << 16 // one burst's particles, however large a level asks
	noSerial       = math.MaxUint64
)

// Ship is the player's ship. Angle is in radians, 0 pointing along +X.
type Ship struct {
	Pos, Vel     Vec
	Angle        float64
	Alive        bool
	Invulnerable int // steps left; the ship passes through everything meanwhile
	Thrusting    bool
}

// Bullet is one shot. Hostile bullets come from the saucer and hurt every
// ship; a player's hurt asteroids and the saucer, and in [PvP] the other
// ships. Both hit asteroids.
type Bullet struct {
	Pos, Vel Vec
	Life     int // steps left in flight: the level's BulletLife counts the step it is fired in
	Serial   uint64
	Hostile  bool
	Owner    uint8 // the slot that fired it; 0 for the saucer's
}

// ParticleKind tells debris apart for drawing.
type ParticleKind uint8

const (
	Rock       ParticleKind = iota // from an asteroid
	ShipDebris                     // from the ship or a saucer
)

// Particle is one piece of debris. It lives Life steps; Age counts up.
type Particle struct {
	Pos, Vel  Vec
	Age, Life int
	Serial    uint64
	Kind      ParticleKind
}

// World is one game. It is not safe for concurrent use: a front end steps
// and reads it from one goroutine.
type World struct {
	// pilot is slot 0, the solo game's: Ship, Score, Lives and Phase read it.
	*pilot
	pilots [MaxShips]pilot
	ships  int // slots in use: 1..MaxShips
	mode   Mode

	set    *levels.Set
	seed   uint64
	rng    rng
	steps  uint64
	paused bool
	wave   int // 1-based
	level  levels.Level

	waveWait  int    // steps the field has been clear, towards the next wave
	waveSteps int    // steps the wave has lasted with a game on: saucers come sooner
	scored    uint64 // step of the last point scored: see quiet

	asteroids []Asteroid // cap fixed by New; never grows
	saucer    saucer
	saucers   levels.Saucers // the set's, defaults filled in
	hostile   int            // saucer shots in flight

	bullets *pool.Pool[Bullet]
	debris  *pool.Pool[Particle]

	bulletSerial, particleSerial, rockSerial, saucerSerial uint64

	overShare uint64 // shots refused over a slot's share (see OverShare)

	// Scratch of one step, preallocated by New.
	hits   []hit
	breaks []breakEvent
	grid   grid
}

// New builds a world at the start of wave 1 with the ship in the centre.
// It allocates everything the game will ever use: the two pools, the
// asteroid slice (sized for the worst wave of the set) and the scratch of a
// step. It fails on an unknown strategy, a negative or impossible capacity,
// or a set without levels.
func New(cfg Config) (*World, error) {
	set := cfg.Levels
	if set == nil {
		set = levels.Default()
	}
	if len(set.Levels) == 0 {
		return nil, fmt.Errorf("game: level set %q has no levels", set.Name)
	}
	s := cfg.Strategy
	if s == "" {
		s = set.Strategy
	}
	if s == "" {
		s = pool.FreeList
	}
	nb, nd := cfg.Bullets, cfg.Debris
	if nb == 0 {
		nb = set.Bullets
	}
	if nd == 0 {
		nd = set.Debris
	}
	bullets, err := pool.New[Bullet](s, nb)
	if err != nil {
		return nil, fmt.Errorf("game: bullet pool: %w", err)
	}
	debris, err := pool.New[Particle](s, nd)
	if err != nil {
		return nil, fmt.Errorf("game: debris pool: %w", err)
	}
	ships := cfg.Ships
	if ships == 0 {
		ships = 1
	}
	if ships < 1 || ships > MaxShips {
		return nil, fmt.Errorf("game: %d ships: want 1 to %d", cfg.Ships, MaxShips)
	}
	if cfg.Mode > PvP {
		return nil, fmt.Errorf("game: unknown mode %d", cfg.Mode)
	}
	na := asteroidCap(set)
	w := &World{
		ships:     ships,
		mode:      cfg.Mode,
		set:       set,
		saucers:   set.Saucers(),
		seed:      cfg.Seed,
		asteroids: make([]Asteroid, 0, na),
		bullets:   bullets,
		debris:    debris,
		hits:      make([]hit, 0, nb),
		// A step breaks at most every rock, every ship and the saucer.
		breaks: make([]breakEvent, 0, na+ships+1),
		grid:   grid{next: make([]int32, 0, na)},
	}
	w.pilot = &w.pilots[0]
	w.reset()
	return w, nil
}

// asteroidCap is the most asteroids any wave of set can have alive at once:
// each one of size s ends as at most 2^(s-1) pieces alive together.
func asteroidCap(set *levels.Set) int {
	n := 1
	for i := range len(set.Levels) + levels.Ramp + 1 { // later waves repeat the last
		l := set.Level(i)
		n = max(n, max(l.Asteroids, 0)<<(clampSize(l.Size)-1))
	}
	return min(n, maxAsteroids)
}

func clampSize(s int) int { return min(max(s, 1), 3) }

// reset puts the world in the state New gives it.
func (w *World) reset() {
	w.rng = rng{state: w.seed}
	w.steps, w.scored = 0, 0
	w.paused = false
	w.waveWait = 0
	w.bulletSerial, w.particleSerial, w.rockSerial, w.saucerSerial = 0, 0, 0, 0
	w.bullets.Clear()
	w.hostile = 0
	w.debris.Clear()
	w.asteroids = w.asteroids[:0]
	w.saucer = saucer{}
	for i := range w.pilots {
		w.pilots[i] = pilot{phase: Absent, killedBy: NoSlot}
	}
	if w.ships == 1 {
		w.pilot.enter()
		w.spawnShip(0, centre)
	}
	w.startWave(1)
}

// Restart begins a new game with the same seed, strategy, capacities, slots
// and mode: the world is then exactly as New made it (pool statistics keep
// counting).
func (w *World) Restart() { w.reset() }

// Steps returns how many steps were taken since New or Restart. Paused
// steps do not count.
func (w *World) Steps() uint64 { return w.steps }

// Ship returns the ship. Alive is false while respawning and after the game.
func (w *World) Ship() Ship { return w.ship }

// Asteroids returns the asteroids in spawn order. The slice is a read-only
// view into the world, valid until the next Step or Restart.
func (w *World) Asteroids() []Asteroid { return w.asteroids }

// Bullets returns the bullet pool, for reading and for statistics. Items
// must not be acquired or released from outside; switching its strategy
// between two steps is allowed and does not change the game.
func (w *World) Bullets() *pool.Pool[Bullet] { return w.bullets }

// BulletStats returns the bullet pool's statistics as a player meets
// them: its Misses count the shots refused over a slot's share too, as
// the 1979 game's four-shot table refused them, though the pool had room.
func (w *World) BulletStats() pool.Stats {
	st := w.bullets.Stats()
	st.Misses += w.overShare
	return st
}

// Debris returns the debris pool, under the same terms as Bullets.
func (w *World) Debris() *pool.Pool[Particle] { return w.debris }

// SetStrategy switches both pools to s between two steps. Every live bullet
// and particle is kept as it was, so the game goes on exactly as it would
// have. An unknown strategy is an error and changes nothing.
func (w *World) SetStrategy(s pool.Strategy) error { return w.SetStrategies(s, s) }

// StrategyName names the pools' strategies as high-score entries and an
// arena's news show them: "dense", or "dense/scan" for bullets/debris.
func (w *World) StrategyName() string {
	b, d := w.Bullets().Strategy(), w.Debris().Strategy()
	if b == d {
		return string(b)
	}
	return string(b) + "/" + string(d)
}

// SetStrategies switches the bullet pool to bullets and the debris pool to
// debris between two steps; "" keeps that pool's strategy. As with
// SetStrategy the game goes on exactly as it would have; an unknown name is
// an error and changes neither pool.
func (w *World) SetStrategies(bullets, debris pool.Strategy) error {
	for _, s := range [2]pool.Strategy{bullets, debris} {
		if s != "" && !slices.Contains(pool.Strategies(), s) {
			return fmt.Errorf("game: unknown strategy %q: allowed are %s", s, pool.StrategyNames())
		}
	}
	if bullets != "" {
		if err := w.bullets.SetStrategy(bullets); err != nil {
			return fmt.Errorf("game: %w", err)
		}
	}
	if debris != "" {
		if err := w.debris.SetStrategy(debris); err != nil {
			return fmt.Errorf("game: %w", err)
		}
	}
	return nil
}

// Score returns the points scored in this game.
func (w *World) Score() int { return w.score }

// Lives returns the ships left, the one in play included; 0 once the game
// is over.
func (w *World) Lives() int { return w.lives }

// Wave returns the current wave, starting at 1.
func (w *World) Wave() int { return w.wave }

// Level returns the level of the current wave: Set.Level(Wave()-1).
func (w *World) Level() levels.Level { return w.level }

// Phase returns whether the ship of slot 0 plays, waits to respawn, or the
// game is over; Absent in a world of several slots until slot 0 joins.
func (w *World) Phase() Phase { return w.phase }

// Paused reports whether Step is currently ignored.
func (w *World) Paused() bool { return w.paused }

// SetPaused pauses or resumes the game. While paused Step does nothing at
// all, so pausing never changes the outcome of a game.
func (w *World) SetPaused(p bool) { w.paused = p }

// Seed returns the seed the world was built with.
func (w *World) Seed() uint64 { return w.seed }

// LevelSet returns the level set the world plays.
func (w *World) LevelSet() *levels.Set { return w.set }
