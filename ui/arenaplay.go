package ui

import (
	"errors"
	"time"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/pool"
)

// noticeFor is how long a notice (why a key did nothing) shows.
const noticeFor = 3 * time.Second

// arenaInput is the seat's input, asked for by the arena's goroutine
// before each step: the keys held, nothing outside a game or while the
// session waits (the arena plays on, but this ship waits for its player).
// It takes the keys' lock and the seat's Game's, never the session's
// (the arena's is not held meanwhile), and never reads the world; the
// seat's autopilot, when on, is the arena's to run.
func (s *session) arenaInput() game.Input {
	defer s.guard()
	in, _ := s.input.input(time.Since(s.clock), s.inGame())
	return in
}

// arenaTick samples the shared pools and notices when the seat's game is
// over (its Game scores it).
func (s *session) arenaTick(now time.Duration) bool {
	s.arenaSample(now)
	return true
}

// seatNames copies the names of ar's players, by slot, for the labels by
// their ships. The caller holds ar's read lock.
func (s *session) seatNames(ar *hub.Arena) {
	for i := range s.names {
		s.names[i], _ = ar.Seated(i)
	}
}

// arenaSample takes a sample and, when the seat's last ship is lost,
// lets the keys go: the game is over.
func (s *session) arenaSample(now time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sample(now)
	if _, ended := s.game.Observe(); ended {
		s.input.release()
	}
}

// arenaPick asks the arena to switch the targeted pool(s) to st: only its
// creator may; anyone else is told why nothing happens. The caller holds
// the lock.
func (s *session) arenaPick(st pool.Strategy) error {
	var b, d pool.Strategy
	switch s.target {
	case targetBoth:
		b, d = st, st
	case targetBullets:
		b = st
	case targetDebris:
		d = st
	}
	err := s.game.SetStrategies(b, d)
	if errors.Is(err, hub.ErrNotCreator) {
		s.tell(s.creatorOnly())
		return nil
	}
	return err
}

// creatorOnly says who switches the arena's strategies. The caller holds
// the lock.
func (s *session) creatorOnly() string {
	ar := s.seat.Arena()
	ar.RLock()
	defer ar.RUnlock()
	return "only " + ar.Creator() + " switches the pools"
}

// tell shows a notice for noticeFor. The caller holds the lock.
func (s *session) tell(notice string) {
	s.notice, s.noticeAt = notice, time.Since(s.clock)
}

// syncStrategies redraws the strategy list when the pools' strategies
// changed without the player: another player switched the arena's, the
// watched game switched, a replay's recorded switch came. It runs on
// tview's goroutine.
func (s *session) syncStrategies() {
	if b, d := s.strategies(); b != s.listed[0] || d != s.listed[1] {
		s.syncList()
	}
}

// playing reports whether the player's keys play: a game in play, not
// paused.
func (s *session) playing() bool { return s.game.Phase() == modePlay && !s.game.Paused() }

// strategies returns the pools' strategies, read under the lock the
// world steps under (see readWorld). It runs on tview's goroutine.
func (s *session) strategies() (bullets, debris pool.Strategy) {
	if s.watch != nil {
		return s.watchedStrategies()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readWorld(func(w *game.World) { bullets, debris = w.Bullets().Strategy(), w.Debris().Strategy() })
	return bullets, debris
}
