// Package stress profiles the pool strategies side by side on identical
// work: the real game simulation, driven by the autopilot at maximum pool
// pressure, once per strategy with the same seed, levels and capacities.
// `poolroids stress` is its command line.
//
// # Same work, proven
//
// A [game.World] gives the same world step for step whatever strategy its
// pools use, and the [game.Autopilot] decides from the world alone, so every
// run plays exactly the same game (a game over starts a new one at once).
// [Run] records each run's checksum every [Config.CheckEvery] steps and at
// the end, and [Verify] fails with a [*DivergenceError] naming the runs and
// the first step where they differ: a report is only trusted when all the
// runs played the same game.
//
// # What is measured, and how
//
// Each run warms up ([Config.Warmup] steps: the pools fill), then steps
// [Config.Steps] more times reading the clock just before and just after
// every [game.World.Step]. A step takes microseconds, so two clock reads
// are noise; nothing reads the clock around single pool calls. The
// autopilot's decision, the bookkeeping and the checksums happen outside
// the clock reads.
//
// runtime.ReadMemStats before and after the measured steps gives the heap
// allocations and bytes, and the GC cycles and pause, of the run. Those are
// the process's, so the run keeps the rest of the process quiet: it
// collects twice before it starts (sync.Pool keeps its items through one
// collection) and lets the runtime's own work after a collection finish;
// and the session first makes the runtime start spare OS threads and grow
// its timer heaps, which it would otherwise do, allocating, at any moment.
//
// The time spent in the pool calls themselves is measured in a separate,
// calibrated phase. Before the runs, the session plays its game once more,
// untimed, and records what each pool did at every step: how many items
// it acquired, and which ones it released (told apart by the serial the
// game gives every bullet and particle, the same whatever the strategy).
// After each run that record is replayed against bare pools of the run's
// strategy, element type and capacity: every step releases the very items
// the game released and acquires as many as it acquired, in the game's
// order, then loops over the pool once. So a strategy's searches examine
// as many slots in the replay as in the game, which a test checks. Each
// step's releases, its acquires and its loop are each timed as one batch,
// and the cost of an empty timed batch, measured beforehand, is
// subtracted. The replay is played three times and every batch counts
// with its least time, which drops the moments a busy machine lets it
// wait. The figures are sharp when steps do tens of operations, as under
// pressure, and rough when they do one or two.
//
// With [Config.Repeat] K > 1 every strategy runs K times, interleaved
// (A B C A B C …) so that a machine's slow moment does not land on one
// strategy, and each figure of the report is the median of its K runs;
// [Result.Spread] tells how far apart the runs were.
//
// # Ranking and verdict
//
// The strategies differ in the time their pools take, not in the game's
// own work, which is the same for all and at high occupancy most of a
// step. So the report ranks by [Result.PoolNs], the replayed acquires,
// releases and loops of a step. It marks as ties what is within noise:
// each median comes with the interval the sign test gives it from the K
// runs, the narrowest that holds it with 85% confidence: the middle 5 of 7
// runs (87.5%), 6 of 10 (89%); with fewer than 7, all of them (75% for 3,
// 97% for 6). A strategy whose interval reaches into that of the fastest
// of a group shares the group's rank. Within a group the order
// comes from the game's counts, never the clock: no items from the heap
// first, then fewer probes per acquire, then less bookkeeping.
// [Report.Verdict] names the first, the others within noise of it, and
// those to avoid, with their probe counts: they search their slots or
// allocate, and take twice its pool time or more beyond the noise. It
// holds no timing, so two sessions that form the same groups give the same
// verdict word for word.
//
// # Reading the numbers
//
// The pool counters (acquires, releases, misses, rejects, high-water, live at
// the end, probes) are the pools' own [pool.Stats] summed over the bullet and
// debris pools and cover the whole run, warm-up included, so
// acquires − releases = live at the end. Time, allocations and GC cover the
// measured steps only. [Report.WriteTable] prints the figures that decide
// in 100 columns, [Report.WriteWide] all of them; [Report.WriteJSON] and
// [Report.WriteCSV] carry the same numbers (the verdict in JSON only).
package stress
