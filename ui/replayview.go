package ui

import (
	"context"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/hub"
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
	return replayOn(ctx, ownTerminal(screen, opts.Keys), data, opts)
}

// replayOn is RunReplay on scr: a connection of one session.
func replayOn(ctx context.Context, scr Screen, data []byte, opts Options) (Result, error) {
	s, err := newLoop(scr, opts.Clock).replaySession(data, opts)
	if err != nil {
		return Result{}, err
	}
	return s.run(ctx)
}

// replaySession makes the session of RunReplay on l.
func (l *loop) replaySession(data []byte, opts Options) (*session, error) {
	opts.Arena, opts.Stress, opts.Live = nil, false, nil // a replay is no live game to watch
	return l.session(opts, func(s *session) (show, error) { return newReplay(s, data) })
}

// replayShow is the show of a replay: the play.Replay it draws and sends
// the keys to, which steps on the show's goroutine, and its status line.
type replayShow struct {
	s      *session
	g      *play.Replay
	status *replayLine
}

// newReplay makes the show of the replay data holds, holding its pools to
// Options.Strategy if set.
func newReplay(s *session, data []byte) (*replayShow, error) {
	v := &replayShow{s: s}
	g, err := play.NewReplay(data, s.opts.Strategy)
	if err != nil {
		return nil, err
	}
	v.g = g
	v.status = &replayLine{Box: tview.NewBox(), g: utf8Glyphs, buf: make([]byte, 0, 64), tmp: make([]byte, 0, 32)}
	s.scene, s.whose, s.ending = g, g.Whose(), new(replayEnd)
	return v, nil
}

func (v *replayShow) run(stop <-chan struct{}) { v.g.Run(stop) }
func (v *replayShow) gone() <-chan struct{}    { return nil }
func (v *replayShow) why() (string, error)     { return ReasonCanceled, nil }
func (v *replayShow) bottom() footer           { return v.status }
func (v *replayShow) close() int               { return 0 }
func (v *replayShow) wait(on bool)             { v.g.Wait(on) }

// switcher: 1-0 switch a replay's pools, for their figures.
func (v *replayShow) switcher(hub.ArenaView) string { return "" }

// pick holds the pools to a strategy, through seeks: the recorded
// switches no longer apply.
func (v *replayShow) pick(bullets, debris pool.Strategy) error {
	return v.g.SetStrategies(bullets, debris)
}

// key drives the replay: the session's own keys (the panel's, the
// strategy list's, the help's) do the rest.
func (v *replayShow) key(ev *tcell.EventKey, _ time.Duration) *tcell.EventKey {
	s := v.s
	switch ev.Key() {
	case tcell.KeyLeft:
		s.refused(v.g.Seek(-seekBy))
	case tcell.KeyRight:
		s.refused(v.g.Seek(seekBy))
	case tcell.KeyRune:
		switch ev.Rune() {
		case ' ', 'p', 'P':
			s.refused(v.g.TogglePause())
		case '+', '=', ']':
			v.g.Faster()
		case '-', '_', '[':
			v.g.Slower()
		case '.':
			s.refused(v.g.StepOnce())
		case 'q', 'Q':
			s.end(ReasonQuit, nil)
		default:
			return ev
		}
	default:
		return ev
	}
	return nil
}

// help is the key help of a replay.
func (v *replayShow) help(g *glyphs) []string {
	if g == plainGlyphs {
		return replayHelp[1]
	}
	return replayHelp[0]
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

// replayLine is the bottom line of a replay: its state, position and
// speed, left, in cells of fixed width that it sets every frame; then
// the keys.
type replayLine struct {
	*tview.Box
	// What the session hands it for each frame: the glyphs (hand), the
	// replay's status (take).
	g      *glyphs
	status play.ReplayStatus
	buf    []byte
	tmp    []byte
	pos    textCache
	keys   keyLine
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
	x, y, w, h := l.GetRect()
	if w <= 0 || h <= 0 {
		return
	}
	g := l.g

	step, total, speed, state := l.status.Step, l.status.Len, l.status.Speed, l.status.State
	if state == play.ReplaySeeking {
		step = l.status.SeekTo
	}
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
	l.keys.draw(scr, x+n, y, w-n, replayItems(g))
}

func (l *replayLine) take(g *glyphs, st play.ReplayStatus) { l.g, l.status = g, st }

// appendClock appends step as the game time it is, mm:ss.
func appendClock(b []byte, step uint64) []byte {
	secs := step / game.TPS
	if secs < 600 {
		b = append(b, '0')
	}
	b = strconv.AppendUint(b, secs/60, 10)
	return append(b, ':', byte('0'+secs%60/10), byte('0'+secs%10))
}
