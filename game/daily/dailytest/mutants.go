package dailytest

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/replay"
	"poolroids/levels"
)

// Mutant is a changed replay of a daily game, and what Verify may answer.
type Mutant struct {
	Kind string // what was changed: "bit flip", "truncation", …
	Data []byte
	// May lists the reasons it may be refused for; Accept says it may be
	// proven (its own score, whatever that is), Must that it must be.
	May          []daily.Reason
	Accept, Must bool
}

// AnyReason is every reason but Claimed, which Verify never gives.
var AnyReason = []daily.Reason{daily.Malformed, daily.Truncated, daily.TooLarge, daily.NotSolo, daily.OtherLevels,
	daily.OtherCapacities, daily.OtherDay, daily.Forged, daily.Altered}

// headerAt returns the offsets of the seed and of the first player's name
// (its length byte) in a daily file of this build.
func headerAt(tb testing.TB, data []byte) (seed, name int) {
	r, err := replay.NewReader(data)
	if err != nil {
		tb.Fatal(err)
	}
	h := r.Header()
	seed = 4 + 1 + 1 + len(h.Build)
	name = r.Offset() - 8 - 1 - len(h.Players[0])
	if !bytes.Equal(data[name+1:name+1+len(h.Players[0])], []byte(h.Players[0])) {
		tb.Fatalf("the name is not at byte %d", name)
	}
	return seed, name
}

// Mutants makes 100 changed replays of data, day d's game on the shipped
// levels played by a player of a three-letter name, with other, another
// game of the day, for splices: 32 bit flips, 12 truncations, 6 junk
// tails, 10 spliced byte runs and 10 spliced inputs, 4 changed seeds, 2
// other days' games, 2 of no day's seed, 5 of other levels, 5 of other
// capacities, 4 other names, 3 deleted and 3 inserted bytes, the file
// twice and an empty one. The same data and other make the same mutants.
func Mutants(tb testing.TB, d daily.Day, data, other []byte) []Mutant {
	rng := rand.New(rand.NewPCG(36, 1))
	r, err := replay.NewReader(data)
	if err != nil {
		tb.Fatal(err)
	}
	body, player := r.Offset(), r.Header().Players[0]
	if len(player) != 3 {
		tb.Fatalf("the game's player is %q: want a three-letter name, which four others replace", player)
	}
	seedAt, nameAt := headerAt(tb, data)
	_, seedLen := binary.Uvarint(data[seedAt:])
	ins, others := Inputs(tb, data), Inputs(tb, other)
	cfg := daily.Config(d, nil)
	var ms []Mutant
	add := func(kind string, b []byte, accept, must bool, may ...daily.Reason) {
		ms = append(ms, Mutant{Kind: kind, Data: b, May: may, Accept: accept, Must: must})
	}
	withSeed := func(s uint64) []byte {
		return slices.Concat(data[:seedAt], binary.AppendUvarint(nil, s), data[seedAt+seedLen:])
	}
	for range 32 {
		b := bytes.Clone(data)
		b[rng.IntN(len(b))] ^= 1 << rng.IntN(8)
		add("bit flip", b, true, false, AnyReason...)
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
		add("spliced bytes", slices.Concat(data[:i], other[j:j+n], data[i+n:]), true, false, AnyReason...)
	}
	for range 10 {
		k := rng.IntN(min(len(ins), len(others)))
		spliced := slices.Concat(ins[:k], others[k:])
		add("spliced inputs", Rerecord(tb, cfg, player, spliced), true, true)
	}
	for _, s := range []uint64{daily.Seed(d-2, nil), daily.Seed(d+1, nil), daily.Seed(d, nil) + 1, 0} {
		add("changed seed", withSeed(s), false, false, daily.OtherDay, daily.Forged)
	}
	for _, od := range []daily.Day{d - 2, d + 3} {
		add("another day's game", Rerecord(tb, daily.Config(od, nil), player, ins), false, false, daily.OtherDay)
	}
	for _, s := range []uint64{rng.Uint64(), daily.Seed(d, TinySet())} {
		c := cfg
		c.Seed = s
		add("no day's seed", Rerecord(tb, c, player, ins), false, false, daily.Forged)
	}
	edited := levels.Default()
	edited.Levels[0].Asteroids++
	renamed := levels.Default()
	renamed.Name = "Classic!"
	for _, set := range []*levels.Set{TinySet(), levels.Pressure(), edited, renamed} {
		add("other levels", Rerecord(tb, daily.Config(d, set), player, ins), false, false, daily.OtherLevels)
	}
	add("other levels, same seed", Rerecord(tb, game.Config{Levels: edited, Seed: cfg.Seed}, player, ins), false, false, daily.OtherLevels)
	for _, cap := range [][2]int{{31, 0}, {33, 0}, {64, 0}, {0, 1023}, {0, 2048}} {
		c := cfg
		c.Bullets, c.Debris = cap[0], cap[1]
		add("other capacities", Rerecord(tb, c, player, ins), false, false, daily.OtherCapacities)
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
		add("inserted byte", slices.Concat(data[:i], []byte{byte(rng.Uint32())}, data[i:]), false, false, AnyReason...)
	}
	add("doubled", slices.Concat(data, data), false, false, daily.Malformed)
	add("empty", nil, false, false, daily.Truncated)
	return ms
}
