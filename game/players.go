package game

import (
	"fmt"
	"math"
)

// NoSlot is the KilledBy of a ship that no player downed.
const NoSlot = -1

// spawnRing is how far from the centre the ships of slots 1 and up come
// back, each at its own angle, so that ships respawning together do not
// cover each other; slot 0 comes back in the centre itself.
const spawnRing = 80.0

// pilot is one slot: a player's ship, score, lives and timers.
type pilot struct {
	phase    Phase
	ship     Ship
	score    int
	lives    int
	nextLife int // score that gives the next ship

	fireWait    int // steps until the gun is ready
	hyperWait   int // steps until hyperspace is ready
	respawnWait int // steps until a lost ship may come back

	inFlight int // this slot's bullets in the pool (they outlive a Leave)
	shots    int // bullets fired in this game
	misses   int // bullets refused in this game: over the share or a full pool
	kills    int // ships downed (PvP)
	deaths   int // ships lost
	killedBy int // slot that downed the last ship lost, or NoSlot
}

// enter starts the slot's game: a fresh score and StartLives. The
// bullets it still has in flight keep counting against its share.
func (p *pilot) enter() {
	*p = pilot{phase: Respawning, lives: StartLives, nextLife: ExtraLifeEvery, killedBy: NoSlot, inFlight: p.inFlight}
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
	Kills    int // ships downed by the slot's bullets (PvP)
	Deaths   int // ships lost in this game
	KilledBy int // slot whose bullet downed the last ship lost; NoSlot for a rock, a saucer or hyperspace
}

// Player returns slot's state; 0 <= slot < MaxShips. It allocates nothing.
func (w *World) Player(slot int) Player {
	p := &w.pilots[slot]
	return Player{
		Ship: p.ship, Phase: p.phase, Score: p.score, Lives: p.lives,
		InFlight: p.inFlight, Shots: p.shots, Misses: p.misses,
		Kills: p.kills, Deaths: p.deaths, KilledBy: p.killedBy,
	}
}

// Ships returns the number of slots: Config.Ships, or 1.
func (w *World) Ships() int { return w.ships }

// Mode returns whom bullets hurt.
func (w *World) Mode() Mode { return w.mode }

// Join puts a player in slot, which must be free or at its game's end: a
// fresh score, StartLives ships, and a ship that enters by the respawn rules
// (once the centre is clear, invulnerable for a while), at the earliest in
// the next step. It is an error to join a slot out of range or in play;
// the world is then unchanged.
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
// (⌈capacity/n⌉, at least 1). See the package doc, "Fair pools".
func (w *World) Share() int {
	n := w.slotsInPlay()
	return max((w.bullets.Cap()+n-1)/max(n, 1), 1)
}

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

// spawnShip puts a new ship in slot's place at the centre, pointing up,
// invulnerable for a while.
func (w *World) spawnShip(slot int) {
	p := &w.pilots[slot]
	p.ship = Ship{
		Pos:          spawnPos(slot),
		Angle:        -math.Pi / 2,
		Alive:        true,
		Invulnerable: InvulnerableSteps,
	}
	p.phase = Playing
	p.fireWait, p.hyperWait = 0, 0
}

// spawnPos is where slot's ship comes back: the centre for slot 0, a ring
// around it for the others.
func spawnPos(slot int) Vec {
	if slot == 0 {
		return centre
	}
	return centre.add(polar(2*math.Pi*float64(slot-1)/(MaxShips-1), spawnRing))
}
