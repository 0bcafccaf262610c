package daily

import (
	"fmt"
	"time"
)

// Day is a calendar day in UTC, counted in days from 1970-01-01 (day 0):
// the same day everywhere at the same instant, whatever the local time
// zone. Day(n)+1 is the next day. The zero Day is 1970-01-01.
type Day int

// secondsPerDay is a UTC day's length: Unix time has no leap seconds.
const secondsPerDay = 24 * 60 * 60

// layout is how a Day reads and is written: ISO 8601's date.
const layout = "2006-01-02"

// DayOf returns the UTC day of t.
func DayOf(t time.Time) Day {
	s := t.Unix()
	d := s / secondsPerDay
	if s%secondsPerDay < 0 { // before 1970: round down, not towards zero
		d--
	}
	return Day(d)
}

// ParseDay reads a day written as String writes it: "2025-03-14".
func ParseDay(s string) (Day, error) {
	t, err := time.Parse(layout, s)
	if err != nil {
		return 0, fmt.Errorf("daily: day %q: want a date as 2025-03-14", s)
	}
	return DayOf(t), nil
}

// String returns the day as "2025-03-14".
func (d Day) String() string { return d.Start().Format(layout) }

// Start returns the day's first instant, midnight UTC.
func (d Day) Start() time.Time { return time.Unix(int64(d)*secondsPerDay, 0).UTC() }

// MarshalText writes the day as String does, for flags and JSON.
func (d Day) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a day as ParseDay does.
func (d *Day) UnmarshalText(b []byte) error {
	v, err := ParseDay(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Grace is how long after midnight UTC the day before's game is still
// accepted: a game begun before midnight lasts at most MaxSteps of play
// (two hours), and an hour more covers pauses and a post sent after it.
const Grace = 3 * time.Hour

// Open reports whether a game of day d is accepted at now: d is now's day,
// or the day before within Grace of midnight.
func (d Day) Open(now time.Time) bool {
	today := DayOf(now)
	return d == today || d == today-1 && now.Sub(today.Start()) < Grace
}
