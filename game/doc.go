// Package game is a headless, deterministic asteroids simulation whose
// bullets and debris live in fixed-capacity [pool.Pool]s. It knows nothing of
// terminals: a front end feeds one [Input] per [World.Step] and draws what the
// accessors return; the stress mode and the tests drive the very same world.
//
// # Ships
//
// A world has one to [MaxShips] ship slots ([Config].Ships). The solo game
// is a world of one slot, joined by [New]; in a world of several (an arena),
// players [World.Join] and [World.Leave] slots at any time and
// [World.StepAll] takes every slot's [Input]. Each slot has its own ship,
// score, lives, phase and misses ([World.Player]); the rocks, the saucer,
// the waves and the two pools are shared. In [Coop] bullets never hit ships
// but the saucer's; in [PvP] they hit the other ships too and a kill scores
// [KillPoints] for the shooter. Ships pass through each other.
//
// # Time and space
//
// Step advances the world by exactly 1/[TPS] of a second. The playfield is
// [Width] × [Height] logical units whatever the screen, and wraps around at
// its edges; velocities are in units per second, Y grows downwards and angles
// are radians with 0 pointing along +X.
//
// # Rules
//
// They follow Atari's 1979 Asteroids. The ship rotates, thrusts with
// inertia up to a speed cap, slows by drag, fires as the current
// [levels.Level] prescribes, with at most the set's Shots in flight (the
// arcade's four: see "Fair pools"), and jumps through hyperspace, which may
// kill it on re-entry (more likely the fuller the field). Large asteroids
// split into two medium, medium into two small, small vanish; they score
// 20, 50 and 100, a saucer 200 (large) or 1000 (small). A wave ends when no
// asteroid and no saucer is left; wave n (1-based) uses Set.Level(n-1).
//
// Saucers cross the waves whose level has them, by the level set's
// [levels.Saucers] numbers. The first comes 15 to 17 s into a wave, and
// each later one sooner the longer the wave has lasted (down to 7 to 9
// s), so waiting is never safe. The large saucer shoots at random; the
// small one aims at the nearest ship, and is likelier and aims better the
// higher the best score and the longer no one has scored: from 30 s
// without a point, every saucer is small. A saucer's shots are ones a
// player can see coming: slower than a ship's, at most two in flight,
// none before the saucer is whole inside the field nor while a ship is
// closer than the set's HoldFire, and they end at the field's edge
// instead of coming round it.
//
// Three ships; every 10,000 points gives an extra one. A lost ship comes
// back after 2 s at its spawn point (the centre in the solo game, spread
// on an ellipse around it in an arena) if that is clear, else as soon as
// it is, and after 5 s at the latest at the clearest spot of the field
// ([Player].Respawn and Blocked tell a front end), invulnerable for a
// while; never on or beside another ship. The last one lost ends the game ([GameOver]) until
// [World.Restart].
//
// # Pools
//
// Bullets and debris are acquired from two pools created once by [New] with
// a fixed capacity. When a pool is full the spawn is skipped (the pool counts
// the miss); nothing grows. [World.SetStrategy] and [World.SetStrategies]
// switch the pools between two steps without losing or changing anything.
//
// # Fair pools
//
// Ships share the bullet pool, so one fast-firing player could starve the
// others. Each slot may have [World.Share] bullets in flight: the capacity C
// divided among the n slots in play (playing or waiting to respawn),
// rounded up, ⌈C/n⌉, and no more than the level set's Shots when it
// has them. A slot's shot is refused (counted in its
// [Player].Misses) only when it already has its share in flight while the
// pool has room, or when the pool is really full (counted by the pool too).
// A player alone has the whole pool, up to Shots; a player who held more than a new share (someone joined) is refused until
// bullets expire bring them under it.
//
// # Determinism
//
// The same [Config] and the same inputs (joins, leaves and strategy switches
// included) give the same world, step for step,
// whatever strategy the pools use and however often it is switched: every
// object carries a spawn serial, collisions are resolved in serial order,
// random numbers are drawn only in spawn order (never while a pool is
// iterated) from the world's own seeded generator, and [World.Checksum] hashes
// pool items order-independently. Checksums compare within one architecture
// (a compiler may fuse floating-point operations differently on another).
//
// Random numbers for debris are drawn whether or not its pool has room, so
// the debris capacity never changes how the game plays.
package game
