package daily_test

import (
	"time"

	"poolroids/game/daily"
)

// day is the day the tests play, noon its middle.
var (
	day  = mustDay("2025-06-14")
	noon = day.Start().Add(12 * time.Hour)
)

func mustDay(s string) daily.Day {
	d, err := daily.ParseDay(s)
	if err != nil {
		panic(err)
	}
	return d
}
