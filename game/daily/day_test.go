package daily_test

import (
	"encoding/json"
	"testing"
	"time"

	"poolroids/game/daily"
)

// A day is the UTC date of an instant, whatever its zone, and reads as it
// writes.
func TestDay(t *testing.T) {
	t.Parallel()
	tokyo := time.FixedZone("JST", 9*3600)
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), "1970-01-01"},
		{time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), "1969-12-31"},
		{time.Date(2025, 6, 14, 23, 59, 59, 999, time.UTC), "2025-06-14"},
		{time.Date(2025, 6, 15, 0, 0, 0, 0, time.UTC), "2025-06-15"},
		{time.Date(2025, 6, 15, 8, 59, 0, 0, tokyo), "2025-06-14"}, // 23:59 UTC
		{time.Date(2025, 6, 15, 9, 0, 0, 0, tokyo), "2025-06-15"},
		{time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC), "2024-02-29"},
	} {
		d := daily.DayOf(tc.at)
		if d.String() != tc.want {
			t.Errorf("DayOf(%v) = %s, want %s", tc.at, d, tc.want)
		}
		back, err := daily.ParseDay(tc.want)
		if err != nil || back != d {
			t.Errorf("ParseDay(%q) = %d, %v; want %d", tc.want, back, err, d)
		}
		if s := d.Start(); !s.Equal(back.Start()) || s.Location() != time.UTC || daily.DayOf(s) != d || daily.DayOf(s.Add(-time.Nanosecond)) != d-1 {
			t.Errorf("%s starts at %v", d, s)
		}
	}
	if d := daily.DayOf(time.Date(2025, 6, 14, 0, 0, 0, 0, time.UTC)); d+1 != daily.DayOf(time.Date(2025, 6, 15, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("the day after %s is not %s + 1", d, d)
	}
	for _, bad := range []string{"", "2025-6-14", "2025-06-31", "14/06/2025", "2025-06-14T00:00:00Z", "2025-06-14 "} {
		if _, err := daily.ParseDay(bad); err == nil {
			t.Errorf("ParseDay(%q) took it", bad)
		}
	}
}

// A day is text in flags and JSON.
func TestDayText(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(struct{ Day daily.Day }{day})
	if err != nil || string(b) != `{"Day":"2025-06-14"}` {
		t.Fatalf("json: %s, %v", b, err)
	}
	var v struct{ Day daily.Day }
	if err := json.Unmarshal(b, &v); err != nil || v.Day != day {
		t.Fatalf("json back: %v, %v", v.Day, err)
	}
	if err := json.Unmarshal([]byte(`{"Day":"tomorrow"}`), &v); err == nil {
		t.Fatal(`json "tomorrow" taken`)
	}
}

// A day's game is open on the day, and the next day until Grace after
// midnight; never before it, never later.
func TestOpen(t *testing.T) {
	t.Parallel()
	start := day.Start()
	for _, tc := range []struct {
		at   time.Duration // from the day's start
		open bool
	}{
		{-time.Nanosecond, false},
		{0, true},
		{12 * time.Hour, true},
		{24*time.Hour - time.Nanosecond, true},
		{24 * time.Hour, true},
		{24*time.Hour + daily.Grace - time.Nanosecond, true},
		{24*time.Hour + daily.Grace, false},
		{48 * time.Hour, false},
	} {
		if got := day.Open(start.Add(tc.at)); got != tc.open {
			t.Errorf("at %v after its start, Open = %v, want %v", tc.at, got, tc.open)
		}
	}
}
