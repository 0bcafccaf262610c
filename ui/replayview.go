package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/pool"
)

// seekBy is how far the arrow keys seek: ten seconds of game.
const seekBy = 10 * game.TPS

// A seek plays the replay headless on the stepping goroutine, tick after
// tick, in strides of seekStride steps and for at most seekBudget (or
// seekMax steps) a tick: a long seek back holds neither the frames nor the
// keys up for more than a frame, and the status line says it is seeking.
const (
	seekStride = 64
	seekBudget = 8 * time.Millisecond
	seekMax    = 1 << 14
)

// replaySpeeds are replay.Watch's speeds, slowest first, as the status
// line shows them in each glyph set; normalSpeed is ×1's index.
var replaySpeeds = [2][7]string{
	{"×¼", "×½", "×1", "×2", "×4", "×8", "×16"},
	{"x1/4", "x1/2", "x1", "x2", "x4", "x8", "x16"},
}

const normalSpeed = 2

// RunReplay plays a replay file's bytes on screen (pause, speed, step,
// seek, strategy switch), returning when the player quits or ctx ends.
//
// It shows the recorded game as [Run] shows a game, arena and panel, at
// the recording's pace, with a status line of the position, speed and
// state and the keys: space or p pauses, + and - (or ] and [) change the
// speed from ×¼ to ×16, . plays one step and pauses, ← and → seek ten
// seconds back (replaying from the start) or forward, 1-0 and b switch
// the pools' strategy as in a game, which changes their figures and never
// the game, ? shows the keys and q quits. A replay that differs from its recording (another
// build, another architecture) stops at the first checksum that differs
// and says so. An arena's ships carry their players' names.
//
// Of opts it uses FPS, ASCII and Strategy: "" follows the recorded
// strategy switches; a strategy holds both pools to it from the start.
// The screen is initialised and finalised as by Run; a file that is not a
// replay, or whose start differs, is an error before anything is drawn.
// The Result's Score is 0.
func RunReplay(ctx context.Context, screen tcell.Screen, data []byte, opts Options) (Result, error) {
	s, err := newReplaySession(screen, data, opts)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx)
}

// replayView is what a session watching a replay adds: the watch that
// steps its world instead of a match, the seek under way, the strategies
// the watcher holds the pools to and the players' names.
type replayView struct {
	s      *session
	status *replayLine
	names  shipNames // touched only while painting

	// Guarded by s.mu.
	w       *replay.Watch
	speed   int    // index into replaySpeeds, as w's
	seekTo  uint64 // the step a seek under way goes to
	seeking bool
	chunk   int              // steps a tick may seek at most: seekMax, less in tests
	held    [2]pool.Strategy // the watcher's bullets' and debris' strategies; "": the recorded ones
	shown   [2]pool.Strategy // the pools' strategies at the last tick
	sampled uint64           // the step of the last sample of the pools
	over    []string         // the end or mismatch overlay; nil: none
	differs error            // the mismatch over shows
	help    bool             // the key help is up
}

func newReplaySession(screen tcell.Screen, data []byte, opts Options) (*session, error) {
	if err := checkFPS(&opts); err != nil {
		return nil, err
	}
	w, err := replay.NewWatch(data)
	if err != nil {
		return nil, err
	}
	names, err := readNames(data)
	if err != nil {
		return nil, err
	}
	v := &replayView{w: w, speed: normalSpeed, chunk: seekMax, names: names}
	if opts.Strategy != "" {
		if err := w.SetStrategy(opts.Strategy); err != nil {
			return nil, fmt.Errorf("ui: %w", err)
		}
		v.held = [2]pool.Strategy{opts.Strategy, opts.Strategy}
	}
	opts.Arena, opts.Stress, opts.Live = nil, false, nil // a replay is no live game to watch
	s := newSessionOf(screen, opts, w.World(), nil)
	v.s, s.playback = s, v
	v.shown = [2]pool.Strategy{s.world.Bullets().Strategy(), s.world.Debris().Strategy()}
	v.status = &replayLine{Box: tview.NewBox(), v: v, buf: make([]byte, 0, 64), tmp: make([]byte, 0, 32)}
	s.root = tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(s.fit.body, 0, 1, true).
		AddItem(v.status, 1, 0, false)
	return s, nil
}

// gameTime is the game time of step: the pools' rates are per second of
// game, whatever the speed.
func gameTime(step uint64) time.Duration { return time.Duration(step) * time.Second / game.TPS }

// tick is one tick of the stepping goroutine: a stride of the seek under
// way, else the steps the speed gives a tick.
func (v *replayView) tick() {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.input.waiting() {
		return
	}
	from, t0 := v.w.Step(), time.Now()
	if v.seeking {
		v.seekStride(t0)
	} else {
		v.w.Tick()
	}
	v.played(from, time.Since(t0))
}

// seekStride plays the seek under way for this tick. The caller holds
// the lock.
func (v *replayView) seekStride(start time.Time) {
	w := v.w
	if v.seekTo < w.Step() {
		if err := w.Seek(0); err != nil { // the file decoded before: not expected
			v.s.end(ReasonError, fmt.Errorf("ui: replaying from the start: %w", err))
			v.seeking = false
			return
		}
		v.holdDebris()
	}
	for played := 0; w.Step() < v.seekTo && !w.Done() && played < v.chunk; {
		n := min(int(v.seekTo-w.Step()), seekStride, v.chunk-played)
		_ = w.Seek(w.Step() + uint64(n)) // a mismatch stops it: see w.Err
		played += n
		if time.Since(start) >= seekBudget {
			break
		}
	}
	if w.Step() >= v.seekTo || w.Done() {
		v.seeking = false
	}
}

// played brings the session up to date with the watch after steps from
// step from, which took d: the world (a seek back replaces it), the
// step time, the pools' samples and the overlay. The caller holds the
// lock.
func (v *replayView) played(from uint64, d time.Duration) {
	s, w := v.s, v.w
	step := w.Step()
	fresh := false // the panel must show it at once
	if world := w.World(); world != s.world {
		s.world, from, fresh = world, 0, true
		s.view.pools[bulletsPool].restart()
		s.view.pools[debrisPool].restart()
	}
	if step > from {
		s.stepTime += d
		s.stepN += int(step - from)
	}
	if b, dd := s.world.Bullets().Strategy(), s.world.Debris().Strategy(); b != v.shown[0] || dd != v.shown[1] {
		// A recorded switch: the rates from now on are the new strategy's.
		if b != v.shown[0] {
			s.view.pools[bulletsPool].restart()
		}
		if dd != v.shown[1] {
			s.view.pools[debrisPool].restart()
		}
		v.shown = [2]pool.Strategy{b, dd}
		fresh = true
	}
	if fresh || step/sampleEvery != v.sampled/sampleEvery {
		s.sample(gameTime(step))
		v.sampled = step
	}
	switch err := w.Err(); {
	case err != nil:
		if v.differs != err {
			v.differs, v.over = err, differsLines(err)
		}
	case w.Done():
		v.over = endLines
	default:
		v.over = nil
	}
}

var endLines = []string{"END OF REPLAY", "", "space: again  left: seek back  q: quit"}

// differsLines is the overlay of a replay that differs from its
// recording: err, wrapped.
func differsLines(err error) []string {
	lines := []string{"THE REPLAY DIFFERS FROM THE RECORDING", ""}
	line := ""
	for _, word := range strings.Fields(err.Error()) {
		if line != "" && len(line)+1+len(word) > 40 {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line, "", "it stopped there; q: quit")
}

// holdDebris switches the debris pool to the watcher's strategy when it
// is not the bullets' (the watch holds both pools to the bullets'). The
// caller holds the lock.
func (v *replayView) holdDebris() {
	if d := v.held[1]; d != "" && d != v.held[0] {
		_ = v.w.World().SetStrategies("", d) // a strategy it took before
	}
}

// hold switches the targeted pool(s) to st and holds them there, through
// seeks: the recorded switches no longer apply. The game stays the same.
// The caller holds the lock.
func (v *replayView) hold(st pool.Strategy) error {
	s := v.s
	b, d := s.world.Bullets().Strategy(), s.world.Debris().Strategy()
	if s.target != targetDebris {
		b = st
		s.view.pools[bulletsPool].restart()
	}
	if s.target != targetBullets {
		d = st
		s.view.pools[debrisPool].restart()
	}
	v.held = [2]pool.Strategy{b, d}
	err := v.w.SetStrategy(b)
	v.holdDebris()
	v.shown = v.held
	return err
}

// seek starts a seek by steps from the current step, or from where the
// seek under way goes.
func (v *replayView) seek(steps int) {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	from := v.w.Step()
	if v.seeking {
		from = v.seekTo
	}
	v.seekTo = uint64(min(max(int64(from)+int64(steps), 0), int64(v.w.Len())))
	v.seeking = true
}

// pause pauses or resumes; at the end it plays the replay again.
func (v *replayView) pause() {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	w := v.w
	if w.Done() && w.Err() == nil && !v.seeking {
		v.seekTo, v.seeking = 0, true
		w.SetPaused(false)
		return
	}
	w.SetPaused(!w.Paused())
}

// stepOnce pauses and plays one step.
func (v *replayView) stepOnce() {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if v.seeking {
		return
	}
	v.w.SetPaused(true)
	from, t0 := v.w.Step(), time.Now()
	v.w.StepOnce()
	v.played(from, time.Since(t0))
}

// faster changes the speed by one notch up (+1) or down (-1).
func (v *replayView) faster(by int) {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if by > 0 {
		v.w.Faster()
	} else {
		v.w.Slower()
	}
	v.speed = min(max(v.speed+by, 0), len(replaySpeeds[0])-1)
}

// onKey sees every key of a replay session before tview: the watcher's
// keys here, the panel's and q in the session's onKey, the game's none.
func (v *replayView) onKey(ev *tcell.EventKey) *tcell.EventKey {
	s := v.s
	defer s.guard()
	switch {
	case ev.Key() == tcell.KeyCtrlC || s.fit.help || s.fit.small:
		return s.onKey(ev)
	case v.showHelp(false):
		return nil // a key that closes the help does nothing else
	}
	s.focusShown()
	switch ev.Key() {
	case tcell.KeyUp, tcell.KeyDown, tcell.KeyEnter, tcell.KeyHome, tcell.KeyEnd, tcell.KeyPgUp, tcell.KeyPgDn:
		if s.list.HasFocus() {
			return ev
		}
	case tcell.KeyTab, tcell.KeyBacktab:
		return s.onKey(ev)
	case tcell.KeyLeft:
		v.seek(-seekBy)
	case tcell.KeyRight:
		v.seek(seekBy)
	case tcell.KeyRune:
		switch r := ev.Rune(); r {
		case ' ', 'p', 'P':
			v.pause()
		case '+', '=', ']':
			v.faster(1)
		case '-', '_', '[':
			v.faster(-1)
		case '.':
			v.stepOnce()
		case '?':
			v.showHelp(true)
		case 'q', 'Q', 'b', 'B', 'v', 'V':
			return s.onKey(ev)
		default:
			if i := strings.IndexRune(strategyKeys, r); i >= 0 {
				s.pick(i)
			}
		}
	}
	return nil
}

// showHelp puts the key help up or takes it down, and reports whether
// it was up.
func (v *replayView) showHelp(on bool) (was bool) {
	v.s.mu.Lock()
	defer v.s.mu.Unlock()
	was, v.help = v.help, on
	return was
}

// replayHelp is the key help of a replay, in each glyph set.
var replayHelp = [2][]string{newReplayHelp(utf8Glyphs), newReplayHelp(plainGlyphs)}

func newReplayHelp(g *glyphs) []string {
	keys := [][2]string{
		{"space  p", "pause, play"},
		{"+ -  ] [", "speed " + replaySpeeds[0][0] + " to " + replaySpeeds[0][len(replaySpeeds[0])-1]},
		{".", "one step, paused"},
		{g.left + " " + g.right, "seek 10 s back, forward"},
		{"1-0", "pools' strategy: figures, not game"},
		{"b", "which pools 1-0 switch"},
		{"tab", "strategy list: " + g.up + " " + g.down + " enter"},
		{"v", "panel: full, compact, hidden"},
		{"q  ctrl-c", "quit"},
	}
	if g == plainGlyphs {
		keys[1][1] = "speed " + replaySpeeds[1][0] + " to " + replaySpeeds[1][len(replaySpeeds[1])-1]
	}
	return keyColumns("REPLAY KEYS", keys)
}

// paint copies the world onto a's canvas and the header into a.hud: the
// level and wave, and the score and lives of a solo game, or an arena's
// best score.
func (v *replayView) paint(a *arena) {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.world
	if w.Ships() > 1 {
		s.names = *v.names.at(v.w.Step())
	}
	a.paintWorld(w)
	h := hud{level: w.Level().Name, score: w.Score(), lives: w.Lives(), wave: w.Wave(), mode: modePlay, best: w.Ships() > 1}
	for i := range w.Ships() {
		h.high = max(h.high, w.Player(i).Score)
	}
	switch {
	case v.help && s.ascii:
		h.mode, h.over = modeOver, replayHelp[1]
	case v.help:
		h.mode, h.over = modeOver, replayHelp[0]
	case v.over != nil:
		h.mode, h.over = modeOver, v.over
	}
	a.hud = h
}

// shipNames are the names of the players by slot as a replay goes on:
// those of its header, then each join's.
type shipNames struct {
	start [game.MaxShips]string
	joins []join
	next  int    // joins[:next] are in cur
	step  uint64 // the step cur is at
	cur   [game.MaxShips]string
}

// join is a player entering a slot before step.
type join struct {
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
			n.joins = append(n.joins, join{step: ev.Step, slot: ev.Slot, name: ev.Name})
		}
	}
	n.cur = n.start
	return n, nil
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

// replayLine is the bottom line of a replay: its state, position and
// speed, left, in cells of fixed width that it sets every frame; then
// the keys, which it draws only when its place changed.
type replayLine struct {
	*tview.Box
	v     *replayView
	buf   []byte
	tmp   []byte
	pos   textCache
	shown shown
}

// replayItems are the keys the replay's line shows from the left, as far
// as they fit.
func replayItems(g *glyphs) []helpItem {
	if g == plainGlyphs {
		return plainReplayItems
	}
	return utf8ReplayItems
}

var (
	utf8ReplayItems  = newReplayItems(utf8Glyphs)
	plainReplayItems = newReplayItems(plainGlyphs)
)

func newReplayItems(g *glyphs) []helpItem {
	seek := g.left + g.right
	if g == plainGlyphs {
		seek = "left/right"
	}
	return []helpItem{
		{"p", "pause"}, {"+-", "speed"}, {".", "step"}, {seek, "seek"},
		{"1-0", "strategy"}, {"b", "pool"}, {"v", "panel"}, {"tab", "list"},
	}
}

// Replay states, all as wide.
const (
	statePlaying = " PLAYING "
	statePaused  = " PAUSED  "
	stateSeeking = " SEEKING "
	stateEnd     = " END     "
	stateDiffers = " DIFFERS "
)

func (l *replayLine) Draw(scr tcell.Screen) {
	v := l.v
	defer v.s.guard()
	x, y, w, h := l.GetRect()
	if w <= 0 || h <= 0 {
		return
	}
	g := v.s.glyphs()

	v.s.mu.Lock()
	step, total, speed := v.w.Step(), v.w.Len(), v.speed
	state, st := statePlaying, badgeStyle
	switch {
	case v.w.Err() != nil:
		state, st = stateDiffers, alertStyle.Reverse(true)
	case v.seeking:
		state, step = stateSeeking, v.seekTo
	case v.w.Done():
		state = stateEnd
	case v.w.Paused():
		state = statePaused
	}
	v.s.mu.Unlock()

	// " STATE mm:ss / mm:ss ×16 ", each part as wide whatever it says.
	l.tmp = appendClock(l.tmp[:0], total)
	tw := len(l.tmp)
	l.tmp = appendClock(l.tmp, step)
	b := appendRight(l.buf[:0], l.tmp[tw:], tw)
	b = append(b, " / "...)
	b = append(b, l.tmp[:tw]...)
	b = append(b, ' ')
	sp := 0
	if g == plainGlyphs {
		sp = 1
	}
	speeds := &replaySpeeds[sp]
	start := len(b)
	b = append(b, speeds[speed]...)
	b = pad(b, start, max(utf8.RuneCountInString(speeds[0]), utf8.RuneCountInString(speeds[len(speeds)-1])))
	l.buf = b
	n := putString(scr, x, y, w, state, st)
	n += putString(scr, x+n, y, w-n, l.pos.of(b), valueStyle)

	if l.v.s.keep(scr, &l.shown, rect{x, y, w, h}) {
		return // the keys stay where they were
	}
	drawKeys(scr, x+n, y, w-n, replayItems(g))
}

// appendClock appends step as the game time it is, mm:ss.
func appendClock(b []byte, step uint64) []byte {
	secs := step / game.TPS
	if secs < 600 {
		b = append(b, '0')
	}
	b = strconv.AppendUint(b, secs/60, 10)
	return append(b, ':', byte('0'+secs%60/10), byte('0'+secs%10))
}
