// Package match is the flow of one player's games around a [game.World]:
// the title with its demo, play, game over and the next game; the stress
// mode's autopilot; whether a game's score counts; pausing and strategy
// switches. The terminal, the SSH server and arenas drive it alike; it is
// headless and has no clock: a front end calls [Match.Step] once per world
// step with the keys the player holds, and draws what the accessors say.
//
// In an arena ([NewSeat]) the world is shared and stepped by the arena:
// the match follows the seat's ship ([Match.Observe], within
// [Match.Still]) and asks the seat for what it may not do itself (a new
// game, a switch); the stress autopilot does not play there, nor does the
// game pause. New or NewSeat decides once where the games are played; a
// front end calls the same methods either way and never asks which.
//
// # Recording
//
// Every game a player plays is recorded (package game/replay) as it is
// played, and its [Result] carries the file: a solo game from its start in
// a world built afresh (its own, each game's), an arena's game from the
// arena's opening to the player's game over ([hub.Arena.Recording]). The
// demo and stress games are not recorded. Recording a step allocates
// nothing; it appends a byte now and then to a buffer the game began with.
package match

import (
	"errors"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/replay"
	"poolroids/pool"
)

// Phase is which screen the player is on.
type Phase uint8

const (
	Title Phase = iota // the demo plays under the title
	Play               // the player (or the stress autopilot) plays
	Over               // the game is over: its score shows
)

// OverSteps is how long the game-over screen of the demo or of a stress
// game stays before the next one starts by itself.
const OverSteps = 3 * game.TPS

// The game-over screen of the player's own game stays OverHold steps at
// the least, and ignores [Match.Start] for its first OverDeaf: a player
// still tapping fire as the last ship goes sees the score, the rank and
// the table, long enough to read them; a press in the last second starts
// the next game as the hold ends.
const (
	OverHold = 3 * game.TPS
	OverDeaf = 2 * game.TPS
)

// Result is a game that ended or was left.
type Result struct {
	Score, Wave int
	Strategy    string // the pools' strategies at the end: "dense", or "dense/scan" for bullets/debris
	// Counts is false for the demo and for a game the autopilot played
	// part of: its score is not the player's.
	Counts bool
	// Replay is the game's recording, a replay file that plays and checks
	// to the game's end (package game/replay); nil for a game that does
	// not count, or that could not be recorded. It is the caller's.
	Replay []byte
	// Arena is the name of the arena the game was played in; "": a world
	// of the player's own.
	Arena string
}

// Match is one player's flow. It is not safe for concurrent use: a front
// end calls it under the lock it steps and draws under.
type Match struct {
	place   place       // where the games are played: a world of one's own, or a seat
	world   *game.World // the world on screen: the player's, the stress game's, or the arena's
	phase   Phase
	stress  bool   // the stress autopilot plays
	helped  bool   // the autopilot played part of the current game
	endedAt uint64 // the world's step at which the player's game ended (see OverHold)
	due     bool   // Start came in the game-over screen's hold: a game starts once it is over
	best    int    // the best score of a game that counts, ended or left

	rec    *replay.Recorder // the solo game in play's recording; nil outside one
	in     game.Inputs      // the step's input for rec
	player string           // the name recordings give the player

	daily bool   // a daily game: no stress autopilot, and at most daily.MaxSteps
	ghost []byte // the replay that flies beside each game as its ghost; nil: none
}

// New builds the player's world from cfg and starts on the title, or with
// stress under the stress autopilot. Stress games play the stress mode's
// pressure levels (levels.Pressure) with cfg's capacities, so that
// they fill the pools within seconds; when cfg names a level set of its
// own, they play that instead.
func New(cfg game.Config, stress bool) (*Match, error) {
	w, err := game.New(cfg)
	if err != nil {
		return nil, err
	}
	o := &own{cfg: cfg, play: w}
	m := &Match{place: o, world: w}
	if stress {
		if err := o.startStress(m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// NewSeat follows seat, already playing in its arena.
func NewSeat(seat *hub.Seat) *Match {
	return &Match{place: &seated{seat: seat}, world: seat.Arena().World(), phase: Play}
}

// World returns the world on screen. It changes when a game starts (each
// one recorded in a world of its own) and when stress games start and end;
// in an arena it is the arena's, read under its lock only.
func (m *Match) World() *game.World { return m.world }

// SetPlayer names the player in the recordings of the games to come.
func (m *Match) SetPlayer(name string) { m.player = replay.FitName(name) }

// Seat returns the arena seat, or nil.
func (m *Match) Seat() *hub.Seat {
	if s, ok := m.place.(*seated); ok {
		return s.seat
	}
	return nil
}

// Phase returns the screen the player is on.
func (m *Match) Phase() Phase { return m.phase }

// Stress reports whether the stress autopilot plays.
func (m *Match) Stress() bool { return m.stress }

// Assisted reports whether the current game's score does not count: the
// demo, or the autopilot played part of it.
func (m *Match) Assisted() bool { return m.phase == Title || m.helped }

// Best returns the best score of the games that counted, the one in play
// included once it ends or is left.
func (m *Match) Best() int { return m.best }

// Step steps the world one step: with keys while the player plays, with
// the demo's input on the title and the stress autopilot's in stress mode,
// with none on the game-over screen. A paused world does not move. It
// returns the game that ended in this step, if one did; the demo and
// stress games start again by themselves OverSteps after they end. In an
// arena, where the arena steps, it does nothing.
func (m *Match) Step(keys game.Input) (Result, bool) { return m.place.step(m, keys) }

// Observe follows the arena seat's ship; the caller holds the arena's read
// lock (see [Match.Still]). It returns the seat's game when it just ended:
// the player is then on the game-over screen until Start. Without a seat
// it does nothing.
func (m *Match) Observe() (Result, bool) { return m.place.observe(m) }

// Still calls fn while the world on screen cannot step: in an arena under
// the arena's read lock, which Observe and Leave need there; in a world of
// the player's own, which steps only through Step, at once. The caller
// holds the lock the Match is used under (Still takes the arena's after it).
func (m *Match) Still(fn func()) {
	// Not through place: fn would escape, its captures to the heap, on
	// each Observe.
	if s, ok := m.place.(*seated); ok {
		s.still(fn)
		return
	}
	fn()
}

// finish counts the current game in Best when it counts, ends its
// recording, and returns it.
func (m *Match) finish() Result {
	r := m.place.result(m)
	if r.Counts {
		m.best = max(m.best, r.Score)
	}
	if rec := m.rec; rec != nil {
		m.rec = nil
		if rec.Close() == nil && r.Counts { // kept in memory: Close cannot fail
			r.Replay = rec.Bytes()
		}
	}
	return r
}

// drop ends the game in play uncounted, as the stress autopilot takes
// over: neither Best nor a replay keeps it, as the score table does not.
func (m *Match) drop() {
	if rec := m.rec; rec != nil {
		m.rec = nil
		_ = rec.Close() // kept in memory: Close cannot fail
	}
}

// Current returns the arena seat's state as last observed; the zero
// Player without a seat.
func (m *Match) Current() game.Player {
	if s, ok := m.place.(*seated); ok {
		return s.current
	}
	return game.Player{}
}

// Leave ends the game in play as the player leaves it (quits, or hands
// it to the stress autopilot) and returns it: like a game that ended, it
// counts in Best as it stands, and when it counts its Result carries its
// recording, for the score table. It reports false when no game was in
// play; the player is then on the game-over screen until Start. In an
// arena the caller holds the arena's read lock (see [Match.Still]).
func (m *Match) Leave() (Result, bool) {
	if m.phase != Play {
		return Result{}, false
	}
	r := m.finish()
	m.phase, m.endedAt = Over, m.place.steps(m)
	return r, true
}

// Start starts a new game from the title or the game-over screen and
// reports whether it did, or will: on the game-over screen of the
// player's game it does nothing for its first OverDeaf steps, and later
// within its OverHold it has the game start once the hold is over.
// During a game it does nothing.
func (m *Match) Start() bool {
	switch {
	case m.phase == Play:
		return false
	case m.phase == Over && m.held() > OverHold-OverDeaf:
		return false
	case m.phase == Over && m.held() > 0:
		m.due = true
		return true
	}
	return m.newGame(Play)
}

// StartDue starts the game Start asked for in the game-over screen's
// hold once the hold is over, and reports whether it did. Step calls it;
// in an arena the caller does, after Observe, without the arena's lock.
func (m *Match) StartDue() bool {
	if !m.due || m.held() > 0 {
		return false
	}
	return m.newGame(Play)
}

// held is how many steps the game-over screen of the player's game
// still holds; 0 outside it.
func (m *Match) held() uint64 {
	if m.phase != Over || m.stress {
		return 0
	}
	return OverHold - min(m.place.steps(m)-m.endedAt, OverHold)
}

// newGame starts a game in phase p, leaving the one in play (which counts
// as it stands), and reports whether it did.
func (m *Match) newGame(p Phase) bool {
	if !m.place.start(m, p) {
		return false
	}
	m.phase, m.due = p, false
	m.helped = p == Play && m.stress
	return true
}

// ErrShared is ToggleStress's answer in an arena: the stress autopilot
// would play, score and (in PvP) kill in a world others share.
var ErrShared = errors.New("match: no stress autopilot in an arena")

// ErrDaily is ToggleStress's answer in a daily game, whose games are the
// day's and whose world is its own.
var ErrDaily = errors.New("no stress autopilot in the daily game")

// SetDaily makes the match's games daily games (package game/daily): the
// stress autopilot does not play them, and a game is left, as the player
// leaves it, after daily.MaxSteps steps, the longest a board ranks. The
// Config given to New is then the day's (daily.Config).
func (m *Match) SetDaily() { m.daily = true }

// SetGhost makes the solo game replay in data fly beside the player's
// games as a ghost (see replay.Recorder.SetGhost): the game in play from
// now, playing the steps it missed first, and each new game from its
// start; nil: none. data must not change afterwards. Its error is the
// recorder's for a replay that cannot fly; the ghost then flies in no
// game.
func (m *Match) SetGhost(data []byte) error {
	if m.rec != nil {
		if err := m.rec.SetGhost(data); err != nil {
			m.ghost = nil
			return err
		}
	}
	m.ghost = data
	return nil
}

// Ghost returns the ghost flying beside the game in play, or nil: it is
// stepped with the game, and read under the same lock.
func (m *Match) Ghost() *replay.Ghost {
	if m.rec == nil {
		return nil
	}
	return m.rec.Ghost()
}

// ToggleStress starts the stress autopilot, in a stress game of its own
// (the game in play is left and does not count), or stops it and goes
// back to the title. Where the autopilot may not play (see
// [Match.CanStress]) it changes nothing and returns why.
func (m *Match) ToggleStress() error { return m.place.toggleStress(m) }

// CanStress returns why ToggleStress would change nothing, or nil: in an
// arena ErrShared, in a daily game ErrDaily.
func (m *Match) CanStress() error { return m.place.canStress(m) }

// TogglePause pauses or resumes a game in play and reports whether it did;
// an arena never pauses.
func (m *Match) TogglePause() bool { return m.phase == Play && m.place.togglePause(m) }

// Paused reports whether the world on screen is paused; an arena never is.
func (m *Match) Paused() bool { return m.place.paused(m) }

// SetStrategies switches the pools through the world ("" keeps a pool's);
// in an arena through the seat, which only the creator may
// (hub.ErrNotCreator).
func (m *Match) SetStrategies(bullets, debris pool.Strategy) error {
	return m.place.setStrategies(m, bullets, debris)
}
