package daily_test

import (
	"testing"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/levels"
	"poolroids/pool"
)

// The derivation is pinned, to a value computed apart from this code (in
// Python, from the documented encoding): servers of a fleet built on other
// machines, and local games, must agree on the day's game.
func TestSeedPinned(t *testing.T) {
	t.Parallel()
	if err := dailytest.TinySet().Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := daily.Seed(day, dailytest.TinySet()), uint64(0x96641945032dbe05); got != want {
		t.Errorf("Seed(%s, tiny) = %#x, want %#x", day, got, want)
	}
}

// Every day has its own seed, and so has every edit of a set; a copy of a
// set has the same, and nil is the shipped set.
func TestSeed(t *testing.T) {
	t.Parallel()
	seen := map[uint64]daily.Day{}
	for d := day - 400; d < day+400; d++ {
		s := daily.Seed(d, nil)
		if prev, dup := seen[s]; dup {
			t.Fatalf("%s and %s share seed %#x", prev, d, s)
		}
		seen[s] = d
	}
	base := daily.Seed(day, levels.Default())
	if daily.Seed(day, nil) != base || daily.Seed(day, levels.Default()) != base {
		t.Fatal("the shipped set's seed changes from call to call")
	}
	for _, edit := range []struct {
		name string
		f    func(*levels.Set)
	}{
		{"name", func(s *levels.Set) { s.Name += "!" }},
		{"bullets", func(s *levels.Set) { s.Bullets++ }},
		{"shots", func(s *levels.Set) { s.Shots++ }},
		{"debris", func(s *levels.Set) { s.Debris-- }},
		{"strategy", func(s *levels.Set) { s.Strategy = pool.Dense }},
		{"a level's name", func(s *levels.Set) { s.Levels[2].Name += "!" }},
		{"asteroids", func(s *levels.Set) { s.Levels[0].Asteroids++ }},
		{"speed", func(s *levels.Set) { s.Levels[4].SpeedMax += 1e-9 }},
		{"saucer", func(s *levels.Set) { s.Levels[1].Saucer = !s.Levels[1].Saucer }},
		{"one level less", func(s *levels.Set) { s.Levels = s.Levels[:len(s.Levels)-1] }},
		{"levels swapped", func(s *levels.Set) { s.Levels[0], s.Levels[1] = s.Levels[1], s.Levels[0] }},
	} {
		s := levels.Default()
		edit.f(s)
		if daily.Seed(day, s) == base || daily.Digest(s) == daily.Digest(nil) {
			t.Errorf("a set with its %s edited has the shipped set's seed or digest", edit.name)
		}
	}
}

// The day's game is solo, on the set with its capacities, with the day's
// seed.
func TestConfig(t *testing.T) {
	t.Parallel()
	for _, set := range []*levels.Set{nil, dailytest.TinySet()} {
		cfg := daily.Config(day, set)
		w, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		want := set
		if want == nil {
			want = levels.Default()
		}
		if w.Seed() != daily.Seed(day, set) || w.Ships() != 1 || w.Mode() != game.Coop ||
			daily.Digest(w.LevelSet()) != daily.Digest(want) || w.Bullets().Cap() != want.Bullets || w.Debris().Cap() != want.Debris {
			t.Errorf("Config(%s, %v) builds seed %#x, %d ships, %s, %d bullets, %d debris", day, set, w.Seed(), w.Ships(), w.Mode(), w.Bullets().Cap(), w.Debris().Cap())
		}
	}
}
