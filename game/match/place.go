package match

import (
	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/hub"
	"poolroids/game/replay"
	"poolroids/levels"
	"poolroids/pool"
)

// place is where a Match's games are played: a world of the player's own
// (own) or a seat in an arena (seated), chosen once by New or NewSeat.
// The flow (phases, the game-over hold, best, what counts) is Match's;
// what differs between the two places is their methods.
type place interface {
	// step steps the world one step (Match.Step); seated: none, the
	// arena steps.
	step(m *Match, keys game.Input) (Result, bool)
	// observe follows the seat's ship (Match.Observe); own: nothing.
	observe(m *Match) (Result, bool)
	// result is the game in play as it stands, with where it was played;
	// seated: with the arena's recording when it counts.
	result(m *Match) Result
	// steps is how many steps the world on screen has taken: seated, as
	// last observed, since only the arena's lock lets it be read.
	steps(m *Match) uint64
	// start starts a game in phase p, or reports why not (false): own
	// restarts the world or records a new one; seated rejoins the arena,
	// which refuses while the seat's game is on.
	start(m *Match, p Phase) bool
	// canStress and toggleStress are Match's: seated refuses (ErrShared).
	canStress(m *Match) error
	toggleStress(m *Match) error
	// togglePause pauses or resumes the game in play; seated: never.
	togglePause(m *Match) bool
	paused(m *Match) bool
	// setStrategies switches the pools: own, its world's; seated, the
	// arena's through the seat.
	setStrategies(m *Match, bullets, debris pool.Strategy) error
}

// own is a world of the player's own, stepped by Match.Step: the title's
// demo, the player's games (each recorded in a world of its own), and
// the stress games on a world of theirs.
type own struct {
	cfg    game.Config
	play   *game.World // the player's world (title, play)
	press  *game.World // the stress games' world; nil until the first
	demo   game.Autopilot
	pilot  game.Autopilot
	ticks  uint64 // Step calls
	overAt uint64 // tick at which the current game ended; 0: not ended
}

func (o *own) step(m *Match, keys game.Input) (Result, bool) {
	m.StartDue()
	w := m.world
	in := keys
	switch {
	case m.phase == Title:
		in = o.demo.Input(w)
	case m.phase == Over:
		in = game.Input{}
	case m.stress:
		in = o.pilot.Input(w)
	}
	if m.rec != nil {
		m.in[0] = in
		m.rec.Step(&m.in)
	} else {
		w.Step(in)
	}
	o.ticks++
	if m.daily && m.phase == Play && w.Steps() >= daily.MaxSteps && w.Phase() != game.GameOver {
		return m.Leave() // as long as a daily game may be: longer, no board would take it
	}
	if w.Phase() != game.GameOver {
		return Result{}, false
	}
	if o.overAt == 0 {
		o.overAt = o.ticks
		if m.phase == Play {
			return m.Leave()
		}
	}
	switch {
	case o.ticks-o.overAt < OverSteps: // the game-over screen stays a while
	case m.phase == Title:
		m.newGame(Title)
	case m.stress:
		m.newGame(Play)
	}
	return Result{}, false
}

func (o *own) observe(*Match) (Result, bool) { return Result{}, false }

func (o *own) result(m *Match) Result {
	w := m.world
	return Result{Score: w.Score(), Wave: w.Wave(), Strategy: w.StrategyName(), Counts: !m.Assisted()}
}

func (o *own) steps(m *Match) uint64 { return m.world.Steps() }

func (o *own) start(m *Match, p Phase) bool {
	if m.phase == Play {
		m.finish()
	}
	if p != Play || m.stress || !o.record(m) {
		m.world.Restart()
		// Each game's figures start from zero, the demo's included.
		m.world.Bullets().ResetStats()
		m.world.Debris().ResetStats()
	}
	o.overAt = 0
	o.demo, o.pilot = game.Autopilot{}, game.Autopilot{Pressure: true}
	return true
}

// record starts recording a new game in a world of its own, built as
// Restart leaves the player's and with its strategies. It reports whether
// it did; a game that cannot be recorded is played unrecorded.
func (o *own) record(m *Match) bool {
	cfg := o.cfg
	b, d := o.play.Bullets().Strategy(), o.play.Debris().Strategy()
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
	m.rec, o.play, m.world = rec, rec.World(), rec.World()
	return true
}

func (o *own) canStress(m *Match) error {
	if m.daily {
		return ErrDaily
	}
	return nil
}

func (o *own) toggleStress(m *Match) error {
	if err := o.canStress(m); err != nil {
		return err
	}
	if m.stress {
		m.stress = false
		o.leaveStress(m)
		m.newGame(Title)
		return nil
	}
	return o.startStress(m)
}

// startStress starts a stress game on the pressure world (built on first
// use with the player's capacities) with the pools' current strategies.
func (o *own) startStress(m *Match) error {
	if m.phase == Play {
		m.drop()
		m.phase = Over // the player's game is left, not continued
	}
	if o.press == nil {
		cfg := o.cfg
		if cfg.Levels == nil {
			cfg.Levels = levels.Pressure()
			cfg.Bullets, cfg.Debris = o.play.Bullets().Cap(), o.play.Debris().Cap()
		}
		w, err := game.New(cfg)
		if err != nil {
			return err
		}
		o.press = w
	}
	if err := o.press.SetStrategies(m.world.Bullets().Strategy(), m.world.Debris().Strategy()); err != nil {
		return err
	}
	m.world, m.stress = o.press, true
	m.phase = Over
	m.newGame(Play)
	return nil
}

// leaveStress goes back to the player's world with the stress world's
// strategies.
func (o *own) leaveStress(m *Match) {
	b, d := m.world.Bullets().Strategy(), m.world.Debris().Strategy()
	m.world = o.play
	_ = m.world.SetStrategies(b, d) // names the other world's pools took
}

func (o *own) togglePause(m *Match) bool {
	m.world.SetPaused(!m.world.Paused())
	return true
}

func (o *own) paused(m *Match) bool { return m.world.Paused() }

func (o *own) setStrategies(m *Match, bullets, debris pool.Strategy) error {
	if m.rec != nil {
		return m.rec.SetStrategies(bullets, debris)
	}
	return m.world.SetStrategies(bullets, debris)
}

// seated is a seat in an arena, whose world the arena steps and shares:
// the Match follows the seat's ship, read under the arena's lock, and
// asks the seat for what it may not do itself (a new game, a switch).
type seated struct {
	seat    *hub.Seat
	current game.Player // the seat's ship, as last observed
	wave    int         // the arena's wave, likewise
	label   string      // the arena's strategies, likewise
	seen    uint64      // the arena world's steps, likewise
}

func (s *seated) step(*Match, game.Input) (Result, bool) { return Result{}, false }

func (s *seated) observe(m *Match) (Result, bool) {
	s.follow(m)
	if s.current.Phase != game.GameOver || m.phase != Play {
		return Result{}, false
	}
	return m.Leave()
}

// follow takes the seat's ship as the arena's world has it now.
func (s *seated) follow(m *Match) {
	s.current, s.wave, s.label = m.world.Player(s.seat.Slot()), m.world.Wave(), m.world.StrategyName()
	s.seen = m.world.Steps()
}

// still calls fn under the arena's read lock (Match.Still).
func (s *seated) still(fn func()) { s.seat.Arena().View(func(hub.ArenaView) { fn() }) }

func (s *seated) result(m *Match) Result {
	s.follow(m) // the score as it stands, not as last observed
	a := s.seat.Arena()
	r := Result{Score: s.current.Score, Wave: s.wave, Strategy: s.label, Counts: !m.helped, Arena: a.Name()}
	if r.Counts {
		r.Replay = a.Recording()
	}
	return r
}

func (s *seated) steps(*Match) uint64 { return s.seen }

func (s *seated) start(*Match, Phase) bool {
	if s.seat.Rejoin() != nil {
		return false // its game is still on
	}
	s.current = game.Player{Phase: game.Respawning, Lives: game.StartLives, KilledBy: game.NoSlot}
	return true
}

func (s *seated) canStress(*Match) error    { return ErrShared }
func (s *seated) toggleStress(*Match) error { return ErrShared }
func (s *seated) togglePause(*Match) bool   { return false }
func (s *seated) paused(*Match) bool        { return false }

func (s *seated) setStrategies(_ *Match, bullets, debris pool.Strategy) error {
	return s.seat.SetStrategies(bullets, debris)
}
