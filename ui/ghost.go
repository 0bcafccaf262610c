package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"poolroids/game/play"
	"poolroids/game/replay"
	"poolroids/game/scores"
)

// A daily game's ghost is the ship of another game of the day (the best
// on the board, or the player's own) flying beside the player's: its
// outline only, in one faint colour under everything of the player's
// world, with "ghost" and its player's name by it, never its rocks,
// shots or debris. Its pools are its world's own; f shows them in the
// panel in place of the player's, and g switches the ghost.

// ghostStyle is the ghost's ship and name: a grey dim enough to read as
// no one's ship, light enough to see on black.
var ghostStyle = fg(120, 125, 150)

// ghostTag is the ghost's name by its ship, made once a ghost and name.
type ghostTag struct {
	of     *replay.Ghost
	player string
	name   string
}

// paintGhost draws a.ghost, set by the show for this frame, on the
// canvas, and its name with the other labels: the board's name for its
// player (a.ghostName) where the show knows it, else its replay's; then
// forgets both. The caller holds the lock the ghost steps under.
func (a *arena) paintGhost() {
	gh, player := a.ghost, a.ghostName
	a.ghost, a.ghostName = nil, ""
	if gh == nil || !gh.Visible() {
		return
	}
	if player == "" {
		player = gh.Name()
	}
	if a.ghostTag.of != gh || a.ghostTag.player != player {
		name := player
		if name == "" {
			name = "?"
		}
		a.ghostTag = ghostTag{of: gh, player: player, name: "ghost " + name}
	}
	sh := gh.Ship()
	a.drawShip(sh, inkGhost, inkGhost, false, false)
	a.noteIn(&a.cv, sh.Pos, a.ghostTag.name, a.shipReach(), ghostStyle)
}

// dailyText is what a daily game's screens say of it, formatted once for
// each change of its play.DailyView: the title screen, and the status on
// the field's bottom border in play.
type dailyText struct {
	change uint64
	ascii  bool
	title  []string
	status string
}

// of returns the text of v, formatting it if v changed since the last
// call.
func (t *dailyText) of(v *play.DailyView, ascii bool) *dailyText {
	if t.title != nil && v.Change == t.change && ascii == t.ascii {
		return t
	}
	t.change, t.ascii = v.Change, ascii
	dot := utf8Glyphs.sep
	if ascii {
		dot = plainGlyphs.sep
	}
	counts := "this game counts: your first finished today"
	short := "counts"
	if v.Counted {
		counts = fmt.Sprintf("practice: your game that counts scored %d", v.Score)
		if v.Rank > 0 {
			counts += fmt.Sprintf(" (#%d)", v.Rank)
		}
		short = "practice"
	}
	ghost, badge := ghostLine(v)
	t.title = []string{
		"THE DAILY GAME OF " + v.Day.String(),
		"",
		"one game, the same for everyone today",
		counts,
		"",
		ghost + dot + "g: switch",
		"",
		"press space to play",
	}
	t.status = " daily " + v.Day.String() + dot + short + dot + badge + " (g) "
	return t
}

// ghostLine says which ghost flies, in full and short.
func ghostLine(v *play.DailyView) (full, short string) {
	if v.GhostName == "" {
		why := v.Why
		if why == "" {
			why = "proving its replay"
		}
		return "ghost: none, " + why, "no ghost"
	}
	score := strconv.Itoa(v.GhostScore)
	return "ghost: " + v.GhostName + "'s " + score + ", " + v.Ghost.String(), "ghost " + v.GhostName + " " + score
}

// dailyOverLines is the game-over screen of a daily game once saved:
// whether it counts, its place, the file its replay was written to, and
// the day's board.
func dailyOverLines(o play.Over, d *play.DailyOver, dot string, watcher bool) []string {
	e := o.Entry
	lines := []string{"GAME OVER", "", fmt.Sprintf("score %d%swave %d", e.Score, dot, e.Wave)}
	r := d.Result
	switch {
	case d.Err != nil && d.Err == scores.ErrQueued:
		lines = append(lines, "proven; ranked when the score database is back")
	case d.Err != nil:
		lines = append(lines, "not ranked: "+d.Err.Error())
	case r.Counted && r.Rank > 0:
		lines = append(lines, fmt.Sprintf("counted: #%d of %d on the daily board", r.Rank, r.Board))
	case r.Counted:
		lines = append(lines, "counted, below the daily board")
	case r.Rank > 0:
		lines = append(lines, fmt.Sprintf("practice: it would be #%d", r.Rank))
	default:
		lines = append(lines, "practice")
	}
	switch {
	case d.File != "":
		lines = append(lines, "replay: "+d.File)
	case d.FileErr != nil:
		lines = append(lines, d.FileErr.Error())
	}
	if len(d.Top) > 0 {
		lines = append(lines, "", "THE DAILY BOARD")
		for i, t := range d.Top {
			name := []rune(t.Name)
			if len(name) > 12 {
				name = name[:12]
			}
			pad := strings.Repeat(" ", 12-len(name)) // %-12s pads bytes, not characters
			lines = append(lines, fmt.Sprintf("%2d %s%s %7d  wave %-3d", i+1, string(name), pad, t.Score, t.Wave))
		}
	}
	if watcher {
		return append(lines, "", "q: leave")
	}
	return append(lines, "", "space: practice"+dot+"q: quit")
}

// dailyKeys are the keys a daily game adds to the key help, and the help
// line: g switches the ghost, f the panel's pools. It has no stress
// autopilot.
var dailyKeys = [][2]string{{"g", "ghost: the day's best, yours, none"}, {"f", "panel: your pools, or the ghost's"}}

// dailyHelp are the key help overlay and the help line of a daily game,
// by glyph set, made once.
var dailyHelp = func() (h [2]struct {
	screen []string
	line   []helpItem
}) {
	for i, g := range []*glyphs{utf8Glyphs, plainGlyphs} {
		keys := slices.DeleteFunc(helpKeys(g), func(k [2]string) bool { return k[0] == "x" })
		at := slices.IndexFunc(keys, func(k [2]string) bool { return k[0] == "?" })
		h[i].screen = keyColumns("KEYS", slices.Insert(keys, at, dailyKeys...))
		line := without(g.keyLine, "x")
		h[i].line = slices.Insert(line, min(2, len(line)), helpItem{"g", "ghost"})
	}
	return h
}()

// setOf is the index of g's set in dailyHelp.
func setOf(g *glyphs) int {
	if g == plainGlyphs {
		return 1
	}
	return 0
}

// ghostPanelTitle is the panel's title while it shows the ghost's pools.
const ghostPanelTitle = " pools of the ghost "
