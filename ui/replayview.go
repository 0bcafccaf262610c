package ui

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/play"
	"poolroids/pool"
)

// seekBy is how far the arrow keys seek: ten seconds of game.
const seekBy = 10 * game.TPS

// replaySpeeds are a replay's speeds, slowest first (play.Speeds), as the
// status line shows them in each glyph set.
var replaySpeeds = [2][play.Speeds]string{
	{"×¼", "×½", "×1", "×2", "×4", "×8", "×16"},
	{"x1/4", "x1/2", "x1", "x2", "x4", "x8", "x16"},
}

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

// replayView is what a session watching a replay adds: the replay it
// draws and sends the keys to (a play.Replay, which steps on its own
// goroutine), its status line and its overlay's text.
type replayView struct {
	s      *session
	g      *play.Replay
	status *replayLine

	// Guarded by s.mu.
	help    bool     // the key help is up
	differs error    // the mismatch text says
	text    []string // differsLines(differs)
}

func newReplaySession(screen tcell.Screen, data []byte, opts Options) (*session, error) {
	if err := checkFPS(&opts); err != nil {
		return nil, err
	}
	v := &replayView{}
	g, err := play.NewReplay(data, opts.Strategy, play.ReplayHooks{
		Waiting: func() bool { return v.s.input.waiting() },
		Played:  v.played,
	})
	if err != nil {
		return nil, err
	}
	v.g = g
	opts.Arena, opts.Stress, opts.Live = nil, false, nil // a replay is no live game to watch
	s := newSessionOf(screen, opts, nil, nil, v)
	v.s = s
	v.status = &replayLine{Box: tview.NewBox(), v: v, buf: make([]byte, 0, 64), tmp: make([]byte, 0, 32)}
	s.root = tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(s.fit.body, 0, 1, true).
		AddItem(v.status, 1, 0, false)
	return s, nil
}

// gameTime is the game time of step: the pools' rates are per second of
// game, whatever the speed.
func gameTime(step uint64) time.Duration { return time.Duration(step) * time.Second / game.TPS }

// played brings the panel up to date with what the replay played
// (play.ReplayHooks.Played): a new world or strategy starts a pool's
// rates again and shows at once; else the pools are sampled every
// sampleEvery steps of game.
func (v *replayView) played(p play.Played) {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh := p.NewWorld
	for i, switched := range p.Switched {
		if switched || p.NewWorld {
			s.view.pools[i].restart()
			fresh = true
		}
	}
	if fresh || p.To/sampleEvery != p.From/sampleEvery {
		s.sample(gameTime(p.To))
	}
}

// now is the game time of the step on screen.
func (v *replayView) now() time.Duration {
	var t time.Duration
	v.g.View(func(rv play.ReplayView) { t = gameTime(rv.Step) })
	return t
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

// hold holds the targeted pool(s) to st, through seeks: the recorded
// switches no longer apply. The caller holds the lock.
func (v *replayView) hold(st pool.Strategy) error {
	var b, d pool.Strategy
	if v.s.target != targetDebris {
		b = st
	}
	if v.s.target != targetBullets {
		d = st
	}
	return v.g.SetStrategies(b, d)
}

// refused shows why the replay refused a key, if it did.
func (v *replayView) refused(err error) {
	if err != nil {
		v.s.mu.Lock()
		v.s.tell(err.Error())
		v.s.mu.Unlock()
	}
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
		v.refused(v.g.Seek(-seekBy))
	case tcell.KeyRight:
		v.refused(v.g.Seek(seekBy))
	case tcell.KeyRune:
		switch r := ev.Rune(); r {
		case ' ', 'p', 'P':
			v.refused(v.g.TogglePause())
		case '+', '=', ']':
			v.g.Faster()
		case '-', '_', '[':
			v.g.Slower()
		case '.':
			v.refused(v.g.StepOnce())
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
// best score; the key help, the end or the mismatch over it.
func (v *replayView) paint(a *arena) {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	v.g.View(func(rv play.ReplayView) {
		w := rv.World
		if w.Ships() > 1 {
			s.names = rv.Names
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
		case rv.State == play.ReplayDiffers:
			if rv.Err != v.differs {
				v.differs, v.text = rv.Err, differsLines(rv.Err)
			}
			h.mode, h.over = modeOver, v.text
		case rv.State == play.ReplayEnd:
			h.mode, h.over = modeOver, endLines
		}
		a.hud = h
	})
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

// replayStates are the replay's states as the status line shows them,
// all as wide.
var replayStates = [...]string{
	play.ReplayPlaying: " PLAYING ",
	play.ReplayPaused:  " PAUSED  ",
	play.ReplaySeeking: " SEEKING ",
	play.ReplayEnd:     " END     ",
	play.ReplayDiffers: " DIFFERS ",
}

func (l *replayLine) Draw(scr tcell.Screen) {
	v := l.v
	defer v.s.guard()
	x, y, w, h := l.GetRect()
	if w <= 0 || h <= 0 {
		return
	}
	g := v.s.glyphs()

	var step, total uint64
	var speed int
	var state play.ReplayState
	v.g.View(func(rv play.ReplayView) {
		step, total, speed, state = rv.Step, rv.Len, rv.Speed, rv.State
		if state == play.ReplaySeeking {
			step = rv.SeekTo
		}
	})
	st := badgeStyle
	if state == play.ReplayDiffers {
		st = alertStyle.Reverse(true)
	}

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
	n := putString(scr, x, y, w, replayStates[state], st)
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
