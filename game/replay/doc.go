// Package replay records games of package game to small files and plays them
// back, checking at every few seconds of play that the replayed game is the
// recorded one.
//
// A [game.World] is deterministic: its [game.Config] and the sequence of
// inputs, joins, leaves, strategy switches and restarts given to it decide
// every later [game.World.Checksum]. A replay file holds exactly that, and
// the checksums that prove it.
//
// # Recording
//
// A [Recorder] builds the world and stands in front of it: a front end
// (local play, a solo game over SSH, an arena) calls [Recorder.Step] once
// per step with every slot's input, instead of stepping the world, and the
// recorder's Join, Leave, SetStrategies and Restart for the events. It
// appends to preallocated storage, allocating nothing per step in steady
// state, and with [Options].Out hands every few seconds of play to a
// goroutine of its own that writes them, so a slow disk never slows the
// game. [Recorder.Close] writes the end. [Autoplay] records the autopilot.
//
// # Playing back
//
// [NewPlayer] checks the whole file, builds the world its header describes
// and plays it step by step ([Player.Step]) or to the end ([Player.Run]),
// stopping at the first checksum that differs with a [*MismatchError]. It
// can hold the pools to one strategy, ignoring the recorded switches, which
// changes nothing in the game: only the pools' figures. A caller that steps
// the world itself, to time the step alone, takes each step's inputs from
// [Player.Next]. [Decode] checks a file without playing it; a [Reader]
// walks its events. A [Watch] is a replay being watched: speed ×¼ to ×16,
// pause, single steps, seeks (back by replaying from the start) and the
// watcher's own strategy, for a front end to draw.
//
// A file that is not a replay, truncated or corrupted is a [*FormatError]
// naming the byte offset and what was expected there. Decoding is one pass
// over the bytes, allocates in proportion to them (every count is bounded)
// and never panics, whatever the bytes (FuzzDecode). A file asks for no
// larger pools than a level set may ([levels.MaxBullets],
// [levels.MaxDebris]), so the world it builds is bounded too, and a
// [Recorder] refuses to record larger ones. A checksum must follow
// every Every steps, so a file cannot ask for more than Every steps per
// nine bytes.
//
// # Ghosts
//
// A [Ghost] is the ship of a recorded solo game re-played step for step
// beside a live game, in a world and pools of its own: a daily game flies
// the day's best beside the player. [Recorder.SetGhost] makes one fly and
// writes its replay into the file, once however often it flies, so that a
// [Watch] of the file shows the ghost where it flew ([Watch.Ghost]). A
// ghost's replay carries no ghost of its own. When it ends, the ghost
// vanishes. A ghost's step costs about what a step of the live world does;
// a [Player] reads the ghost ops and plays no ghost, so checking a file
// never pays for them.
//
// # Format, version 4
//
// Version 4 is version 3 (version 2 with the ghost op) with the level
// set's saucers, played by the rules that came with them: files of
// earlier versions are refused. All integers are unsigned LEB128 varints ("uv"),
// or zigzag varints ("sv") for signed ones; a string is a uv length then
// that many UTF-8 bytes (at most 255); a sum and a float64 are 8 bytes
// little-endian.
//
//	header:
//	  magic     "PRPL"
//	  version   uv: 4
//	  build     string: module version, VCS revision, Go version, GOOS/GOARCH
//	  seed      uv
//	  mode      1 byte: 0 co-op, 1 PvP
//	  ships     uv: ship slots, 1..16
//	  strategy  string: both pools' strategy at the start
//	  bullets   uv: bullet pool capacity, 1..4096 (levels.MaxBullets)
//	  debris    uv: debris pool capacity, 1..65536 (levels.MaxDebris)
//	  every     uv: steps between two checksums, 1..4096 (256 by default)
//	  level set: name string, bullets uv, debris uv, shots uv, strategy string,
//	            levels uv (1..256), then per level: name string, asteroids sv,
//	            size sv, speed_min f64, speed_max f64, fire_cooldown sv,
//	            bullet_speed f64, bullet_life sv, bullets_per_shot sv,
//	            spread f64, debris_per_break sv, debris_life_min sv,
//	            debris_life_max sv, saucer 1 byte; then the saucers
//	            (levels.Saucers, defaults filled in): first f64, every f64,
//	            shot_speed f64, shot_life sv, reload sv, hold_fire f64,
//	            small_score sv, aim f64
//	  players   uv count (<= ships), then a name string each: the ships in
//	            play from the start by slot (a solo game's player)
//	  start     sum: the world's checksum before the first step
//	body, one op after another; every slot's input starts all released and
//	the current slot at 0:
//	  0x00-0x7F input: 0b0ccIIIII: the current slot's input becomes IIIII
//	            (1 left, 2 right, 4 thrust, 8 fire, 16 hyperspace), then cc
//	            steps (0..3) are played
//	  0x80-0xBE run: 0b10nnnnnn: n+1 steps (1..63) are played
//	  0xBF      long run: uv k: 64+k steps are played
//	  0xC0-0xCF slot: the current slot becomes the low four bits
//	  0xD0      join: slot uv, name string
//	  0xD1      leave: slot uv
//	  0xD2      switch: bullets string, debris string ("" keeps that pool's)
//	  0xD3      restart: a new game, as World.Restart
//	  0xD4      checksum: sum of the world after the last step played; it
//	            follows every step whose number is a multiple of every, and
//	            no step may be played past such a step without it
//	  0xD5      end: steps uv (all played), sum; the last byte of the file
//	  0xD6      ghost: uv k: ghost k flies beside the game from the next
//	            step on, having played as many steps of its replay as the
//	            file has so far, and one more with each; 0: none flies. k is
//	            1..4 (MaxGhosts), numbered in order of first flight: a k one
//	            above the ghosts so far brings a new ghost, followed by uv n
//	            (1..524288, MaxGhost) and n bytes, the replay file of a solo
//	            game of this version with no ghost op of its own, whose
//	            player is the ghost's
//
// The level set is stored whole, not as a name or a hash: a file replays
// wherever the same rules are built, whatever level sets that build ships
// or a server has loaded. It costs a few hundred bytes once. So is a
// ghost's replay: the file replays with its ghost without the store it
// came from, for about 1 KiB a minute of the ghost's game.
//
// A minute of a solo game played by hand takes under 1 KiB, header
// included, and so does a minute of the stress autopilot, which holds its
// keys a few steps at a time; keys that change every step cost a byte a
// step, 3.5 KiB a minute.
package replay
