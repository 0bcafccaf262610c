package game

import (
	"math"
	"testing"

	"poolroids/pool"
)

// arena returns a world of n slots of the test level, all joined and in
// the field (invulnerable ships at rest), with no rocks.
func arena(t *testing.T, n int, mode Mode) *World {
	t.Helper()
	w := newWorld(t, Config{Levels: testSet(testLevel(), 3), Seed: 3, Ships: n, Mode: mode})
	for i := range n {
		if err := w.Join(i); err != nil {
			t.Fatal(err)
		}
	}
	w.asteroids = w.asteroids[:0]
	w.StepAll(&Inputs{})
	for i := range n {
		if p := w.Player(i); p.Phase != Playing || !p.Ship.Alive {
			t.Fatalf("slot %d not in the field after joining: %v", i, p.Phase)
		}
	}
	return w
}

func TestNewSlots(t *testing.T) {
	w := newWorld(t, Config{Levels: busySet(), Ships: 4})
	for i := range MaxShips {
		if p := w.Player(i); p.Phase != Absent || p.Ship.Alive {
			t.Errorf("slot %d of a new arena: %v, alive %v; want absent", i, p.Phase, p.Ship.Alive)
		}
	}
	if w.Ships() != 4 || w.Phase() != Absent {
		t.Errorf("Ships %d, Phase %v", w.Ships(), w.Phase())
	}
	for _, n := range []int{-1, MaxShips + 1} {
		if _, err := New(Config{Levels: busySet(), Ships: n}); err == nil {
			t.Errorf("New with %d ships succeeded", n)
		}
	}
	if _, err := New(Config{Levels: busySet(), Mode: PvP + 1}); err == nil {
		t.Error("New with an unknown mode succeeded")
	}
}

func TestJoinLeave(t *testing.T) {
	w := newWorld(t, Config{Levels: busySet(), Seed: 5, Ships: 3})
	for _, slot := range []int{-1, 3, MaxShips} {
		if err := w.Join(slot); err == nil {
			t.Errorf("Join(%d) succeeded in a world of 3 slots", slot)
		}
	}
	if err := w.Join(2); err != nil {
		t.Fatal(err)
	}
	if err := w.Join(2); err == nil {
		t.Error("joining a slot in play succeeded")
	}
	w.StepAll(&Inputs{})
	p := w.Player(2)
	if p.Phase != Playing || p.Ship.Pos != w.SpawnPoint(2) || p.Ship.Invulnerable == 0 || p.Lives != StartLives {
		t.Fatalf("joined ship: %+v", p)
	}
	if w.Player(0).Phase != Absent || w.Player(1).Phase != Absent {
		t.Error("joining slot 2 joined another")
	}

	// A leaving ship's bullets fly on.
	in := Inputs{2: {Fire: true}}
	w.StepAll(&in)
	if w.Bullets().Len() == 0 {
		t.Fatal("no bullet fired")
	}
	w.Leave(2)
	n := w.Bullets().Len()
	w.StepAll(&in)
	if p := w.Player(2); p.Phase != Absent || p.Ship.Alive {
		t.Errorf("left ship: %+v", p)
	}
	if w.Bullets().Len() != n {
		t.Errorf("bullets after leaving: %d, want %d (none fired, none dropped)", w.Bullets().Len(), n)
	}
	w.Leave(-1) // nothing to do
	w.Leave(7)

	// A game over rejoins with a fresh score.
	if err := w.Join(1); err != nil {
		t.Fatal(err)
	}
	w.StepAll(&Inputs{})
	w.pilots[1].score = 700
	for range StartLives {
		w.kill(1, NoSlot)
	}
	if w.Player(1).Phase != GameOver {
		t.Fatalf("phase %v after losing every ship", w.Player(1).Phase)
	}
	if err := w.Join(1); err != nil {
		t.Fatal(err)
	}
	if p := w.Player(1); p.Score != 0 || p.Lives != StartLives || p.Deaths != 0 || p.Phase != Respawning {
		t.Errorf("rejoined after game over: %+v", p)
	}
}

// TestModes fires one slot's bullet through another slot's ship: in co-op
// it flies through, in PvP it kills and scores for the shooter.
func TestModes(t *testing.T) {
	for _, mode := range []Mode{Coop, PvP} {
		t.Run(mode.String(), func(t *testing.T) {
			w := arena(t, 3, mode)
			for i := range 3 {
				w.pilots[i].ship.Invulnerable = 0
			}
			target := w.pilots[0].ship.Pos
			w.launch(1, target.add(Vec{-20, 0}), Vec{600, 0}, 30, false)
			for range 10 {
				w.StepAll(&Inputs{})
			}
			victim, shooter := w.Player(0), w.Player(1)
			if mode == Coop {
				if victim.Deaths != 0 || shooter.Score != 0 {
					t.Errorf("co-op bullet hurt a ship: victim %+v shooter %+v", victim, shooter)
				}
				return
			}
			if victim.Deaths != 1 || victim.Lives != StartLives-1 || victim.KilledBy != 1 {
				t.Errorf("victim: %+v, want one ship lost to slot 1", victim)
			}
			if shooter.Score != KillPoints || shooter.Kills != 1 {
				t.Errorf("shooter: %+v, want %d points and a kill", shooter, KillPoints)
			}
			if p := w.Player(2); p.Score != 0 || p.Deaths != 0 {
				t.Errorf("bystander: %+v", p)
			}
		})
	}
}

// TestOwnBullets: a ship's own bullets never hurt it, even in PvP.
func TestOwnBullets(t *testing.T) {
	w := arena(t, 2, PvP)
	w.pilots[0].ship.Invulnerable = 0
	w.launch(0, w.pilots[0].ship.Pos, Vec{}, 30, false)
	for range 5 {
		w.StepAll(&Inputs{})
	}
	if p := w.Player(0); p.Deaths != 0 {
		t.Errorf("own bullet killed the ship: %+v", p)
	}
}

// TestFairShare: one ship holding fire fills a small bullet pool alone;
// then a second joins and holds fire too. Both keep getting shots through,
// in every second of play, although the first fires first in every step;
// once the first's old bullets are spent neither holds more than its share.
func TestFairShare(t *testing.T) {
	l := testLevel()
	l.Asteroids, l.FireCooldown, l.BulletLife = 0, 2, 50 // 25 bullets wanted each
	w := newWorld(t, Config{Levels: testSet(l, 1), Seed: 1, Ships: 2, Bullets: 8})
	if err := w.Join(0); err != nil {
		t.Fatal(err)
	}
	in := Inputs{{Fire: true}, {Fire: true}}
	for range TPS {
		w.StepAll(&in)
	}
	if w.Share() != 8 || w.Player(0).InFlight < 7 {
		t.Fatalf("alone: share %d, %d in flight; want (nearly) the whole pool of 8", w.Share(), w.Player(0).InFlight)
	}
	if err := w.Join(1); err != nil {
		t.Fatal(err)
	}
	if w.Share() != 4 {
		t.Fatalf("share %d of 8 bullets for 2 ships, want 4", w.Share())
	}
	for sec := range 10 {
		before := [2]int{w.Player(0).Shots, w.Player(1).Shots}
		for range TPS {
			w.StepAll(&in)
			for i := range 2 {
				if n := w.Player(i).InFlight; sec > 0 && n > w.Share() {
					t.Fatalf("slot %d has %d bullets in flight, share %d", i, n, w.Share())
				}
			}
		}
		for i := range 2 {
			if w.Player(i).Shots == before[i] {
				t.Errorf("second %d: slot %d got no shot through (%+v)", sec, i, w.Player(i))
			}
		}
	}
	if w.Player(0).Misses == 0 || w.Player(1).Misses == 0 {
		t.Errorf("no shots refused on a small pool: %+v %+v", w.Player(0), w.Player(1))
	}

	// One leaves: the other gets the whole pool again.
	w.Leave(1)
	for range 2 * l.BulletLife {
		w.StepAll(&in)
	}
	if w.Share() != 8 || w.Player(0).InFlight < 7 {
		t.Errorf("alone again: share %d, %d in flight; want the whole pool", w.Share(), w.Player(0).InFlight)
	}
}

func TestSetStrategies(t *testing.T) {
	w := newWorld(t, Config{Levels: busySet(), Seed: 1})
	if err := w.SetStrategies(pool.Dense, ""); err != nil {
		t.Fatal(err)
	}
	if w.Bullets().Strategy() != pool.Dense || w.Debris().Strategy() != pool.FreeList {
		t.Errorf("strategies %v, %v; want dense, freelist", w.Bullets().Strategy(), w.Debris().Strategy())
	}
	if err := w.SetStrategies(pool.Scan, "bogus"); err == nil {
		t.Error("an unknown debris strategy was accepted")
	}
	if w.Bullets().Strategy() != pool.Dense {
		t.Error("a refused switch changed the bullet pool")
	}
}

// TestZeroAllocArena: sixteen autopilots holding fire into shared pools,
// at the most pressure they can make, step without allocating.
func TestZeroAllocArena(t *testing.T) {
	for _, s := range []pool.Strategy{pool.FreeList, pool.Dense, pool.Scan} {
		t.Run(string(s), func(t *testing.T) {
			// A share of 6 each: fifteen ships in the field fill the pool.
			w := newWorld(t, Config{Levels: busySet(), Seed: 9, Strategy: s, Ships: MaxShips, Mode: PvP, Bullets: 88})
			var aps [MaxShips]Autopilot
			for i := range aps {
				aps[i] = Autopilot{Pressure: true, Slot: i}
			}
			var in Inputs
			step := func() {
				for i := range aps {
					if w.pilots[i].phase == GameOver || w.pilots[i].phase == Absent {
						_ = w.Join(i)
					}
					in[i] = aps[i].Input(w)
				}
				w.StepAll(&in)
				_ = w.Checksum()
			}
			for range 120 {
				step()
			}
			if allocs := testing.AllocsPerRun(300, step); allocs != 0 {
				t.Errorf("%v allocations per step", allocs)
			}
			if b := w.Bullets().Stats(); b.HighWater != w.Bullets().Cap() || b.Misses == 0 {
				t.Errorf("bullet pool not under pressure: %+v", b)
			}
		})
	}
}

// TestShots: a set's Shots caps every ship's share of the bullet pool, as
// the arcade game's four shots in flight: a ship holding fire alone has
// four, never more, and its refused shots are its misses while the pool
// has room.
func TestShots(t *testing.T) {
	l := testLevel()
	l.FireCooldown, l.BulletLife = 2, 50 // 25 bullets wanted
	set := testSet(l, 1)
	set.Shots = 4
	w := newWorld(t, Config{Levels: set, Seed: 1})
	most, refused := 0, uint64(0)
	for range 2 * TPS {
		before := w.Player(0).Misses
		w.Step(Input{Fire: true})
		most = max(most, w.Player(0).InFlight)
		if w.Player(0).Misses > before {
			refused = w.Steps()
		}
	}
	p := w.Player(0)
	if p.Refused != refused || refused == 0 {
		t.Errorf("Refused %d, want %d: the step of the last refused shot", p.Refused, refused)
	}
	if w.Share() != 4 || most != 4 || p.Misses == 0 || w.Bullets().Stats().Misses != 0 {
		t.Errorf("share %d, at most %d in flight, %d refused, %d pool misses; want 4, 4, some, none",
			w.Share(), most, p.Misses, w.Bullets().Stats().Misses)
	}
	if w.OverShare() != uint64(p.Misses) {
		t.Errorf("OverShare %d, want the ship's %d refused shots", w.OverShare(), p.Misses)
	}
}

// TestSpawnPoints: ships of an arena enter spread over the field, apart
// from each other, not stacked at the centre; the solo ship in the centre.
func TestSpawnPoints(t *testing.T) {
	if p := newWorld(t, Config{}).SpawnPoint(0); p != centre {
		t.Errorf("the solo ship enters at %v, want the centre", p)
	}
	for _, n := range []int{2, 8, MaxShips} {
		w := arena(t, n, Coop)
		closest := math.MaxFloat64
		for i := range n {
			p := w.Player(i).Ship.Pos
			if p != w.SpawnPoint(i) {
				t.Errorf("%d ships: slot %d entered at %v, not its spawn point %v", n, i, p, w.SpawnPoint(i))
			}
			for j := range i {
				closest = min(closest, delta(p, w.Player(j).Ship.Pos).len())
			}
		}
		if want := 2 * spawnSpread * Height * math.Sin(math.Pi/float64(n)) * 0.99; closest < want || closest < 3*ShipRadius {
			t.Errorf("%d ships: two entered %.0f apart, want at least %.0f", n, closest, want)
		}
	}
}

// TestRespawnApart: a ship of an arena never comes back on or beside
// another: not at its spawn point while another ship sits there, and two
// ships kept from their points by rocks come back apart.
func TestRespawnApart(t *testing.T) {
	w := arena(t, 2, Coop)
	w.rock(Vec{40, 40}, Vec{}, 1) // keeps the wave going
	w.pilots[0].ship.Pos = w.SpawnPoint(1).add(Vec{X: 20})
	w.pilots[0].ship.Invulnerable = 1 << 20
	w.kill(1, NoSlot)
	for w.Player(1).Phase == Respawning {
		w.StepAll(&Inputs{})
	}
	if d := delta(w.Player(1).Ship.Pos, w.Player(0).Ship.Pos).len(); d < shipApart {
		t.Errorf("slot 1 came back %.0f from slot 0's ship, which sat by its spawn point; want %v or more", d, shipApart)
	}

	w = arena(t, 2, Coop)
	w.rock(Vec{40, 40}, Vec{}, 1)
	for i := range 2 {
		w.kill(i, NoSlot)
		w.rock(w.SpawnPoint(i), Vec{}, 1) // blocked until respawnLimit
	}
	for w.Player(0).Phase == Respawning || w.Player(1).Phase == Respawning {
		w.StepAll(&Inputs{})
	}
	a, b := w.Player(0).Ship, w.Player(1).Ship
	if !a.Alive || !b.Alive || delta(a.Pos, b.Pos).len() < shipApart {
		t.Errorf("two blocked ships came back at %v and %v (alive %v %v), want both, %v apart or more", a.Pos, b.Pos, a.Alive, b.Alive, shipApart)
	}
}
