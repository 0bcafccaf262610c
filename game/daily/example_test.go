package daily_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/replay"
)

// A daily game is recorded on the day's configuration, proven by its
// replay, and refused on a later day.
func Example() {
	now := time.Date(2025, 6, 14, 18, 30, 0, 0, time.UTC)
	d := daily.DayOf(now)
	rec, err := replay.NewRecorder(daily.Config(d, nil), replay.Options{Players: []string{"ann"}})
	if err != nil {
		panic(err)
	}
	var in game.Inputs
	for i := range 600 { // ten seconds, turning and firing
		in[0] = game.Input{Left: i%120 < 60, Fire: i%10 == 0}
		rec.Step(&in)
	}
	if err := rec.Close(); err != nil {
		panic(err)
	}
	score := rec.World().Score() // what the player's screen says

	p, err := daily.Verify(context.Background(), rec.Bytes(), now, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %s's game, %d steps, over %v, score confirmed: %v\n", p.Day, p.Player, p.Steps, p.Over, p.Confirm(score) == nil)

	_, err = daily.Verify(context.Background(), rec.Bytes(), now.Add(24*time.Hour), nil)
	var r *daily.RefusedError
	if errors.As(err, &r) {
		fmt.Println("a day later:", r.Reason)
	}
	// Output:
	// 2025-06-14: ann's game, 600 steps, over false, score confirmed: true
	// a day later: other-day
}
