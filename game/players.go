package game

import (
	"fmt"
	"math"
)

// NoSlot is the KilledBy of a ship that no player downed.
const NoSlot = -1

// spawnSpread is the spawn ellipse of a world of several slots, as a
// fraction of the field's width and height from the centre: a quarter
// keeps the points as far apart across the wrapping edges as within.
const spawnSpread = 0.25

// pilot is one slot: a player's ship, score, lives and timers.
type pilot struct {
	phase    Phase
	ship     Ship
	score    int
	lives    int
	nextLife int // score that gives the next ship

	fireWait    int  // steps until the gun is ready
	hyperWait   int  // steps until hyperspace is ready
	respawnWait int  // steps until a lost ship comes back at the latest
	blocked     bool // the ship was due back but its spawn point is not clear

	inFlight int    // this slot's bullets in the pool (they outlive a Leave)
	shots    int    // bullets fired in this game
	misses   int    // bullets refused in this game: over the share or a full pool
	refused  uint64 // the step of the last refusal; 0: none in this game
	kills    int    // ships downed (PvP)
	deaths   int    // ships lost
	killedBy int    // slot that downed the last ship lost, or NoSlot
}

// enter starts the slot's game: a fresh score and StartLives. The
// bullets it still has in flight keep counting against its share.
func (p *pilot) enter() {
	*p = pilot{phase: Respawning, lives: StartLives, nextLife: ExtraLifeEvery, killedBy: NoSlot, inFlight: p.inFlight,
		respawnWait: respawnLimit - respawnDelay + 1} // due in the next step
}

// inPlay reports whether the slot's ship is in the field or coming back.
func (p *pilot) inPlay() bool { return p.phase == Playing || p.phase == Respawning }

// hittable reports whether the ship is in the field and not invulnerable.
func (p *pilot) hittable() bool { return p.ship.Alive && p.ship.Invulnerable == 0 }

// addScore adds points and gives a ship for every ExtraLifeEvery crossed.
// Nothing scores once the slot's game is over.
func (p *pilot) addScore(n int) {
	if !p.inPlay() {
		return
	}
	p.score += n
	for p.score >= p.nextLife {
		p.lives++
		p.nextLife += ExtraLifeEvery
	}
}

// Player is what a front end shows of one slot.
type Player struct {
	Ship     Ship  // Alive is false unless Phase is Playing
	Phase    Phase // Absent for a free slot
	Score    int
	Lives    int // ships left, the one in play included
	InFlight int // bullets of the slot in the pool
	Shots    int // bullets fired in this game
	Misses   int // bullets refused in this game: over the slot's share, or the pool full
	// Refused is the step ([World.Steps]) in which the slot's last shot
	// was refused, 0 if none was in this game: a front end marks it at
	// the ship's nose for a moment, so that a player feels the pool's
	// limit where they look.
	Refused  uint64
	Kills    int // ships downed by the slot's bullets (PvP)
	Deaths   int // ships lost in this game
	KilledBy int // slot whose bullet downed the last ship lost; NoSlot for a rock, a saucer or hyperspace
	// Respawn is, while Phase is Respawning, the steps until the ship comes
	// back at the latest; Due, the steps until it is due back, when it
	// comes back if its spawn point is clear (0 once it was due). Blocked
	// says its spawn point was not clear when it was due: it comes back
	// as soon as it is, or at the clearest spot of the field when Respawn
	// runs out. A front end counts down to Due, then to Respawn, so the
	// field never looks empty without a word.
	Respawn int
	Due     int
	Blocked bool
}

// Player returns slot's state; 0 <= slot < MaxShips. It allocates nothing.
func (w *World) Player(slot int) Player {
	p := &w.pilots[slot]
	return Player{
		Ship: p.ship, Phase: p.phase, Score: p.score, Lives: p.lives,
		InFlight: p.inFlight, Shots: p.shots, Misses: p.misses, Refused: p.refused,
		Kills: p.kills, Deaths: p.deaths, KilledBy: p.killedBy,
		Respawn: p.respawnWait, Due: p.due(), Blocked: p.blocked,
	}
}

// due is the steps until a waiting ship is due back: see Player.Due.
func (p *pilot) due() int {
	if p.phase != Respawning {
		return 0
	}
	return max(p.respawnWait-(respawnLimit-respawnDelay), 0)
}

// Ships returns the number of slots: Config.Ships, or 1.
func (w *World) Ships() int { return w.ships }

// Mode returns whom bullets hurt.
func (w *World) Mode() Mode { return w.mode }

// Join puts a player in slot, which must be free or at its game's end: a
// fresh score, StartLives ships, and a ship that enters by the respawn rules
// (at its SpawnPoint once that is clear, within 3 s at the latest,
// invulnerable for a while), at the earliest in the next step. It is an
// error to join a slot out of range or in play; the world is then
// unchanged.
func (w *World) Join(slot int) error {
	if slot < 0 || slot >= w.ships {
		return fmt.Errorf("game: join slot %d: the world has slots 0 to %d", slot, w.ships-1)
	}
	p := &w.pilots[slot]
	if p.inPlay() {
		return fmt.Errorf("game: join slot %d: its ship is in play", slot)
	}
	p.enter()
	return nil
}

// Leave takes slot's ship out of the world at once (no debris); its bullets
// fly on and still hit. Leaving a free or unknown slot does nothing.
func (w *World) Leave(slot int) {
	if slot < 0 || slot >= w.ships {
		return
	}
	p := &w.pilots[slot]
	p.phase = Absent
	p.ship.Alive, p.ship.Thrusting = false, false
}

// Share returns how many bullets one slot may have in flight: the bullet
// pool's capacity divided among the n slots in play, rounded up
// (⌈capacity/n⌉, at least 1), and no more than the level set's Shots when
// it has them. See the package doc, "Fair pools".
func (w *World) Share() int {
	n := w.slotsInPlay()
	share := max((w.bullets.Cap()+n-1)/max(n, 1), 1)
	if w.set.Shots > 0 {
		share = min(share, w.set.Shots)
	}
	return share
}

// OverShare returns how many shots the world refused because their slot
// had its Share in flight while the bullet pool had room: the refusals
// the pool's own Misses do not count. Together they are every bullet
// the game asked for and did not get. Like the pool's counters it never
// goes back to zero.
func (w *World) OverShare() uint64 { return w.overShare }

// slotsInPlay counts the slots whose game is on. Waves advance and
// saucers come only while there is one.
func (w *World) slotsInPlay() int {
	n := 0
	for i := range w.ships {
		if w.pilots[i].inPlay() {
			n++
		}
	}
	return n
}

// spawnShip puts a new ship in slot's place at pos, pointing up,
// invulnerable for a while.
func (w *World) spawnShip(slot int, pos Vec) {
	p := &w.pilots[slot]
	p.ship = Ship{
		Pos:          pos,
		Angle:        -math.Pi / 2,
		Alive:        true,
		Invulnerable: InvulnerableSteps,
	}
	p.phase = Playing
	p.fireWait, p.hyperWait, p.respawnWait, p.blocked = 0, 0, 0, false
}

// SpawnPoint returns where slot's ship enters and comes back when it is
// clear: the centre in a world of one slot; in a world of several, spread
// on an ellipse around the centre, one point per slot, so ships entering
// together are apart. A ship blocked for too long comes back elsewhere
// (see [Player].Blocked).
func (w *World) SpawnPoint(slot int) Vec {
	if w.ships == 1 {
		return centre
	}
	a := -math.Pi/2 + 2*math.Pi*float64(slot)/float64(w.ships)
	return centre.add(Vec{spawnSpread * Width * math.Cos(a), spawnSpread * Height * math.Sin(a)})
}
