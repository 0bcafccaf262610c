package hub

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game"
	"poolroids/game/clock"
	"poolroids/pool"
)

// keys is a player's held input, set by the test and read by the arena.
type keys struct {
	mu sync.Mutex
	in game.Input
}

func (k *keys) set(in game.Input) { k.mu.Lock(); k.in = in; k.mu.Unlock() }
func (k *keys) get() game.Input   { k.mu.Lock(); defer k.mu.Unlock(); return k.in }

func newHub(t *testing.T, cfg Config) *Hub {
	t.Helper()
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

func join(t *testing.T, h *Hub, r Request) *Seat {
	t.Helper()
	s, err := h.Join(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ship reads slot's ship under the lock.
func ship(a *Arena, slot int) (p game.Player) {
	a.View(func(v ArenaView) { p = v.World().Player(slot) })
	return p
}

func TestNewConfig(t *testing.T) {
	for _, size := range []int{-1, game.MaxShips + 1} {
		if _, err := New(Config{Size: size}); err == nil {
			t.Errorf("size %d accepted", size)
		}
	}
	if _, err := New(Config{Game: game.Config{Strategy: "bogus"}}); err == nil {
		t.Error("an unknown strategy accepted")
	}
}

// TestTwoPlayers: two players in one arena, each flying its own ship with
// its own keys; names are made unique; the creator alone switches.
func TestTwoPlayers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{Size: 2})
		var ka, kb keys
		a := join(t, h, Request{Arena: "den", Player: "ann", Input: ka.get})
		b := join(t, h, Request{Arena: "den", Player: "ann", Input: kb.get})
		if a.Arena() != b.Arena() || a.Slot() == b.Slot() {
			t.Fatalf("seats %d and %d of arenas %p, %p", a.Slot(), b.Slot(), a.Arena(), b.Arena())
		}
		if a.Name() != "ann" || b.Name() != "ann-2" {
			t.Errorf("names %q, %q; want ann, ann-2", a.Name(), b.Name())
		}
		if _, err := h.Join(Request{Arena: "den", Player: "cy"}); !errors.Is(err, ErrFull) {
			t.Errorf("third player in an arena of 2: %v, want ErrFull", err)
		}
		if _, err := h.Join(Request{Arena: "den", Player: "cy", New: true}); !errors.Is(err, ErrExists) {
			t.Errorf("new arena of a taken name: %v, want ErrExists", err)
		}

		time.Sleep(time.Second / 2)
		ar := a.Arena()
		before := [2]game.Ship{ship(ar, 0).Ship, ship(ar, 1).Ship}
		ka.set(game.Input{Thrust: true, Left: true})
		time.Sleep(time.Second / 2)
		ka.set(game.Input{})
		pa, pb := ship(ar, a.Slot()), ship(ar, b.Slot())
		if pa.Ship.Pos == before[a.Slot()].Pos || pa.Ship.Angle == before[a.Slot()].Angle {
			t.Errorf("ann's keys did not move ann's ship: %+v", pa.Ship)
		}
		if pb.Ship.Pos != before[b.Slot()].Pos || pb.Ship.Angle != before[b.Slot()].Angle {
			t.Errorf("ann's keys moved ann-2's ship: %+v, was %+v", pb.Ship, before[b.Slot()])
		}

		if err := b.SetStrategies(pool.Dense, pool.Dense); !errors.Is(err, ErrNotCreator) {
			t.Errorf("ann-2 switched: %v", err)
		}
		if err := a.SetStrategies(pool.Dense, ""); err != nil {
			t.Fatal(err)
		}
		var sw Switch
		var news []News
		var strategy pool.Strategy
		ar.View(func(v ArenaView) {
			sw, news = v.Switched(), slices.Clone(v.News())
			strategy = v.World().Bullets().Strategy()
		})
		if sw.By != "ann" || sw.Bullets != pool.Dense || strategy != pool.Dense {
			t.Errorf("switch %+v, bullets %v", sw, strategy)
		}
		if len(news) == 0 || news[len(news)-1].Text != "ann switched to dense/freelist" {
			t.Errorf("news %+v", news)
		}

		// The creator leaves: the other may switch now, and the ship is gone.
		a.Leave()
		a.Leave()
		time.Sleep(time.Second / 10)
		if p := ship(ar, a.Slot()); p.Phase != game.Absent || p.Ship.Alive {
			t.Errorf("left ship: %+v", p)
		}
		if err := b.SetStrategies(pool.Scan, pool.Scan); err != nil {
			t.Errorf("the remaining player cannot switch: %v", err)
		}
		if got := h.Arenas(); len(got) != 1 || got[0].Players != 1 || got[0].Name != "den" {
			t.Errorf("Arenas() = %+v", got)
		}
	})
}

// TestArenaEnds: an arena closes Linger after its last player leaves, not
// before, and a join meanwhile keeps it open.
func TestArenaEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{Linger: 5 * time.Second})
		s := join(t, h, Request{Arena: "a", Player: "p"})
		s.Leave()
		time.Sleep(time.Second) // its creator alone: it lingers 2 s
		s2 := join(t, h, Request{Arena: "a", Player: "q"})
		if s2.Arena() != s.Arena() {
			t.Fatal("a join within Linger opened another arena")
		}
		s2.Leave()
		time.Sleep(4 * time.Second)
		if len(h.Arenas()) != 1 {
			t.Fatal("the arena closed before Linger")
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if len(h.Arenas()) != 0 {
			t.Fatal("the arena is still open after Linger")
		}
		select {
		case <-s.Arena().Done():
		default:
			t.Fatal("the ended arena's Done is open")
		}
		if s.Arena().Err() != nil {
			t.Errorf("Err %v", s.Arena().Err())
		}
	})
}

// An arena nobody but its creator ever sat in closes 2 s after it
// empties, well before Linger.
func TestArenaAloneCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{Linger: time.Minute})
		s := join(t, h, Request{Arena: "a", Player: "p"})
		s.Leave()
		time.Sleep(time.Second)
		if len(h.Arenas()) != 1 {
			t.Fatal("the arena closed at once")
		}
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		if len(h.Arenas()) != 0 {
			t.Fatal("the arena nobody joined is still open 2.5 s after its creator left")
		}
	})
}

// The arenas open at once are bounded in all and per owner; one that
// closes makes room again.
func TestArenaLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{MaxArenas: 3, MaxArenasPer: 2})
		a := join(t, h, Request{Arena: "a1", Player: "p", Owner: "10.0.0.1/32"})
		join(t, h, Request{Arena: "a2", Player: "p", Owner: "10.0.0.1/32"})
		if _, err := h.Join(Request{Arena: "a3", Player: "p", Owner: "10.0.0.1/32"}); !errors.Is(err, ErrTooMany) {
			t.Fatalf("a third arena from one owner: %v, want ErrTooMany", err)
		}
		// Joining an open arena is no opening.
		q := join(t, h, Request{Arena: "a1", Player: "q", Owner: "10.0.0.1/32"})
		join(t, h, Request{Arena: "b1", Player: "r", Owner: "10.0.0.2/32"})
		if _, err := h.Join(Request{Arena: "b2", Player: "r", Owner: "10.0.0.3/32"}); !errors.Is(err, ErrTooMany) {
			t.Fatalf("a fourth arena in all: %v, want ErrTooMany", err)
		}
		a.Leave()
		q.Leave()
		time.Sleep(11 * time.Second) // Linger
		synctest.Wait()
		join(t, h, Request{Arena: "b2", Player: "r", Owner: "10.0.0.3/32"})
	})
}

// TestGameOverRejoin: a seat whose ships are all lost rejoins with a fresh
// score; Rejoin during a game is refused.
func TestGameOverRejoin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{})
		s := join(t, h, Request{Arena: "a", Player: "p", Input: func() game.Input { return game.Input{Hyperspace: true} }})
		if err := s.Rejoin(); err == nil {
			t.Error("Rejoin during the game succeeded")
		}
		// Jumping all the time, the ship is soon lost (1 in 16 a jump at least).
		for ship(s.Arena(), s.Slot()).Phase != game.GameOver {
			time.Sleep(time.Second)
		}
		if err := s.Rejoin(); err != nil {
			t.Fatal(err)
		}
		if p := ship(s.Arena(), s.Slot()); p.Lives != game.StartLives || p.Deaths != 0 {
			t.Errorf("rejoined: %+v", p)
		}
	})
}

// TestClose: closing the hub ends every arena and refuses joins.
func TestClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{})
		s := join(t, h, Request{Arena: "a", Player: "p"})
		h.Close()
		<-s.Arena().Done()
		if _, err := h.Join(Request{Arena: "a", Player: "p"}); !errors.Is(err, ErrClosed) {
			t.Errorf("join after Close: %v", err)
		}
		s.Leave()
	})
}

// TestKillNews: in a PvP arena of autopilots holding fire, ships down
// each other; the arena's news says who killed whom, and the shooter
// scored for it.
func TestKillNews(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{Size: 8})
		seats := make([]*Seat, 8)
		for i := range seats {
			seats[i] = join(t, h, Request{Arena: "pit", Player: "p" + string(rune('0'+i)), New: i == 0, Mode: game.PvP})
			seats[i].SetAutopilot(true)
		}
		a := seats[0].Arena()
		for range 120 {
			time.Sleep(time.Second)
			found, kills, text := false, 0, ""
			a.View(func(v ArenaView) {
				for _, n := range v.News() {
					if _, killer, ok := strings.Cut(n.Text, " killed by "); ok {
						found, text = true, n.Text
						for i := range seats {
							if seats[i].Name() == killer {
								kills = v.World().Player(seats[i].Slot()).Kills
							}
						}
						return
					}
				}
			})
			if found {
				if kills == 0 {
					t.Errorf("%q: the killer has no kill", text)
				}
				return
			}
		}
		t.Fatal("no kill in two minutes of PvP")
	})
}

// logTable is a WorldTable that logs the events it sees and is closed.
type logTable struct {
	WorldTable
	mu     sync.Mutex
	events []string
	steps  int
	closed bool
}

func (t *logTable) log(e string) { t.mu.Lock(); t.events = append(t.events, e); t.mu.Unlock() }
func (t *logTable) Step(in *game.Inputs) {
	t.mu.Lock()
	t.steps++
	t.mu.Unlock()
	t.WorldTable.Step(in)
}
func (t *logTable) Join(slot int, player string) error {
	t.log("join " + player)
	return t.WorldTable.Join(slot, player)
}
func (t *logTable) Leave(slot int) { t.log("leave"); t.WorldTable.Leave(slot) }
func (t *logTable) SetStrategies(b, d pool.Strategy) error {
	t.log("switch " + string(b))
	return t.WorldTable.SetStrategies(b, d)
}
func (t *logTable) Close() error { t.mu.Lock(); t.closed = true; t.mu.Unlock(); return nil }

// TestTable: an arena plays on the table Config.NewTable makes, which sees
// every join, leave, switch and step, and is closed when the arena ends.
func TestTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var tab *logTable
		h := newHub(t, Config{Linger: time.Second, NewTable: func(cfg game.Config, name string) (Table, error) {
			w, err := game.New(cfg)
			tab = &logTable{WorldTable: WorldTable{w}}
			return tab, err
		}})
		s := join(t, h, Request{Arena: "a", Player: "p"})
		time.Sleep(time.Second)
		if err := s.SetStrategies(pool.Dense, pool.Dense); err != nil {
			t.Fatal(err)
		}
		s.Leave()
		<-s.Arena().Done()
		tab.mu.Lock()
		defer tab.mu.Unlock()
		if got := strings.Join(tab.events, ", "); got != "join p, switch dense, leave" || tab.steps < game.TPS-1 || !tab.closed {
			t.Errorf("events %q, %d steps, closed %v", got, tab.steps, tab.closed)
		}
	})
}

// Arenas come by name, whatever order they opened in and the map keeps
// them in, so that a lobby's list and its selection hold still.
func TestArenasByName(t *testing.T) {
	h := newHub(t, Config{})
	names := []string{"pit", "den", "zoo", "arc", "mid", "b-2", "b-1"}
	for _, n := range names {
		join(t, h, Request{Arena: n, Player: "ann"})
	}
	for range 20 {
		var got []string
		for _, in := range h.Arenas() {
			got = append(got, in.Name)
		}
		if !slices.IsSorted(got) || len(got) != len(names) {
			t.Fatalf("Arenas() = %v, want all %d by name", got, len(names))
		}
	}
}

// TestNewsStays: a piece of news stays long enough to read, NewsSteps
// (8 s), and goes after.
func TestNewsStays(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{})
		ann := join(t, h, Request{Arena: "den", Player: "ann"})
		defer ann.Leave()
		a := ann.Arena()
		news := func() (s []string) {
			a.View(func(v ArenaView) {
				for _, n := range v.News() {
					s = append(s, n.Text)
				}
			})
			return s
		}
		time.Sleep(7 * time.Second)
		if got := news(); !slices.Equal(got, []string{"ann joined"}) {
			t.Errorf("news 7 s after a join: %q, want it still", got)
		}
		time.Sleep(2 * time.Second)
		if got := news(); len(got) != 0 {
			t.Errorf("news 9 s after a join: %q, want none", got)
		}
	})
}

// TestViewAllocs: reading an arena through View, as a frame does,
// allocates nothing, and the view shows its players.
func TestViewAllocs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{Size: 2})
		ann := join(t, h, Request{Arena: "den", Player: "ann"})
		a := ann.Arena()
		var name, by string
		var n int
		read := func() {
			a.View(func(v ArenaView) {
				name, _ = v.Seated(ann.Slot())
				by, n = v.Creator(), v.Players()
			})
		}
		if allocs := testing.AllocsPerRun(100, read); allocs != 0 {
			t.Errorf("View: %v allocations, want 0", allocs)
		}
		if name != "ann" || by != "ann" || n != 1 {
			t.Errorf("View shows %q seated, %q the creator, %d players; want ann, ann, 1", name, by, n)
		}
	})
}

// TestArenaSamples: an arena samples its pools every game.SampleEvery of
// its steps, at its step count, and at once after a switch, whose pools'
// rates start afresh; the View hands them, and the arena it shows.
func TestArenaSamples(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{})
		ann := join(t, h, Request{Arena: "den", Player: "ann"})
		defer ann.Leave()
		a := ann.Arena()
		samples := func() (got []game.PoolSample) {
			a.View(func(v ArenaView) {
				if v.Arena() != a {
					t.Errorf("the View shows arena %p, want %p", v.Arena(), a)
				}
				v.Samples().Since(0, func(p game.PoolSample) { got = append(got, p) })
			})
			return got
		}
		time.Sleep(time.Second + time.Second/(2*game.TPS))
		got := samples()
		if len(got) != game.TPS/game.SampleEvery {
			t.Fatalf("%d samples in a second, want %d", len(got), game.TPS/game.SampleEvery)
		}
		for i, p := range got {
			if p.Step != uint64(i+1)*game.SampleEvery || p.Restart != [2]bool{} {
				t.Errorf("sample %d: step %d, restart %v; want %d, none", i, p.Step, p.Restart, (i+1)*game.SampleEvery)
			}
		}
		if err := ann.SetStrategies(pool.Dense, ""); err != nil {
			t.Fatal(err)
		}
		got = samples()
		if last := got[len(got)-1]; len(got) != game.TPS/game.SampleEvery+1 || last.Restart != [2]bool{true, false} {
			t.Errorf("after a switch of the bullets: %d samples, the last restarting %v; want one more, the bullets'", len(got), last.Restart)
		}
	})
}

// TestManualClock: an arena steps on its hub's clock, one step a tick:
// on a Manual clock, as the test moves it and no faster.
func TestManualClock(t *testing.T) {
	clk := clock.NewManual(time.Unix(0, 0))
	h := newHub(t, Config{Clock: clk})
	stepped := make(chan struct{})
	s := join(t, h, Request{Arena: "den", Player: "ann", Input: func() game.Input {
		stepped <- struct{}{}
		return game.Input{}
	}})
	for clk.Tickers() == 0 { // the arena's goroutine starts its ticker
		runtime.Gosched()
	}
	const n = 5
	for range n {
		clk.Advance(time.Second / game.TPS)
		<-stepped
	}
	var steps uint64
	s.Arena().View(func(v ArenaView) { steps = v.World().Steps() })
	if steps != n {
		t.Errorf("the arena took %d steps in %d ticks", steps, n)
	}
}
