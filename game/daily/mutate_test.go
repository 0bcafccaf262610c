package daily_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/replay"
	"poolroids/levels"
)

// mutant is a changed replay of a daily game, and what Verify may answer.
type mutant struct {
	kind string
	data []byte
	// may lists the reasons it may be refused for; accept says it may be
	// proven (its own score, whatever that is), must that it must be.
	may          []daily.Reason
	accept, must bool
}

// anyReason is every reason but Claimed, which Verify never gives.
var anyReason = []daily.Reason{daily.Malformed, daily.Truncated, daily.TooLarge, daily.NotSolo, daily.OtherLevels,
	daily.OtherCapacities, daily.OtherDay, daily.Forged, daily.Altered}

// headerAt returns the offsets of the seed and of the first player's name
// (its length byte) in a daily file of this build.
func headerAt(t *testing.T, data []byte) (seed, name int) {
	r, err := replay.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Header()
	seed = 4 + 1 + 1 + len(h.Build)
	name = r.Offset() - 8 - 1 - len(h.Players[0])
	if !bytes.Equal(data[name+1:name+1+len(h.Players[0])], []byte(h.Players[0])) {
		t.Fatalf("the name is not at byte %d", name)
	}
	return seed, name
}

// mutants makes 100 changed replays of data, a daily game of day played
// by ann, with other, another one of bob's, for splices.
func mutants(t *testing.T, data, other []byte) []mutant {
	rng := rand.New(rand.NewPCG(36, 1))
	r, err := replay.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	body := r.Offset()
	seedAt, nameAt := headerAt(t, data)
	_, seedLen := binary.Uvarint(data[seedAt:])
	ins, bobs := inputs(t, data), inputs(t, other)
	cfg := daily.Config(day, nil)
	var ms []mutant
	add := func(kind string, b []byte, accept, must bool, may ...daily.Reason) {
		ms = append(ms, mutant{kind: kind, data: b, may: may, accept: accept, must: must})
	}
	withSeed := func(s uint64) []byte {
		return slices.Concat(data[:seedAt], binary.AppendUvarint(nil, s), data[seedAt+seedLen:])
	}
	for range 32 {
		b := bytes.Clone(data)
		b[rng.IntN(len(b))] ^= 1 << rng.IntN(8)
		add("bit flip", b, true, false, anyReason...)
	}
	for range 12 {
		add("truncation", bytes.Clone(data[:rng.IntN(len(data))]), false, false, daily.Truncated)
	}
	for range 6 {
		junk := make([]byte, 1+rng.IntN(64))
		for i := range junk {
			junk[i] = byte(rng.Uint32())
		}
		add("appended junk", slices.Concat(data, junk), false, false, daily.Malformed)
	}
	for range 10 {
		i := body + rng.IntN(len(data)-body-9)
		n := 1 + rng.IntN(min(40, len(data)-9-i))
		j := rng.IntN(len(other) - n - 9)
		add("spliced bytes", slices.Concat(data[:i], other[j:j+n], data[i+n:]), true, false, anyReason...)
	}
	for range 10 {
		k := rng.IntN(min(len(ins), len(bobs)))
		spliced := slices.Concat(ins[:k], bobs[k:])
		add("spliced inputs", rerecord(t, cfg, "ann", spliced), true, true)
	}
	for _, s := range []uint64{daily.Seed(day-1, nil), daily.Seed(day+1, nil), daily.Seed(day, nil) + 1, 0} {
		add("changed seed", withSeed(s), false, false, daily.OtherDay, daily.Forged)
	}
	for _, d := range []daily.Day{day - 2, day + 3} {
		add("another day's game", rerecord(t, daily.Config(d, nil), "ann", ins), false, false, daily.OtherDay)
	}
	for _, s := range []uint64{rng.Uint64(), daily.Seed(day, tinySet())} {
		c := cfg
		c.Seed = s
		add("no day's seed", rerecord(t, c, "ann", ins), false, false, daily.Forged)
	}
	edited := levels.Default()
	edited.Levels[0].Asteroids++
	renamed := levels.Default()
	renamed.Name = "Classic!"
	for _, set := range []*levels.Set{tinySet(), levels.Pressure(), edited, renamed} {
		add("other levels", rerecord(t, daily.Config(day, set), "ann", ins), false, false, daily.OtherLevels)
	}
	add("other levels, same seed", rerecord(t, game.Config{Levels: edited, Seed: cfg.Seed}, "ann", ins), false, false, daily.OtherLevels)
	for _, cap := range [][2]int{{31, 0}, {33, 0}, {64, 0}, {0, 1023}, {0, 2048}} {
		c := cfg
		c.Bullets, c.Debris = cap[0], cap[1]
		add("other capacities", rerecord(t, c, "ann", ins), false, false, daily.OtherCapacities)
	}
	for _, name := range []string{"eve", "mal", "bob", "ANN"} {
		add("another name", slices.Concat(data[:nameAt+1], []byte(name), data[nameAt+4:]), true, true)
	}
	for range 3 {
		i := body + rng.IntN(len(data)-body)
		add("deleted byte", slices.Concat(data[:i], data[i+1:]), false, false, daily.Malformed, daily.Truncated, daily.Altered)
	}
	for range 3 {
		i := body + rng.IntN(len(data)-body)
		add("inserted byte", slices.Concat(data[:i], []byte{byte(rng.Uint32())}, data[i:]), false, false, anyReason...)
	}
	add("doubled", slices.Concat(data, data), false, false, daily.Malformed)
	add("empty", nil, false, false, daily.Truncated)
	return ms
}

// TestMutations: 100 mutated replays of a real daily game (bit flips,
// truncations, junk, spliced bytes and inputs, other seeds, days, levels,
// capacities and names, deleted and inserted bytes) are each refused for
// a reason its mutation allows, or proven with exactly the score, wave,
// steps and checksum its own re-play reaches, never another.
func TestMutations(t *testing.T) {
	t.Parallel()
	data, w := handGame(t, day, nil, "ann", 3, 20000)
	other, _ := handGame(t, day, nil, "bob", 13, 20000)
	ms := mutants(t, data, other)
	if len(ms) != 100 {
		t.Fatalf("%d mutants, want 100", len(ms))
	}
	tally := map[string]int{}
	for i, m := range ms {
		name := fmt.Sprintf("%d %s", i, m.kind)
		p, err := daily.Verify(t.Context(), m.data, noon, nil)
		if err != nil {
			var r *daily.RefusedError
			switch {
			case !errors.As(err, &r):
				t.Errorf("%s: %v, want a refusal", name, err)
			case m.must:
				t.Errorf("%s: refused (%v), want it proven", name, err)
			case !slices.Contains(m.may, r.Reason):
				t.Errorf("%s: refused as %s (%v), want one of %v", name, r.Reason, err, m.may)
			}
			tally["refused, "+r.Reason.String()]++
			continue
		}
		if !m.accept {
			t.Errorf("%s: proven %+v, want it refused as one of %v", name, p, m.may)
			continue
		}
		want := replayed(t, m.data)
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
