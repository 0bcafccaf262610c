package daily_test

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/daily/dailytest"
	"poolroids/game/replay"
)

// TestMutations: 100 mutated replays of a real daily game (bit flips,
// truncations, junk, spliced bytes and inputs, other seeds, days, levels,
// capacities and names, deleted and inserted bytes) are each refused for
// a reason its mutation allows, or proven with exactly the score, wave,
// steps and checksum its own re-play reaches, never another.
func TestMutations(t *testing.T) {
	t.Parallel()
	data, w := dailytest.HandGame(t, day, nil, "ann", 3, 20000)
	other, _ := dailytest.HandGame(t, day, nil, "bob", 13, 20000)
	ms := dailytest.Mutants(t, day, data, other)
	if len(ms) != 100 {
		t.Fatalf("%d mutants, want 100", len(ms))
	}
	tally := map[string]int{}
	for i, m := range ms {
		name := fmt.Sprintf("%d %s", i, m.Kind)
		p, err := daily.Verify(t.Context(), m.Data, noon, nil)
		if err != nil {
			var r *daily.RefusedError
			switch {
			case !errors.As(err, &r):
				t.Errorf("%s: %v, want a refusal", name, err)
			case m.Must:
				t.Errorf("%s: refused (%v), want it proven", name, err)
			case !slices.Contains(m.May, r.Reason):
				t.Errorf("%s: refused as %s (%v), want one of %v", name, r.Reason, err, m.May)
			}
			tally["refused, "+r.Reason.String()]++
			continue
		}
		if !m.Accept {
			t.Errorf("%s: proven %+v, want it refused as one of %v", name, p, m.May)
			continue
		}
		want := replayed(t, m.Data)
		if p.Score != want.Score() || p.Wave != want.Wave() || p.Steps != want.Steps() || p.Sum != want.Checksum() || p.Day != day {
			t.Errorf("%s: proven %+v, its re-play reaches score %d, wave %d, %d steps, sum %016x", name, p, want.Score(), want.Wave(), want.Steps(), want.Checksum())
		}
		if p.Confirm(want.Score()) != nil || p.Score != w.Score() && p.Confirm(w.Score()) == nil {
			t.Errorf("%s: Confirm takes the wrong score", name)
		}
		if p.Score == w.Score() {
			tally["proven, the game's score"]++
		} else {
			tally["proven, another score"]++
		}
	}
	t.Logf("the game: %d steps, score %d; mutants: %v", w.Steps(), w.Score(), tally)
}

// replayed re-plays data to its end and returns its world.
func replayed(t *testing.T, data []byte) *game.World {
	t.Helper()
	p, err := replay.NewPlayer(data, "")
	if err != nil {
		t.Fatal(err)
	}
	for {
		switch err := p.Step(); {
		case errors.Is(err, io.EOF):
			return p.World()
		case err != nil:
			t.Fatal(err)
		}
	}
}
