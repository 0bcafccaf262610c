package ui

import (
	"fmt"
	"strings"

	"poolroids/game/hub"
	"poolroids/game/play"
	"poolroids/game/scores"
)

// overText is a game-over screen's text, formatted once for each change
// of the Game's Over.
type overText struct {
	change  uint64
	lines   []string
	watcher bool // the screen is a watcher's, whose keys only leave
}

// of returns the text of o, formatting it if o changed since the last
// call.
func (t *overText) of(o play.Over, ascii bool) []string {
	if o.Change != t.change || t.lines == nil {
		t.change, t.lines = o.Change, overLines(o, ascii, t.watcher)
	}
	return t.lines
}

// overLines is the game-over screen: the score, whether it made the table
// (or why it was not saved), the table, and what to press: a watcher
// only leaves.
func overLines(o play.Over, ascii, watcher bool) []string {
	dot := utf8Glyphs.sep
	if ascii {
		dot = plainGlyphs.sep
	}
	if o.Daily != nil {
		return dailyOverLines(o, o.Daily, dot, watcher)
	}
	e, top := o.Entry, o.Top
	lines := []string{"GAME OVER", "", fmt.Sprintf("score %d%swave %d", e.Score, dot, e.Wave)}
	switch {
	case o.Err != nil:
		lines = append(lines, o.Err.Error())
	case o.Rank == 1:
		lines = append(lines, "a new high score!")
	case o.Rank > 0:
		lines = append(lines, fmt.Sprintf("number %d in the high scores", o.Rank))
	}
	if len(top) > 0 {
		lines = append(lines, "", "HIGH SCORES")
		where := func(t scores.Entry) string {
			if t.Arena != "" {
				return "arena " + t.Arena
			}
			return t.Strategy
		}
		// Every row as wide as the widest, so that centred they line up.
		width := 0
		for _, t := range top {
			width = max(width, len(where(t))) // strategy and arena names are ASCII
		}
		for i, t := range top {
			name := []rune(t.Name)
			if len(name) > hub.MaxName {
				name = name[:hub.MaxName]
			}
			pad := strings.Repeat(" ", hub.MaxName-len(name)) // %-16s pads bytes, not characters
			lines = append(lines, fmt.Sprintf("%2d %s%s %7d  wave %-3d %-*s", i+1, string(name), pad, t.Score, t.Wave, width, where(t)))
		}
	}
	if watcher {
		return append(lines, "", "q: leave")
	}
	return append(lines, "", "space: play again"+dot+"q: quit")
}

// replayEnd is the overlay of a replay at its end, or where it differs
// from its recording. The loop's goroutine only.
type replayEnd struct {
	differs error    // the mismatch text says
	text    []string // differsLines(differs)
}

// of is the overlay for the replay's status st; nil: none.
func (e *replayEnd) of(st *play.ReplayStatus) []string {
	switch st.State {
	case play.ReplayDiffers:
		if st.Err != e.differs {
			e.differs, e.text = st.Err, differsLines(st.Err)
		}
		return e.text
	case play.ReplayEnd:
		return endLines
	}
	return nil
}

// endLines is the overlay at a replay's end.
var endLines = []string{"END OF REPLAY", "", "space: again  left: seek back  q: quit"}

// differsLines is the overlay of a replay that differs from its
// recording: err, wrapped.
func differsLines(err error) []string {
	lines := []string{"THE REPLAY DIFFERS FROM THE RECORDING", ""}
	cur := ""
	for _, word := range strings.Fields(err.Error()) {
		if cur != "" && len(cur)+1+len(word) > 40 {
			lines = append(lines, cur)
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += word
	}
	return append(lines, cur, "", "it stopped there; q: quit")
}
