package daily

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/levels"
	"poolroids/pool"
)

// MaxSteps bounds a daily game: two hours of play, as the server's default
// session limit (serve --max-time) bounds a game over SSH. A front end
// ends a daily game there, as if it were left; a longer replay is refused.
// With it the re-play of a proof is bounded: see [Verify].
const MaxSteps = 2 * 60 * 60 * game.TPS

// MaxBytes bounds a daily game's replay file. A game of MaxSteps whose keys
// change every step takes 448 KB, and the ghosts it may carry
// (replay.MaxGhosts of at most replay.MaxGhost bytes) 2 MiB more; a game
// within MaxSteps exceeds it only by switching strategies tens of
// thousands of times.
const MaxBytes = 4 << 20

// A seed is recognised as a day's game from lookback days before today to
// lookahead days after (a local game on a clock set wrong), so that such a
// replay is told apart from a forged one.
const lookback, lookahead = 366, 7

// Reason is why [Verify] refuses a replay.
type Reason uint8

const (
	Malformed       Reason = iota + 1 // not a replay this build reads
	Truncated                         // cut short: the recording has no end
	TooLarge                          // over MaxBytes bytes or MaxSteps steps
	NotSolo                           // not one solo game: several slots, PvP, a join, a leave or a restart
	OtherLevels                       // played on another level set than the day's
	OtherCapacities                   // played with other pool capacities than the set's
	OtherDay                          // the game of a day not accepted now
	Forged                            // its seed is no day's game
	Altered                           // re-played, it is not the game its checksums record
	Claimed                           // the score claimed for it is not the one it proves
)

var reasonNames = [...]string{"", "malformed", "truncated", "too-large", "not-solo",
	"other-levels", "other-capacities", "other-day", "forged", "altered", "claimed"}

// String names the reason in one word, for logs and metric labels.
func (r Reason) String() string {
	if int(r) < len(reasonNames) && r != 0 {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", r)
}

// RefusedError is a replay [Verify] refuses, and why. It wraps the
// [*replay.FormatError] of a Malformed or Truncated file and the
// [*replay.MismatchError] of an Altered one.
type RefusedError struct {
	Reason Reason
	Msg    string // what was found, and what was wanted
	Err    error  // the replay package's error, if any
}

func (e *RefusedError) Error() string { return fmt.Sprintf("daily: refused, %s: %s", e.Reason, e.Msg) }

func (e *RefusedError) Unwrap() error { return e.Err }

func refuse(r Reason, err error, format string, a ...any) error {
	return &RefusedError{Reason: r, Msg: fmt.Sprintf(format, a...), Err: err}
}

// Proof is what a replay proves by re-playing: the re-played world's
// figures, never a number the file or its sender claims.
type Proof struct {
	Day    Day    // the day whose game it is
	Player string // the name its replay gives the player; "" for none
	Score  int    // the score the re-played game reached
	Wave   int    // the wave it reached
	Steps  uint64 // steps played: Steps/game.TPS seconds of play
	Over   bool   // the game ended with its last ship lost; false: it was left in play
	Sum    uint64 // the final checksum: two replays of one game have the same
}

// String says what p proves, as a server tells a player: "the daily game
// of 2025-06-14, score 2850, wave 3, 4m21s of play, game over" (or "left
// in play").
func (p Proof) String() string {
	end := "game over"
	if !p.Over {
		end = "left in play"
	}
	played := (time.Duration(p.Steps) * time.Second / game.TPS).Round(time.Second)
	return fmt.Sprintf("the daily game of %s, score %d, wave %d, %v of play, %s", p.Day, p.Score, p.Wave, played, end)
}

// Confirm refuses a claimed score that is not the proven one (Claimed).
func (p Proof) Confirm(claimed int) error {
	if claimed != p.Score {
		return refuse(Claimed, nil, "a score of %d claimed, its replay proves %d", claimed, p.Score)
	}
	return nil
}

// Verify proves the replay in data to be a daily game of a day open at now
// ([Day.Open]: today, or yesterday within Grace) on set (nil: the shipped
// levels), and returns what it proves. It refuses with a *[RefusedError]
// whose Reason says why: a file over MaxBytes, not a replay, cut short, a
// game that is not one solo game, of another level set or capacities,
// another day's or no day's seed, over MaxSteps, or a re-play that does
// not reach the recorded checksums. The strategies and ghosts recorded
// change nothing of the game and are not played.
//
// Its cost is bounded before the re-play starts: three passes over at most
// MaxBytes, then at most MaxSteps steps of the game, between chunks of
// which Verify checks ctx; ctx's error is returned as it is. Memory stays
// in proportion to the file and the set's pools.
func Verify(ctx context.Context, data []byte, now time.Time, set *levels.Set) (Proof, error) {
	if set == nil {
		set = levels.Default()
	}
	if len(data) > MaxBytes {
		return Proof{}, refuse(TooLarge, nil, "%d bytes, allowed up to %d", len(data), MaxBytes)
	}
	r, err := replay.NewReader(data)
	if err != nil {
		return Proof{}, unreadable(err)
	}
	h := r.Header()
	day, err := check(h, now, set)
	if err != nil {
		return Proof{}, err
	}
	if err := walk(r); err != nil {
		return Proof{}, err
	}
	// Every strategy plays the same game; dense plays it fastest.
	p, err := replay.NewPlayer(data, pool.Dense)
	if err == nil {
		err = p.Run(ctx)
	}
	var m *replay.MismatchError
	switch {
	case errors.As(err, &m):
		return Proof{}, refuse(Altered, err, "%v", err)
	case err != nil && ctx.Err() != nil:
		return Proof{}, err
	case err != nil:
		return Proof{}, unreadable(err)
	}
	w := p.World()
	pr := Proof{Day: day, Score: w.Score(), Wave: w.Wave(), Steps: w.Steps(), Over: w.Phase() == game.GameOver, Sum: w.Checksum()}
	if len(h.Players) > 0 {
		pr.Player = h.Players[0]
	}
	return pr, nil
}

// check refuses a header that is not of a daily game on set open at now,
// and returns its day.
func check(h *replay.Header, now time.Time, set *levels.Set) (Day, error) {
	if h.Ships != 1 || h.Mode != game.Coop {
		return 0, refuse(NotSolo, nil, "a %s game of %d ship slots, want a solo game (1 slot, co-op)", h.Mode, h.Ships)
	}
	digest := Digest(set)
	if got := Digest(h.Levels); got != digest {
		return 0, refuse(OtherLevels, nil, "played on levels %q (digest %x), want the day's %q (digest %x)", h.Levels.Name, got[:6], set.Name, digest[:6])
	}
	if h.Bullets != set.Bullets || h.Debris != set.Debris {
		return 0, refuse(OtherCapacities, nil, "played with %d bullets and %d debris, want the set's %d and %d", h.Bullets, h.Debris, set.Bullets, set.Debris)
	}
	today := DayOf(now)
	for d := today + lookahead; d >= today-lookback; d-- {
		if seed(d, digest) != h.Seed {
			continue
		}
		if !d.Open(now) {
			return 0, refuse(OtherDay, nil, "the game of %s, want %s", d, accepted(now))
		}
		return d, nil
	}
	return 0, refuse(Forged, nil, "seed %d is no day's game of levels %q, want %s", h.Seed, set.Name, accepted(now))
}

// accepted names the days open at now.
func accepted(now time.Time) string {
	today := DayOf(now)
	if (today - 1).Open(now) {
		return fmt.Sprintf("the game of %s, or of %s until %s", today, today-1, today.Start().Add(Grace).Format("15:04 UTC"))
	}
	return "the game of " + today.String()
}

// walk reads the rest of the file without playing it: one solo game, to
// its end, of at most MaxSteps.
func walk(r *replay.Reader) error {
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return unreadable(err)
		}
		switch ev.Kind {
		case replay.Join, replay.Leave:
			return refuse(NotSolo, nil, "a player joins or leaves at step %d: a daily game is one player's", ev.Step)
		case replay.Restart:
			return refuse(NotSolo, nil, "a new game begins at step %d: a daily replay holds one game", ev.Step)
		case replay.Input, replay.Run:
			if ev.Step+uint64(ev.Steps) > MaxSteps {
				return refuse(TooLarge, nil, "more than %d steps (%v of play)", MaxSteps, time.Duration(MaxSteps/game.TPS)*time.Second)
			}
		}
	}
}

// unreadable refuses a file the replay package cannot read.
func unreadable(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return refuse(Truncated, err, "%v", err)
	}
	return refuse(Malformed, err, "%v", err)
}
