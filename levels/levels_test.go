package levels

import (
	"io/fs"
	"os"
	"strings"
	"testing"

	"poolroids/pool"
)

func TestDefault(t *testing.T) {
	s := Default()
	if err := s.Validate(); err != nil {
		t.Fatalf("shipped set: %v", err)
	}
	if s.Bullets != 32 || s.Shots != 4 || s.Debris != 1024 || s.Strategy != pool.FreeList {
		t.Errorf("capacities %d/%d, %d shots, strategy %q; want 32/1024, 4 shots, freelist", s.Bullets, s.Debris, s.Shots, s.Strategy)
	}
	files, err := fs.Glob(Embedded(), "*.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Levels) < 5 || len(s.Levels) != len(files)-1 {
		t.Errorf("%d levels from %d files, want >= 5 levels, every file but set.toml", len(s.Levels), len(files))
	}
	if s.Saucer != DefaultSaucers {
		t.Errorf("shipped saucers %+v, want the defaults written out: %+v", s.Saucer, DefaultSaucers)
	}
}

// TestSaucers: a zero saucer field is its default; a set field stays.
func TestSaucers(t *testing.T) {
	s := Set{Saucer: Saucers{ShotSpeed: 400, Aim: 3}}
	want := DefaultSaucers
	want.ShotSpeed, want.Aim = 400, 3
	if got := s.Saucers(); got != want {
		t.Errorf("Saucers() = %+v\nwant %+v", got, want)
	}
}

// TestDefaultGetsHarder holds the shipped waves to the arcade's rule: each
// of the first ten is strictly harder than the one before, and no later
// wave is easier than its predecessor. Harder means: no fewer, no slower,
// no smaller asteroids, no less debris, a saucer once there was one, and
// the same weapon (the game never hands out a better gun); strictly harder
// means more asteroids or faster ones on top of that.
func TestDefaultGetsHarder(t *testing.T) {
	s := Default()
	first := s.Level(0)
	for n := 1; n < len(s.Levels)+Ramp+10; n++ {
		a, b := s.Level(n-1), s.Level(n)
		easier := b.Asteroids < a.Asteroids || b.Size < a.Size ||
			b.SpeedMin < a.SpeedMin || b.SpeedMax < a.SpeedMax ||
			b.DebrisPerBreak < a.DebrisPerBreak || (a.Saucer && !b.Saucer)
		stronger := b.FireCooldown != first.FireCooldown || b.BulletSpeed != first.BulletSpeed ||
			b.BulletLife != first.BulletLife || b.BulletsPerShot != 1 || b.Spread != 0
		harder := b.Asteroids > a.Asteroids || b.SpeedMin > a.SpeedMin || b.SpeedMax > a.SpeedMax
		switch {
		case easier:
			t.Errorf("wave %d %q is easier than wave %d:\n%+v\n%+v", n+1, b.Name, n, b, a)
		case stronger:
			t.Errorf("wave %d %q hands out another gun:\n%+v", n+1, b.Name, b)
		case n < 10 && !harder:
			t.Errorf("wave %d %q is no harder than wave %d:\n%+v\n%+v", n+1, b.Name, n, b, a)
		}
	}
	if !first.Saucer {
		t.Error("no saucer in wave 1: a player who waits is safe")
	}
	if want := []int{4, 6, 8, 10, 12, 14, 16}; len(s.Levels) != len(want) {
		t.Fatalf("%d levels, want %d", len(s.Levels), len(want))
	} else {
		for i, l := range s.Levels {
			if l.Asteroids != want[i] {
				t.Errorf("level %d %q starts with %d asteroids, want %d", i+1, l.Name, l.Asteroids, want[i])
			}
		}
	}
}

func TestDefaultIsACopy(t *testing.T) {
	a := Default()
	a.Levels[0].Asteroids = 99
	a.Levels = a.Levels[:1]
	if b := Default(); b.Levels[0].Asteroids == 99 || len(b.Levels) < 5 {
		t.Error("changing one Default() changed the next")
	}
}

func TestLevelIndex(t *testing.T) {
	s := Default()
	for i, l := range s.Levels {
		if s.Level(i) != l {
			t.Errorf("Level(%d) = %+v, want Levels[%d]", i, s.Level(i), i)
		}
	}
	if s.Level(-3) != s.Levels[0] {
		t.Error("Level(-3) is not the first level")
	}
	if (&Set{}).Level(4) != (Level{}) {
		t.Error("Level of an empty set is not the zero Level")
	}
}

// TestLevelPastTheEnd checks that waves past the last level get harder for
// Ramp waves, then hold, without leaving the allowed ranges, for the
// shipped set and for sets whose last level starts at the limits.
func TestLevelPastTheEnd(t *testing.T) {
	top := Default().Levels[0]
	top.Asteroids, top.SpeedMin, top.SpeedMax, top.DebrisPerBreak = maxAsteroids-1, maxSpeed-5, maxSpeed, maxPerBreak-3
	calm := top
	calm.Name, calm.Asteroids, calm.SpeedMin, calm.SpeedMax, calm.DebrisPerBreak = "calm", 1, 0, 10, 0
	sets := map[string]*Set{
		"shipped":   Default(),
		"at limits": {Name: "top", Bullets: 64, Debris: 64, Strategy: pool.Dense, Levels: []Level{top}},
		"calm":      {Name: "calm", Bullets: 64, Debris: 64, Strategy: pool.Dense, Levels: []Level{calm}},
	}
	for name, s := range sets {
		t.Run(name, func(t *testing.T) {
			last := len(s.Levels) - 1
			prev := s.Level(last)
			for n := last + 1; n <= last+Ramp+10; n++ {
				l := s.Level(n)
				one := &Set{Name: "one", Bullets: s.Bullets, Debris: s.Debris, Strategy: s.Strategy, Levels: []Level{l}}
				if err := one.Validate(); err != nil {
					t.Fatalf("Level(%d) leaves the ranges: %v", n, err)
				}
				if l.Asteroids < prev.Asteroids || l.SpeedMin < prev.SpeedMin || l.SpeedMax < prev.SpeedMax || l.DebrisPerBreak < prev.DebrisPerBreak || !l.Saucer {
					t.Errorf("Level(%d) is easier than Level(%d):\n%+v\n%+v", n, n-1, l, prev)
				}
				weapon := func(l Level) [5]float64 {
					return [5]float64{float64(l.FireCooldown), l.BulletSpeed, float64(l.BulletLife), float64(l.BulletsPerShot), l.Spread}
				}
				if weapon(l) != weapon(prev) || l.Name != prev.Name || l.Size != prev.Size {
					t.Errorf("Level(%d) changed more than the wave and the debris", n)
				}
				harder := l.Asteroids > prev.Asteroids || l.SpeedMax > prev.SpeedMax || l.DebrisPerBreak > prev.DebrisPerBreak
				if n <= last+Ramp && !harder && name != "at limits" {
					t.Errorf("Level(%d) is no harder than Level(%d)", n, n-1)
				}
				if n > last+Ramp && l != prev {
					t.Errorf("Level(%d) differs from Level(%d) past the ramp", n, n-1)
				}
				prev = l
			}
		})
	}
}

func TestLevelAllocs(t *testing.T) {
	s := Default()
	if n := testing.AllocsPerRun(100, func() { _ = s.Level(len(s.Levels) + 3) }); n != 0 {
		t.Errorf("Level allocates %v times, want 0", n)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*Set)
		field string
		msg   string
	}{
		{"no name", func(s *Set) { s.Name = "" }, "name", `"" is empty, allowed a text of 1 to 40 printable characters`},
		{"zero capacity", func(s *Set) { s.Bullets = 0 }, "pools.bullets", "0 is out of range, allowed 1..4096"},
		{"strategy spelt loosely", func(s *Set) { s.Strategy = "FreeList" }, "pools.strategy", `"FreeList" is not a strategy, allowed one of alloc, ...`},
		{"no strategy", func(s *Set) { s.Strategy = "" }, "pools.strategy", `"" is not a strategy, ...`},
		{"no levels", func(s *Set) { s.Levels = nil }, "levels", "no levels, allowed one or more"},
		{"zero level", func(s *Set) { s.Levels[2] = Level{} }, "levels[2].name", `"" is empty, ...`},
		{"out of range", func(s *Set) { s.Levels[1].Size = 4 }, "levels[1].size", "4 is out of range, allowed 1..3"},
		{"speeds upside down", func(s *Set) { s.Levels[0].SpeedMin = 300 }, "levels[0].speed_min", "300 is above speed_max 50, allowed 0..50"},
		{"saucer aim", func(s *Set) { s.Saucer.Aim = 200 }, "saucer.aim", "200 is out of range, allowed 0..180"},
		{"saucer shot life", func(s *Set) { s.Saucer.ShotLife = -1 }, "saucer.shot_life", "-1 is out of range, allowed 0..600"},
		{"same name twice", func(s *Set) { s.Levels[3].Name = s.Levels[1].Name }, "levels[3].name", `"Drift" is already the name of levels[1], allowed a name of its own`},
		{"volley too big", func(s *Set) { s.Levels[1].BulletsPerShot = 16; s.Bullets = 15 }, "pools.bullets", "15 is too small for one volley of levels[1] (bullets_per_shot = 16), allowed 16..4096"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Default()
			c.edit(s)
			checkFieldError(t, nil, s.Validate(), "", 0, c.field, c.msg)
		})
	}
}

// TestDocRanges keeps the package documentation in step with the field
// tables: every field is listed there with what it allows.
func TestDocRanges(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	listed := func(key, allowed string) bool {
		for _, l := range lines {
			if f := strings.Fields(strings.TrimPrefix(l, "//")); len(f) > 1 && f[0] == key &&
				strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(l, "//")), key)), allowed) {
				return true
			}
		}
		return false
	}
	for _, f := range setFields {
		if f.kind != kTable && !listed(f.key, f.allowed()) {
			t.Errorf("doc.go does not list set field %s as %q", f.key, f.allowed())
		}
	}
	for _, f := range levelFields {
		if !listed(f.key, f.allowed()) {
			t.Errorf("doc.go does not list level field %s as %q", f.key, f.allowed())
		}
	}
}

// TestPressure checks the built-in set loads and is what the stress mode
// needs: a volley every step, more debris per break than most sets, and
// fresh copies.
func TestPressure(t *testing.T) {
	a, b := Pressure(), Pressure()
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, l := range a.Levels {
		if l.FireCooldown != 1 || l.BulletsPerShot*l.BulletLife <= a.Bullets || l.DebrisPerBreak < 100 {
			t.Errorf("level %q does not fill the pools: %+v", l.Name, l)
		}
	}
	a.Levels[0].Asteroids = 1
	if b.Levels[0].Asteroids == 1 || Pressure().Levels[0].Asteroids == 1 {
		t.Error("Pressure returns shared levels")
	}
}
