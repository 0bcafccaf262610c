// Package match is the flow of one player's games around a [game.World]:
// the title with its demo, play, game over and the next game; the stress
// mode's autopilot; whether a game's score counts; pausing and strategy
// switches. The terminal, the SSH server and arenas drive it alike; it is
// headless and has no clock: a front end calls [Match.Step] once per world
// step with the keys the player holds, and draws what the accessors say.
//
// In an arena ([NewSeat]) the world is shared and stepped by the arena:
// the match follows the seat's ship ([Match.Observe]) and asks the seat
// for what it may not do itself (a new game, a switch); the stress
// autopilot does not play there.
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
	"poolroids/game/daily"
	"poolroids/game/hub"
	"poolroids/game/replay"
	"poolroids/levels"
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
}

// Match is one player's flow. It is not safe for concurrent use: a front
// end calls it under the lock it steps and draws under.
type Match struct {
	cfg     game.Config
	world   *game.World // the world on screen: play's, or the stress game's
	play    *game.World // the player's world (title, play)
	press   *game.World // the stress games' world; nil until the first
	seat    *hub.Seat   // an arena's seat; nil for a world of one's own
	phase   Phase
	stress  bool // the stress autopilot plays
	helped  bool // the autopilot played part of the current game
	demo    game.Autopilot
	pilot   game.Autopilot
	steps   uint64
	overAt  uint64      // step at which the current game ended; 0: not ended
	endedAt uint64      // the world's step at which the player's game ended (see OverHold)
	due     bool        // Start came in the game-over screen's hold: a game starts once it is over
	best    int         // the best score of a game that counts, ended or left
	current game.Player // an arena seat's, as last observed
	wave    int         // the arena's wave, likewise
	label   string      // the arena's strategies, likewise
	seen    uint64      // the arena world's steps, likewise

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
	m := &Match{cfg: cfg, world: w, play: w}
	if stress {
		if err := m.startStress(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// NewSeat follows seat, already playing in its arena.
func NewSeat(seat *hub.Seat) *Match {
	return &Match{seat: seat, world: seat.Arena().World(), phase: Play}
}

// World returns the world on screen. It changes when a game starts (each
// one recorded in a world of its own) and when stress games start and end;
// in an arena it is the arena's, read under its lock only.
func (m *Match) World() *game.World { return m.world }

// SetPlayer names the player in the recordings of the games to come.
func (m *Match) SetPlayer(name string) { m.player = replay.FitName(name) }

// Seat returns the arena seat, or nil.
func (m *Match) Seat() *hub.Seat { return m.seat }

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
func (m *Match) Step(keys game.Input) (Result, bool) {
	if m.seat != nil {
		return Result{}, false
	}
	m.StartDue()
	w := m.world
	in := keys
	switch {
	case m.phase == Title:
		in = m.demo.Input(w)
	case m.phase == Over:
		in = game.Input{}
	case m.stress:
		in = m.pilot.Input(w)
	}
	if m.rec != nil {
		m.in[0] = in
		m.rec.Step(&m.in)
	} else {
		w.Step(in)
	}
	m.steps++
	if m.daily && m.phase == Play && w.Steps() >= daily.MaxSteps && w.Phase() != game.GameOver {
		return m.Leave() // as long as a daily game may be: longer, no board would take it
	}
	if w.Phase() != game.GameOver {
		return Result{}, false
	}
	if m.overAt == 0 {
		m.overAt = m.steps
		if m.phase == Play {
			m.phase, m.endedAt = Over, m.worldSteps()
			return m.finish(), true
		}
	}
	switch {
	case m.steps-m.overAt < OverSteps: // the game-over screen stays a while
	case m.phase == Title:
		m.newGame(Title)
	case m.stress:
		m.newGame(Play)
	}
	return Result{}, false
}

// Observe follows the arena seat's ship; the caller holds the arena's read
// lock. It returns the seat's game when it just ended: the player is then
// on the game-over screen until Start. Without a seat it does nothing.
func (m *Match) Observe() (Result, bool) {
	if m.seat == nil {
		return Result{}, false
	}
	m.follow()
	if m.current.Phase != game.GameOver || m.phase != Play {
		return Result{}, false
	}
	return m.Leave()
}

// follow takes the seat's ship as the arena's world has it now.
func (m *Match) follow() {
	m.current, m.wave, m.label = m.world.Player(m.seat.Slot()), m.world.Wave(), m.world.StrategyName()
	m.seen = m.world.Steps()
}

// finish counts the current game in Best when it counts, ends its
// recording, and returns it.
func (m *Match) finish() Result {
	r := m.result()
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

// result is the current game as it stands.
func (m *Match) result() Result {
	if m.seat != nil {
		return Result{Score: m.current.Score, Wave: m.wave, Strategy: m.label, Counts: !m.helped}
	}
	w := m.world
	return Result{Score: w.Score(), Wave: w.Wave(), Strategy: w.StrategyName(), Counts: !m.Assisted()}
}

// Current returns the arena seat's state as last observed.
func (m *Match) Current() game.Player { return m.current }

// Leave ends the game in play as the player leaves it (quits, or hands
// it to the stress autopilot) and returns it: like a game that ended, it
// counts in Best as it stands, and when it counts its Result carries its
// recording, for the score table. It reports false when no game was in
// play; the player is then on the game-over screen until Start. In an
// arena the caller holds the arena's read lock.
func (m *Match) Leave() (Result, bool) {
	if m.phase != Play {
		return Result{}, false
	}
	if m.seat != nil {
		m.follow() // the score as it stands, not as last observed
	}
	m.phase, m.endedAt = Over, m.worldSteps()
	r := m.finish()
	if r.Counts && m.seat != nil {
		r.Replay = m.seat.Arena().Recording()
	}
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
	return OverHold - min(m.worldSteps()-m.endedAt, OverHold)
}

// worldSteps is the steps the world on screen has taken: in an arena, as
// last observed, since only the arena's lock lets it be read.
func (m *Match) worldSteps() uint64 {
	if m.seat != nil {
		return m.seen
	}
	return m.world.Steps()
}

// newGame starts a game in phase p, leaving the one in play (which counts
// as it stands).
func (m *Match) newGame(p Phase) bool {
	if m.phase == Play {
		m.finish()
	}
	if m.seat != nil {
		if m.seat.Rejoin() != nil {
			return false // its game is still on
		}
		m.current = game.Player{Phase: game.Respawning, Lives: game.StartLives, KilledBy: game.NoSlot}
	} else if p != Play || m.stress || !m.record() {
		m.world.Restart()
		// Each game's figures start from zero, the demo's included.
		m.world.Bullets().ResetStats()
		m.world.Debris().ResetStats()
	}
	m.phase, m.overAt, m.due = p, 0, false
	m.helped = p == Play && m.stress
	m.demo, m.pilot = game.Autopilot{}, game.Autopilot{Pressure: true}
	return true
}

// record starts recording a new game in a world of its own, built as
// Restart leaves the player's and with its strategies. It reports whether
// it did; a game that cannot be recorded is played unrecorded.
func (m *Match) record() bool {
	cfg := m.cfg
	b, d := m.play.Bullets().Strategy(), m.play.Debris().Strategy()
	cfg.Strategy = b
	var players []string
	if m.player != "" {
		players = []string{m.player}
	}
	rec, err := replay.NewRecorder(cfg, replay.Options{Players: players})
	if err != nil {
		return false
	}
	if d != b && rec.SetStrategies("", d) != nil {
		return false
	}
	if m.ghost != nil {
		_ = rec.SetGhost(m.ghost) // checked by SetGhost before: a ghost that cannot fly leaves the game as it is
	}
	m.rec, m.play, m.world = rec, rec.World(), rec.World()
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
// back to the title. In an arena it does nothing and returns ErrShared.
func (m *Match) ToggleStress() error {
	if m.seat != nil {
		return ErrShared
	}
	if m.daily {
		return ErrDaily
	}
	if m.stress {
		m.stress = false
		m.leaveStress()
		m.newGame(Title)
		return nil
	}
	return m.startStress()
}

// startStress starts a stress game on the pressure world (built on first
// use with the player's capacities) with the pools' current strategies.
func (m *Match) startStress() error {
	if m.phase == Play {
		m.drop()
		m.phase = Over // the player's game is left, not continued
	}
	if m.press == nil {
		cfg := m.cfg
		if cfg.Levels == nil {
			cfg.Levels = levels.Pressure()
			cfg.Bullets, cfg.Debris = m.play.Bullets().Cap(), m.play.Debris().Cap()
		}
		w, err := game.New(cfg)
		if err != nil {
			return err
		}
		m.press = w
	}
	if err := m.press.SetStrategies(m.world.Bullets().Strategy(), m.world.Debris().Strategy()); err != nil {
		return err
	}
	m.world, m.stress = m.press, true
	m.phase = Over
	m.newGame(Play)
	return nil
}

// leaveStress goes back to the player's world with the stress world's
// strategies.
func (m *Match) leaveStress() {
	b, d := m.world.Bullets().Strategy(), m.world.Debris().Strategy()
	m.world = m.play
	_ = m.world.SetStrategies(b, d) // names the other world's pools took
}

// TogglePause pauses or resumes a game in play and reports whether it did;
// an arena never pauses.
func (m *Match) TogglePause() bool {
	if m.seat != nil || m.phase != Play {
		return false
	}
	m.world.SetPaused(!m.world.Paused())
	return true
}

// SetStrategies switches the pools through the world ("" keeps a pool's);
// in an arena through the seat, which only the creator may
// (hub.ErrNotCreator).
func (m *Match) SetStrategies(bullets, debris pool.Strategy) error {
	if m.seat != nil {
		return m.seat.SetStrategies(bullets, debris)
	}
	if m.rec != nil {
		return m.rec.SetStrategies(bullets, debris)
	}
	return m.world.SetStrategies(bullets, debris)
}
