package daily

import (
	"crypto/sha256"
	"encoding/binary"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/levels"
)

// Digest returns the SHA-256 of set's content: every field of the set and
// of its levels, as a replay's header stores them
// ([replay.AppendLevelSet]). Two sets of one digest play the same games;
// a set edited in any field, its name included, has another. A nil set is
// the shipped one ([levels.Default]).
func Digest(set *levels.Set) [32]byte {
	if set == nil {
		set = levels.Default()
	}
	return sha256.Sum256(replay.AppendLevelSet(nil, set))
}

// Seed returns the seed of day d's game on set (nil: the shipped levels):
// the first eight bytes, little-endian, of the SHA-256 of "poolroids
// daily ", the day as String writes it and the set's Digest. It is the
// same on every machine, differs from day to day and from set to set, and
// cannot be chosen: a replay whose seed is a day's was played on that
// day's game. It costs two SHA-256 of a few hundred bytes.
func Seed(d Day, set *levels.Set) uint64 { return seed(d, Digest(set)) }

// seed is Seed for a set's digest.
func seed(d Day, digest [32]byte) uint64 {
	b := make([]byte, 0, 64)
	b = append(b, "poolroids daily "...)
	b = append(b, d.String()...)
	b = append(b, digest[:]...)
	sum := sha256.Sum256(b)
	return binary.LittleEndian.Uint64(sum[:8])
}

// Config returns the game of day d on set (nil: the shipped levels): a
// solo game in co-op mode, the set's capacities, and the day's seed. The
// strategy is the set's; a caller may set another, which changes nothing
// of the game, only the pools' figures. Record it with
// [replay.NewRecorder] and it proves itself with [Verify].
func Config(d Day, set *levels.Set) game.Config {
	if set == nil {
		set = levels.Default()
	}
	return game.Config{Levels: set, Seed: Seed(d, set), Ships: 1}
}
