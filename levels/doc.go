// Package levels keeps the game's numbers out of its code: how many
// asteroids a wave has and how fast they fly, how the ship's gun fires, how
// much debris a break throws, and the capacities of the bullet and debris
// pools. They live in data files loaded by name, as in seed 003's "stats
// library", so a level is tuned by editing a file, not by rebuilding.
//
// The shipped set is embedded in the binary ([Default]; the files themselves
// are [Embedded]), and so is the stress mode's set ([Pressure]), which runs
// both pools full. A player loads a set of their own from a directory with
// [LoadDir] (the --levels DIR flag), a program from any file system with
// [LoadFS].
//
// # Files
//
// A level-set directory holds set.toml and one TOML file per level; the
// levels are played in the order of their file names, so number them:
// 01-first-contact.toml, 02-drift.toml, ... Other files, subdirectories and
// names starting with "." are skipped.
//
// set.toml names the set and sizes the pools, which never grow: when one is
// full a spawn is skipped and counted as a miss.
//
//	name = "Classic"
//
//	[pools]
//	bullets = 32       # the bullet pool, shared by every ship and the saucer
//	shots = 4          # bullets one ship may have in flight (optional)
//	debris = 1024
//	strategy = "freelist"
//
// A ship firing with its shots in flight is refused, and the refusal counted
// as its miss: the arcade game's four shots. Without shots a ship may have
// its equal share of the pool in flight (see the game's "Fair pools").
//
// An optional [saucer] table tunes the saucers of the waves that have one
// ([Saucers]): when the first comes and how often, their shots' speed,
// life and reload, how close to a ship they hold their fire, and how the
// small one, which aims, takes over. A field left out keeps its default
// ([DefaultSaucers]); the shipped set.toml writes every one.
//
// A level file gives one wave; spread and saucer may be left out (0, false):
//
//	name = "Swarm"
//	asteroids = 10         # at the start of the wave
//	size = 3               # 3 large, 2 medium, 1 small
//	speed_min = 32         # playfield units per second; the field is 1024x768
//	speed_max = 74
//	fire_cooldown = 8      # steps (1/60 s) between shots
//	bullet_speed = 600     # units per second
//	bullet_life = 50       # steps
//	bullets_per_shot = 1
//	spread = 0             # degrees between the bullets of one shot
//	debris_per_break = 48  # particles per destroyed asteroid; a lost ship throws 3x
//	debris_life_min = 35   # steps
//	debris_life_max = 80
//	saucer = true          # flying saucers cross the wave
//
// # Ranges
//
// Every field has an allowed range. A file breaking one is refused with a
// *[FieldError] naming the file, the line, the field and what is allowed:
//
//	levels/03-swarm.toml:5: field "speed_max": 9000 is out of range, allowed 10..600
//
// set.toml:
//
//	name                a text of 1 to 40 printable characters
//	pools.bullets       an integer 1..4096, at least the largest bullets_per_shot
//	pools.shots         an integer 0..4096 (optional, 0: an equal share)
//	pools.debris        an integer 1..65536
//	pools.strategy      one of alloc, syncpool, listremove, activelist, scan, queue, freelist, offsets, bitset, dense
//	saucer.first        a number 0..600 (optional; 0: 15, as every saucer field's 0 is its default)
//	saucer.every        a number 0..600 (7)
//	saucer.shot_speed   a number 0..2000 (250)
//	saucer.shot_life    an integer 0..600 (100)
//	saucer.reload       an integer 0..600 (80)
//	saucer.hold_fire    a number 0..1024 (220)
//	saucer.small_score  an integer 0..500000 (20000)
//	saucer.aim          a number 0..180 (10)
//
// A level file:
//
//	name                a text of 1 to 40 printable characters, unique in the set
//	asteroids           an integer 1..64
//	size                an integer 1..3
//	speed_min           a number 0..600, at most speed_max
//	speed_max           a number 10..600
//	fire_cooldown       an integer 1..120
//	bullet_speed        a number 100..2000
//	bullet_life         an integer 1..600
//	bullets_per_shot    an integer 1..16
//	spread              a number 0..45 (optional, 0)
//	debris_per_break    an integer 0..1024
//	debris_life_min     an integer 1..600, at most debris_life_max
//	debris_life_max     an integer 1..600
//	saucer              true or false (optional, false)
//
// Unknown fields, values of the wrong type, missing fields, TOML syntax
// errors, a directory without set.toml or without levels, and files over
// 64 KiB are refused the same way. Of several problems in one file the
// loader reports the one on the earliest line (a missing field, which has no
// line, last). Nothing the files hold makes the loader panic; it is fuzzed.
//
// # Past the last level
//
// The game does not end with the last level: [Set.Level] keeps making it
// harder for [Ramp] more waves (more and faster asteroids, larger debris
// bursts, a saucer), then holds, always within the ranges above.
package levels
