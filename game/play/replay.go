package play

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"poolroids/game"
	"poolroids/game/match"
	"poolroids/game/replay"
	"poolroids/pool"
)

// A seek plays the replay headless on Run's goroutine, tick after tick, in
// strides of seekStride steps and for at most seekBudget (or seekMax
// steps) a tick: a long seek back holds neither the frames nor the keys
// up for more than a frame, and the front end can say it is seeking.
const (
	seekStride = 64
	seekBudget = 8 * time.Millisecond
	seekMax    = 1 << 14
)

// Speeds is how many speeds a replay plays at, doubling from ×¼ (0) to
// ×16 (Speeds-1), as replay.Watch's; SpeedNormal is ×1, the recording's
// pace.
const (
	Speeds      = 7
	SpeedNormal = 2
)

// Why a Replay refuses a command; the texts are for the watcher.
var (
	ErrSeeking = errors.New("seeking: wait for it")
	ErrDiffers = errors.New("the replay differs from here on: seek back")
	ErrEnd     = errors.New("the end: space plays it again")
)

// ReplayState is what a replay is doing, as its status line says.
type ReplayState uint8

const (
	ReplayPlaying ReplayState = iota
	ReplayPaused
	ReplaySeeking
	ReplayEnd     // at the end of the file
	ReplayDiffers // stopped where it differs from its recording
)

// Replay is a replay being watched (`poolroids replay FILE`, a replay
// from the lobby): a [replay.Watch] under its own lock, ticked on
// [Replay.Run]'s goroutine, which a front end draws through
// [Replay.View] and drives with commands (pause, speed, one step, seek,
// the pools' strategies) that it may refuse with an error to show. The
// zero Replay is not usable; make one with NewReplay. Its methods are
// safe for concurrent use.
type Replay struct {
	waits atomic.Bool // the screen cannot show it: Run's ticks play nothing

	mu       sync.Mutex
	w        *replay.Watch
	names    shipNames
	whose    string // see Whose
	speed    int    // index of w's speed
	seekTo   uint64 // the step a seek under way goes to
	seeking  bool
	chunk    int              // steps a tick may seek at most: seekMax, less in tests
	held     [2]pool.Strategy // the watcher's bullets' and debris' strategies; "": the recorded ones
	failed   error            // a seek back could not start again: the replay stops
	sampled  sampled          // the replay at its last sample of the pools
	samples  game.PoolSamples // for View.Samples
	stepTime stepTimer        // the mean step, for View.Step
}

// sampled is a Replay as its pools were last sampled.
type sampled struct {
	world      *game.World
	step       uint64
	strategies [2]pool.Strategy
}

// NewReplay starts watching the replay in data at step 0, at ×1, playing.
// A strategy holds both pools to it from the start ("": the recorded
// switches apply). A file that is not a replay, or whose start differs,
// is an error.
func NewReplay(data []byte, strategy pool.Strategy) (*Replay, error) {
	w, err := replay.NewWatch(data)
	if err != nil {
		return nil, err
	}
	names, err := readNames(data)
	if err != nil {
		return nil, err
	}
	r := &Replay{w: w, names: names, speed: SpeedNormal, chunk: seekMax, whose: whose(names.players(), w.World().Ships())}
	if strategy != "" {
		if err := w.SetStrategy(strategy); err != nil {
			return nil, fmt.Errorf("play: %w", err)
		}
		r.held = [2]pool.Strategy{strategy, strategy}
	}
	r.sampled = r.now()
	return r, nil
}

// Whose names whose game the replay is, for its header: "ann's game";
// an arena's, "arena: ann, bob +2" (its first players, and how many
// more); "" when it names no one.
func (r *Replay) Whose() string { return r.whose }

// whose is Whose of a replay of a world of ships slots whose players were
// ps.
func whose(ps []string, ships int) string {
	switch {
	case len(ps) == 0:
		return ""
	case ships == 1:
		return ps[0] + "'s game"
	case len(ps) == 1:
		return "arena: " + ps[0]
	case len(ps) == 2:
		return "arena: " + ps[0] + ", " + ps[1]
	}
	return fmt.Sprintf("arena: %s, %s +%d", ps[0], ps[1], len(ps)-2)
}

// ReplayStatus is a replay's transport, as a frame shows it
// ([View].Replay): where it stands, how fast it plays, whether it
// ended or differs from its recording.
type ReplayStatus struct {
	State  ReplayState
	Step   uint64 // the world's step
	SeekTo uint64 // the step the seek under way goes to (ReplaySeeking)
	Len    uint64 // the steps of the file
	Speed  int    // 0 (×¼) to Speeds-1 (×16)
	Err    error  // why it stopped (ReplayDiffers)
}

// View calls fn with the replay as it stands, under its lock: the world
// does not step meanwhile, so fn only copies what it draws. The View is
// a live game's shape: Phase is match.Play, or match.Over at the end or
// where the replay differs; Ship is 0 in a world of one, and -1 in an
// arena's, whose Names are its players at this step; High is the best
// ship's score; Steps the world's step; Replay the transport. A View
// is passed by value: a pointer to it would escape to the heap.
func (r *Replay) View(fn func(v View)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.w
	world := w.World()
	v := View{
		World: world, Phase: match.Play, Step: r.stepTime.mean, Steps: w.Step(),
		Samples: &r.samples, Ghost: w.Ghost(),
		Replay: ReplayStatus{Step: w.Step(), SeekTo: r.seekTo, Len: w.Len(), Speed: r.speed, Err: w.Err()},
	}
	if world.Ships() > 1 {
		v.Ship, v.Names = -1, *r.names.at(w.Step())
	}
	for i := range world.Ships() {
		v.High = max(v.High, world.Player(i).Score)
	}
	if r.failed != nil {
		v.Replay.Err = r.failed
	}
	switch {
	case v.Replay.Err != nil:
		v.Replay.State, v.Phase = ReplayDiffers, match.Over
	case r.seeking:
		v.Replay.State = ReplaySeeking
	case w.Done():
		v.Replay.State, v.Phase = ReplayEnd, match.Over
	case w.Paused():
		v.Replay.State = ReplayPaused
	}
	fn(v)
}

// Run ticks the replay at game.TPS until stop is closed (see Steps),
// except while it waits.
func (r *Replay) Run(stop <-chan struct{}) {
	Steps(stop, func() {
		if !r.waits.Load() {
			r.Tick()
		}
	})
}

// Wait holds the replay while its screen cannot show it (too small, the
// key help up): Run's ticks play nothing meanwhile.
func (r *Replay) Wait(on bool) { r.waits.Store(on) }

// Tick is one tick of the clock Run keeps: a stride of the seek under
// way, else the steps the speed gives a tick; then the pools are sampled
// (View.Samples) if the tick passed a multiple of game.SampleEvery
// steps of the game, or the commands before it replaced the world or
// switched a strategy, whose rates start afresh. Run calls it; a test
// may instead, on its own clock.
func (r *Replay) Tick() {
	r.mu.Lock()
	start, from, world := time.Now(), r.w.Step(), r.w.World()
	if r.seeking {
		r.seekStrides(func() bool { return time.Since(start) >= seekBudget })
	} else {
		r.w.Tick()
	}
	if r.w.World() != world {
		from = 0
	}
	if step := r.w.Step(); step > from {
		r.stepTime.add(time.Since(start), int(step-from))
	}
	r.sample()
	r.mu.Unlock()
}

// seekStrides plays the seek under way in strides until it is over, the
// tick's chunk is played, or over says the tick's time is up. A seek
// back starts again from the start, with the watcher's strategies. The
// caller holds the lock.
func (r *Replay) seekStrides(over func() bool) {
	w := r.w
	if r.seekTo < w.Step() {
		if err := w.Seek(0); err != nil { // the file played before: not expected
			r.failed = fmt.Errorf("play: replaying from the start: %w", err)
			r.seeking = false
			return
		}
		r.holdDebris()
	}
	for played := 0; w.Step() < r.seekTo && !w.Done() && played < r.chunk; {
		n := min(int(r.seekTo-w.Step()), seekStride, r.chunk-played)
		_ = w.Seek(w.Step() + uint64(n)) // a mismatch stops it: see w.Err
		played += n
		if over() {
			break
		}
	}
	if w.Step() >= r.seekTo || w.Done() {
		r.seeking = false
	}
}

// now is the replay as its pools' samples know it. The caller holds the
// lock.
func (r *Replay) now() sampled {
	w := r.w.World()
	return sampled{w, r.w.Step(), [2]pool.Strategy{w.Bullets().Strategy(), w.Debris().Strategy()}}
}

// sample samples the pools when the game went past a multiple of
// game.SampleEvery steps since the last sample, or its world or a
// strategy changed, whose rates then start afresh. The caller holds the
// lock.
func (r *Replay) sample() {
	was, now := r.sampled, r.now()
	if now == was {
		return
	}
	r.sampled = now
	from, fresh := was.step, now.world != was.world
	if fresh {
		from = 0
	}
	var restart [2]bool
	for i := range restart {
		restart[i] = fresh || now.strategies[i] != was.strategies[i]
		fresh = fresh || restart[i]
	}
	if fresh || now.step/game.SampleEvery != from/game.SampleEvery {
		r.samples.Add(now.world, now.step, r.stepTime.mean, restart)
	}
}

// TogglePause pauses or resumes; at the end it plays the replay again
// from the start. Where the replay differs there is nothing to resume.
func (r *Replay) TogglePause() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.w
	switch {
	case w.Err() != nil || r.failed != nil:
		return ErrDiffers
	case w.Done() && !r.seeking:
		r.seekTo, r.seeking = 0, true
		w.SetPaused(false)
		return nil
	}
	w.SetPaused(!w.Paused())
	return nil
}

// Faster doubles the speed, up to ×16.
func (r *Replay) Faster() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.w.Faster()
	r.speed = min(r.speed+1, Speeds-1)
}

// Slower halves the speed, down to ×¼.
func (r *Replay) Slower() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.w.Slower()
	r.speed = max(r.speed-1, 0)
}

// StepOnce pauses and plays one step. It is refused during a seek, at
// the end, and where the replay differs.
func (r *Replay) StepOnce() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.w
	switch {
	case r.seeking:
		return ErrSeeking
	case w.Err() != nil || r.failed != nil:
		return ErrDiffers
	case w.Done():
		return ErrEnd
	}
	w.SetPaused(true)
	start, from := time.Now(), w.Step()
	w.StepOnce()
	r.stepTime.add(time.Since(start), int(w.Step()-from))
	return nil
}

// Seek starts a seek by steps from the current step, or from where the
// seek under way goes, clamped to the file; the next ticks play it. A
// seek forward is refused where the replay differs.
func (r *Replay) Seek(steps int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	from := r.w.Step()
	if r.seeking {
		from = r.seekTo
	}
	to := uint64(min(max(int64(from)+int64(steps), 0), int64(r.w.Len())))
	if to > r.w.Step() && (r.w.Err() != nil || r.failed != nil) {
		return ErrDiffers
	}
	r.seekTo, r.seeking, r.failed = to, true, nil
	return nil
}

// SetStrategies switches the bullets' and the debris' pools ("" keeps a
// pool's strategy) and holds them there, through seeks: the recorded
// switches no longer apply. The game stays the same: only the pools'
// figures change.
func (r *Replay) SetStrategies(bullets, debris pool.Strategy) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.w.World()
	if bullets == "" {
		bullets = w.Bullets().Strategy()
	}
	if debris == "" {
		debris = w.Debris().Strategy()
	}
	if err := r.w.SetStrategy(bullets); err != nil {
		return err
	}
	r.held = [2]pool.Strategy{bullets, debris}
	return r.holdDebris()
}

// holdDebris switches the debris pool to the watcher's strategy when it
// is not the bullets' (the watch holds both pools to the bullets'). The
// caller holds the lock.
func (r *Replay) holdDebris() error {
	if d := r.held[1]; d != "" && d != r.held[0] {
		return r.w.World().SetStrategies("", d)
	}
	return nil
}

// shipNames are the names of the players by slot as a replay goes on:
// those of its header, then each join's.
type shipNames struct {
	start [game.MaxShips]string
	joins []nameJoin
	next  int    // joins[:next] are in cur
	step  uint64 // the step cur is at
	cur   [game.MaxShips]string
}

// nameJoin is a player entering a slot before step.
type nameJoin struct {
	step uint64
	slot int
	name string
}

// readNames reads the names of a replay's players from data.
func readNames(data []byte) (shipNames, error) {
	var n shipNames
	r, err := replay.NewReader(data)
	if err != nil {
		return n, err
	}
	copy(n.start[:], r.Header().Players)
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return n, err
		}
		if ev.Kind == replay.Join {
			n.joins = append(n.joins, nameJoin{step: ev.Step, slot: ev.Slot, name: ev.Name})
		}
	}
	n.cur = n.start
	return n, nil
}

// players lists who played, in order of entry, each once.
func (n *shipNames) players() []string {
	var ps []string
	for _, name := range n.start {
		if name != "" && !slices.Contains(ps, name) {
			ps = append(ps, name)
		}
	}
	for _, j := range n.joins {
		if !slices.Contains(ps, j.name) {
			ps = append(ps, j.name)
		}
	}
	return ps
}

// at returns the names at step. Going back starts again from the header's.
func (n *shipNames) at(step uint64) *[game.MaxShips]string {
	if step < n.step {
		n.cur, n.next = n.start, 0
	}
	for ; n.next < len(n.joins) && n.joins[n.next].step <= step; n.next++ {
		j := n.joins[n.next]
		n.cur[j.slot] = j.name
	}
	n.step = step
	return &n.cur
}
