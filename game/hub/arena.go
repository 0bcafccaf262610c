package hub

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"poolroids/game"
	"poolroids/pool"
)

// NewsSteps is how long a piece of news stays in [ArenaView.News]: 8 s,
// long enough to read between two fights.
const NewsSteps = 8 * game.TPS

// newsLen bounds the news kept: the last few events.
const newsLen = 6

// Arena is one open arena: a world of the hub's Size ships, its seats and
// its news. A front end reads it through [Arena.View] and changes it only
// through its [Seat].
type Arena struct {
	hub   *Hub
	name  string
	mode  game.Mode
	owner string        // who opened it: see Request.Owner
	stop  chan struct{} // closed by Close
	done  chan struct{} // closed when the arena's goroutine has ended

	watchers atomic.Int32 // counted by a registry of live games (AddWatchers)

	mu       sync.RWMutex // guards what follows; a step holds it for writing
	table    Table
	world    *game.World // the table's
	seats    [game.MaxShips]*Seat
	players  int
	joins    uint64 // seats given so far: orders them for the creator's succession
	creator  *Seat
	news     [newsLen]News
	nnews    int
	switched Switch
	deaths   [game.MaxShips]int // each slot's deaths the last step saw
	empty    uint64             // steps since the last player left
	stepTime time.Duration      // a step's time, averaged over the last second or so
	samples  game.PoolSamples   // the pools every game.SampleEvery steps, and at a switch: ArenaView.Samples
	err      error

	inputs game.Inputs // the step's, gathered without the lock
	polls  [game.MaxShips]func() game.Input
}

// News is one event shown to the arena's players for a while: a join, a
// leave, a kill, a strategy switch.
type News struct {
	Step uint64 // the world step it happened before
	Text string
}

// Switch is the last strategy switch: who made it, when, and to what.
type Switch struct {
	By              string
	At              time.Time // zero: none yet
	Bullets, Debris pool.Strategy
}

// Seat is one player's place in an arena: a ship slot. Its methods are
// safe for concurrent use.
type Seat struct {
	arena *Arena
	slot  int
	name  string
	order uint64

	// Under arena.mu:
	input func() game.Input
	left  bool
	auto  bool
	ap    game.Autopilot
}

// seat gives r a free slot. The caller holds the hub's lock.
func (a *Arena) seat(r Request) (*Seat, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	slot := -1
	for i := range a.world.Ships() {
		if a.seats[i] == nil {
			slot = i
			break
		}
	}
	if slot < 0 {
		if a.players == 1 {
			return nil, fmt.Errorf("%w: %s has its one player", ErrFull, a.name)
		}
		return nil, fmt.Errorf("%w: %s has %d players", ErrFull, a.name, a.players)
	}
	name := a.hub.cfg.Unique(r.Player, a.taken)
	if err := a.table.Join(slot, name); err != nil {
		return nil, err
	}
	s := &Seat{arena: a, slot: slot, name: name, order: a.joins, input: r.Input, ap: game.Autopilot{Pressure: true, Slot: slot}}
	a.joins++
	a.seats[slot] = s
	a.players++
	a.deaths[slot] = 0
	a.empty = 0
	if a.creator == nil {
		a.creator = s
	}
	a.post(name + " joined")
	return s, nil
}

// taken reports whether a seated player is called name. The caller holds
// the lock.
func (a *Arena) taken(name string) bool {
	for _, s := range a.seats {
		if s != nil && s.name == name {
			return true
		}
	}
	return false
}

// post adds a piece of news. The caller holds the lock for writing.
func (a *Arena) post(text string) {
	if a.nnews == newsLen {
		copy(a.news[:], a.news[1:])
		a.nnews--
	}
	a.news[a.nnews] = News{Step: a.world.Steps(), Text: text}
	a.nnews++
}

// step takes one step with every seat's input and reports for how many
// steps the arena has been empty, and whether nobody but its creator ever
// sat in it.
func (a *Arena) step() (empty uint64, alone bool) {
	a.mu.RLock()
	seats := a.seats
	for i, s := range seats {
		a.polls[i] = nil
		if s != nil {
			a.polls[i] = s.input
		}
	}
	a.mu.RUnlock()
	for i, poll := range a.polls {
		a.inputs[i] = game.Input{}
		if poll != nil {
			a.inputs[i] = poll()
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.players == 0 {
		a.empty++
		return a.empty, a.joins <= 1
	}
	for i, s := range a.seats {
		if s != nil && s.auto {
			a.inputs[i] = s.ap.Input(a.world)
		} else if s != seats[i] {
			a.inputs[i] = game.Input{} // the seat changed hands meanwhile
		}
	}
	t0 := time.Now()
	a.table.Step(&a.inputs)
	a.stepTime += (time.Since(t0) - a.stepTime) / game.TPS
	if n := a.world.Steps(); n%game.SampleEvery == 0 {
		a.samples.Add(a.world, n, a.stepTime, [2]bool{})
	}
	for i, s := range a.seats {
		if s == nil {
			continue
		}
		p := a.world.Player(i)
		if p.Deaths > a.deaths[i] && p.KilledBy != game.NoSlot {
			by := "a departed player"
			if k := a.seats[p.KilledBy]; k != nil {
				by = k.name
			}
			a.post(s.name + " killed by " + by)
		}
		a.deaths[i] = p.Deaths
	}
	return 0, false
}

// Watchers returns how many watch the arena (see [Arena.AddWatchers]).
func (a *Arena) Watchers() int { return int(a.watchers.Load()) }

// AddWatchers counts n more watchers of the arena (fewer, for n < 0): a
// registry of live games (play.Live) counts them as they come and go.
func (a *Arena) AddWatchers(n int) { a.watchers.Add(int32(n)) }

// Name returns the arena's name.
func (a *Arena) Name() string { return a.name }

// Mode returns whom bullets hurt in the arena.
func (a *Arena) Mode() game.Mode { return a.mode }

// Done is closed when the arena has ended: closed with the hub, or broken
// by a panic (Err says).
func (a *Arena) Done() <-chan struct{} { return a.done }

// Err returns why the arena broke, once Done is closed; nil after Close.
func (a *Arena) Err() error {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.err
}

// View calls fn with the arena as it stands, under its read lock: the
// step waits meanwhile, so fn only copies what it draws, and calls
// nothing that takes the arena's lock again (a Seat's methods, Err):
// a step waiting for the lock would wedge both. The ArenaView is valid
// only until fn returns. View allocates nothing.
func (a *Arena) View(fn func(v ArenaView)) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	fn(ArenaView{a})
}

// World returns the arena's world, the same for the arena's life: read
// what it holds only inside [Arena.View] (or through ArenaView.World).
func (a *Arena) World() *game.World { return a.world }

// ArenaView is an arena read under its lock, inside [Arena.View] only.
type ArenaView struct{ a *Arena }

// Arena returns the arena v shows; nil for the zero ArenaView, which
// shows none.
func (v ArenaView) Arena() *Arena { return v.a }

// World returns the arena's world.
func (v ArenaView) World() *game.World { return v.a.world }

// Seated returns the name of slot's player and whether one sits there.
func (v ArenaView) Seated(slot int) (string, bool) {
	if s := v.a.seats[slot]; s != nil {
		return s.name, true
	}
	return "", false
}

// Players returns how many players sit in the arena: none once the last
// has left, while it lingers before it closes (see [Config].Linger).
func (v ArenaView) Players() int { return v.a.players }

// Creator returns the name of the player who may switch strategies: the
// arena's creator, or after they left the longest-seated player; "" when
// nobody sits in the arena.
func (v ArenaView) Creator() string { return v.a.creatorName() }

// creatorName is Creator. The caller holds the lock.
func (a *Arena) creatorName() string {
	if a.creator == nil {
		return ""
	}
	return a.creator.name
}

// News returns the news of the last NewsSteps steps, oldest first, in a
// slice valid until View returns.
func (v ArenaView) News() []News {
	a := v.a
	now, i := a.world.Steps(), 0
	for i < a.nnews && now-a.news[i].Step > NewsSteps {
		i++
	}
	return a.news[i:a.nnews]
}

// StepTime returns how long a step takes, averaged over about a second.
func (v ArenaView) StepTime() time.Duration { return v.a.stepTime }

// Samples returns the arena's pools as its steps sampled them, every
// game.SampleEvery steps, and at once after a switch, whose pools' rates
// start afresh: valid only within the View callback, as the world.
func (v ArenaView) Samples() *game.PoolSamples { return &v.a.samples }

// Switched returns the last strategy switch.
func (v ArenaView) Switched() Switch { return v.a.switched }

// Name returns the player's name, unique in the arena.
func (s *Seat) Name() string { return s.name }

// Slot returns the seat's ship slot in the arena's world.
func (s *Seat) Slot() int { return s.slot }

// Arena returns the seat's arena.
func (s *Seat) Arena() *Arena { return s.arena }

// Leave gives the seat up: its ship leaves the world (its bullets fly on).
// Leaving twice does nothing.
func (s *Seat) Leave() {
	a := s.arena
	a.mu.Lock()
	defer a.mu.Unlock()
	if s.left {
		return
	}
	s.left = true
	a.table.Leave(s.slot)
	a.seats[s.slot] = nil
	a.players--
	a.post(s.name + " left")
	if a.creator == s {
		a.creator = nil
		for _, o := range a.seats {
			if o != nil && (a.creator == nil || o.order < a.creator.order) {
				a.creator = o
			}
		}
	}
}

// Rejoin starts a new game for the seat once its last ship is lost: a
// fresh score and ships. It is an error while its game is on.
func (s *Seat) Rejoin() error {
	a := s.arena
	a.mu.Lock()
	defer a.mu.Unlock()
	if s.left {
		return fmt.Errorf("hub: %s left %s", s.name, a.name)
	}
	if err := a.table.Join(s.slot, s.name); err != nil {
		return err
	}
	a.deaths[s.slot] = 0
	return nil
}

// SetInput makes fn the seat's input (see Request.Input); nil: none.
func (s *Seat) SetInput(fn func() game.Input) {
	a := s.arena
	a.mu.Lock()
	defer a.mu.Unlock()
	s.input = fn
}

// SetAutopilot lets the max-pressure autopilot fly the seat's ship (on) or
// gives it back to the player's input.
func (s *Seat) SetAutopilot(on bool) {
	a := s.arena
	a.mu.Lock()
	defer a.mu.Unlock()
	s.auto = on
}

// SetStrategies switches the arena's pools (see [game.World.SetStrategies])
// if the seat is the arena's creator, and tells the arena who did; for
// another seat it fails with ErrNotCreator and changes nothing.
func (s *Seat) SetStrategies(bullets, debris pool.Strategy) error {
	a := s.arena
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.creator != s {
		return fmt.Errorf("%w: %s does", ErrNotCreator, a.creatorName())
	}
	if err := a.table.SetStrategies(bullets, debris); err != nil {
		return err
	}
	b, d := a.world.Bullets().Strategy(), a.world.Debris().Strategy()
	a.switched = Switch{By: s.name, At: time.Now(), Bullets: b, Debris: d}
	a.post(s.name + " switched to " + a.world.StrategyName())
	a.samples.Add(a.world, a.world.Steps(), a.stepTime, [2]bool{bullets != "", debris != ""})
	return nil
}
