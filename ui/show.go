package ui

import (
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/pool"
)

// show is what differs between the sessions' games, over a headless
// game of package game/play: the player's own game (a solo game,
// [soloShow], or an arena seat, [seatShow]), a game watched
// ([watchShow]) or a replay ([replayShow]). It is chosen once, when the
// session is made ([Run], [Watch], [RunReplay]), and sets the session's
// scene, the game every frame reads through one play.View, and what
// differs in drawing it (whose game, the player's name, a replay's end);
// the session lays out, draws and times every show the same way and
// asks the show for the rest: the keys, the help, the line under the
// field, how it ends.
//
// A show's methods take the game's lock as they command it; the
// session's lock is never held meanwhile.
type show interface {
	// run steps or follows the game until stop is closed: besides the
	// frame loop, the session's one goroutine.
	run(stop <-chan struct{})
	// gone is closed when the game ends by itself (its arena closed, the
	// game watched is over); nil: never. why then says how the session
	// ends.
	gone() <-chan struct{}
	why() (reason string, err error)
	// pick switches the pools' strategies ("" keeps a pool's), or says
	// why it may not: the error is shown as a notice.
	pick(bullets, debris pool.Strategy) error
	// switcher is who switches the pools (of ar, if an arena's) when
	// this screen's 1-0 do not: the arena's creator, the player watched,
	// for the panel and the key line; "": they do here.
	switcher(ar hub.ArenaView) string
	// wait holds the game while the screen cannot show it (see
	// play.Game.Wait); a watched game goes on.
	wait(on bool)
	// key acts on a key the session passed on (see session.onKey). It
	// returns the key when the session's own keys (the panel's, the
	// strategy list's, the help's) should have it.
	key(ev *tcell.EventKey, now time.Duration) *tcell.EventKey
	// help is the key help's overlay text; bottom the line under the
	// field.
	help(g *glyphs) []string
	bottom() footer
	// close ends the show as the session ends, and returns the best
	// score of a game that counted.
	close() int
}

// footer is the line under the field (the key help, a replay's status):
// take hands it what it draws for a frame, the glyphs and the replay's
// status (zero for a live game).
type footer interface {
	tview.Primitive
	take(g *glyphs, st play.ReplayStatus)
}

// noticeFor is how long a notice (why a key did nothing) shows.
const noticeFor = 3 * time.Second

// confirmFor is how long a question on the field's border waits for its
// answer in an arena, which plays on meanwhile, counting the seconds
// down on the border; expiredFor how long it then says it lapsed. A solo
// game's question waits, as the game does, until it is answered.
const (
	confirmFor = 3 * time.Second
	expiredFor = 2 * time.Second
)

// questions are what a first q or x asks, on the field's border; in an
// arena, which plays on meanwhile, followed by onQuestion.
var questions = map[rune]string{
	'q': "quit? q or y: yes, n: no",
	'x': "stress autopilot? x or y: yes, n: no",
}

// questionBoxes are the questions of a solo game, which waits for the
// answer: in a box over the field, as the pause is, not only on the
// border, where a player looking at the field missed them.
var questionBoxes = map[rune][]string{
	'q': {"QUIT?", "", "q or y: yes", "n: no"},
	'x': {"STRESS AUTOPILOT?", "", "x or y: yes", "n: no"},
}

// onQuestion is the end of a question asked in an arena: it does not
// wait for the answer, as a solo game does; lapsed says it went
// unanswered.
const (
	onQuestion = "the arena plays on"
	lapsed     = "no answer: you play on"
)

// border is what the field's border says besides the game: why a key did
// nothing (a notice, for noticeFor), or the question a first q or x asks
// (until it is answered; in an arena for confirmFor, then that it
// lapsed, for expiredFor). Times are on the session's clock.
type border struct {
	notice   string
	noticeAt time.Duration
	ask      rune // the key whose question shows; 0: none
	askAt    time.Duration
	// question is its text; in an arena, by the seconds it has left
	// (question[1] with one left, and so on), else question[0].
	question [confirmFor/time.Second + 1]string
	waits    bool // the game waits for the answer
}

// setQuestion sets the question's text: q alone, or, if it counts down,
// q followed by the seconds it has left.
func (b *border) setQuestion(q, sep string, counts bool) {
	for i := range b.question {
		b.question[i] = q
		if counts && i > 0 {
			b.question[i] = q + sep + strconv.Itoa(i)
		}
	}
}

// text is what the border says at now, if anything.
func (b *border) text(now time.Duration) string {
	switch {
	case b.asking(now) != 0 && b.waits:
		return b.question[0]
	case b.asking(now) != 0:
		return b.question[(confirmFor-(now-b.askAt)+time.Second-1)/time.Second]
	case b.ask != 0 && now-b.askAt < confirmFor+expiredFor:
		return lapsed
	case b.notice != "" && now-b.noticeAt < noticeFor:
		return b.notice
	}
	return ""
}

// asking returns the key whose question waits for an answer at now, or 0.
func (b *border) asking(now time.Duration) rune {
	if !b.waits && now-b.askAt >= confirmFor {
		return 0
	}
	return b.ask
}
