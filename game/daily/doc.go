// Package daily is the daily game: one game a day for everyone, whose
// scores are proven by their replays.
//
// A game of package game is decided by its configuration and its inputs,
// and a replay (package game/replay) holds both and the checksums of the
// world they make. So a board need not trust a score: it can re-play the
// replay and read the score off the world the replay makes. What it must
// check is that the replay is of the game the board ranks: everyone's is
// the same, chosen by no player.
//
// # The day's game
//
// Each UTC [Day] has one game: [Config] gives it, a solo co-op game on a
// level set with its own capacities and the seed of [Seed], derived from
// the day and a [Digest] of the set's content. Every machine derives the
// same seed; another day or a set edited in any field derives another,
// and nobody picks it. The pools' strategy is free: it changes their
// figures, never the game.
//
// # Proof
//
// [Verify] proves a replay: it checks that the file is one solo game of
// the set and its capacities, that its seed is the game of a day open now
// ([Day.Open]: today, and yesterday until [Grace] after midnight, for a
// game begun before it), then re-plays it headless to its end, through
// every recorded checksum, and returns the [Proof]: the re-played world's
// score, wave and steps, the day, and the name the replay gives its player.
// A score claimed for the file is worth nothing until [Proof.Confirm]
// finds it equal. What it refuses is a [*RefusedError] whose [Reason]
// says why: malformed, truncated, too large, not solo, other levels or
// capacities, another day's, forged (no day's seed), altered (the re-play
// leaves its checksums).
//
// A proof's cost is bounded before it starts: at most [MaxBytes] read,
// and at most [MaxSteps] (two hours) re-played, checked from the file's
// ops before a step is played. A 20-minute game re-plays in a fraction of
// a second of one core (BenchmarkVerify). A server runs its proofs
// through a [Gate], which bounds how many run at once and wait.
//
// A proof says the replay is a game of the day played to that score on
// this build: not who or what played it. A program that searches the
// game's inputs (as BenchmarkVerify's assisted autopilot does), or that
// starts from the day's best replay, makes a valid replay, and a file
// posted twice proves the same game twice ([Proof].Sum tells it). Telling
// players apart is the board's business.
// Checksums compare within one architecture (see package game): a game
// recorded on another may be refused as altered, and the message names
// both builds.
//
// # Ghosts
//
// In a daily game the day's best replay may fly beside the player as a
// ghost: [replay.Recorder.SetGhost] starts it in a world and pools of its
// own, steps it with the game and writes it into the game's replay, which
// [replay.Watch] then shows with its ghost. The ghost changes nothing of
// the game, and Verify plays none.
package daily
