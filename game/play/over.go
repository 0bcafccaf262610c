package play

import (
	"errors"
	"fmt"
	"time"

	"poolroids/game/match"
	"poolroids/game/scores"
)

// TopN is how many of the table's best entries an [Over] carries.
const TopN = 8

// ErrAssisted is why a game the autopilot played, wholly or in part, is
// not saved: its score is not the player's.
var ErrAssisted = errors.New("autopilot game: score not recorded")

// Over is a game that ended, as its game-over screen shows it: its score,
// then its rank in the table once saved, or why it was not. A front end
// formats it; the zero Over is no game.
type Over struct {
	// Change is new whenever the Over changes (a game ends, its save
	// ends): a front end formats it once for each.
	Change uint64
	// Entry is the game: score, wave, strategy, and the player's name,
	// time and arena as the table keeps them.
	Entry  scores.Entry
	Saving bool  // its save is under way
	Rank   int   // its place in the table, from 1, once saved; 0: none
	Err    error // why it was not saved: ErrAssisted, or the table's error
	// Top is the table's best TopN entries once the game is saved; nil
	// before, and when it is not. It is shared: read it only.
	Top []scores.Entry
	// Daily is what came of a daily game once saved (Rank, Err and Top
	// are then the daily board's); nil for another game, or before.
	Daily *DailyOver
}

// ended makes res the game that ended last and, if it counts, saves it on
// a goroutine of its own. The caller holds the Game's lock.
func (g *Game) ended(res match.Result) {
	e := scores.Entry{Name: g.sc.Player, Score: res.Score, Wave: res.Wave, Strategy: res.Strategy, Arena: res.Arena, When: time.Now()}
	g.changes++
	g.over = Over{Change: g.changes, Entry: e}
	switch {
	case !res.Counts:
		g.over.Err = ErrAssisted
	case g.daily != nil && res.Replay != nil:
		g.over.Saving = true
		g.saves.Add(1)
		change := g.changes
		go func() {
			defer g.saves.Done()
			g.saveDaily(change, e, res.Replay)
		}()
	case g.sc.Scores != nil && e.Score > 0:
		g.over.Saving = true
		g.saves.Add(1)
		go g.save(g.changes, e, res.Replay)
	}
}

// save stores e, with its replay, in the table, and shows its rank on the
// game-over screen of change if that screen is still the Game's.
func (g *Game) save(change uint64, e scores.Entry, replay []byte) {
	defer g.saves.Done()
	rank, top, err := g.store(e, replay)
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(top) > 0 {
		g.high = max(g.high, top[0].Score)
	}
	if g.over.Change != change {
		return // a new game ended meanwhile
	}
	g.changes++
	g.over.Change, g.over.Saving = g.changes, false
	g.over.Rank, g.over.Top, g.over.Err = rank, top, err
}

// store adds e to the table and reads its best entries. A panic in the
// store is a bug of its own: it fails this save, not the server.
func (g *Game) store(e scores.Entry, replay []byte) (rank int, top []scores.Entry, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("play: saving the score: panic: %v", p)
		}
	}()
	rank, err = g.sc.Scores.AddReplay(e, replay)
	return rank, g.sc.Scores.Top(TopN), err
}
