package ui

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gdamore/tcell/v2"

	"poolroids/game/hub"
	"poolroids/ui/internal/golden"
)

// Leaving the lobby just as its refresh fires ends the lobby, whichever way
// it is left: by a choice, by Ctrl-C or by a failed terminal. (The refresh
// used to wait for ever for an update that tview's stopped loop would never
// run, and the session with it.) synctest fires the key and the refresh at
// the very same instant, in every order the scheduler picks.
func TestLobbyLeaveAsItRefreshes(t *testing.T) {
	leave := map[string]struct {
		act  func(tcell.SimulationScreen)
		want ChoiceKind
		err  bool
	}{
		"q":      {func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyRune, 'q', tcell.ModNone) }, ChoiceQuit, false},
		"enter":  {func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone) }, ChoiceSolo, false},
		"ctrl-c": {func(s tcell.SimulationScreen) { s.InjectKey(tcell.KeyCtrlC, 0, tcell.ModNone) }, ChoiceQuit, false},
		"input error": {func(s tcell.SimulationScreen) {
			_ = s.PostEvent(tcell.NewEventError(errors.New("link down")))
		}, 0, true},
	}
	for name, tc := range leave {
		t.Run(name, func(t *testing.T) {
			for range 40 {
				synctest.Test(t, func(t *testing.T) {
					scr := tcell.NewSimulationScreen("UTF-8")
					scr.SetSize(80, 24)
					shared := startedTerminal(t, scr)
					defer scr.Fini()
					type result struct {
						c   Choice
						err error
					}
					done := make(chan result)
					go func() {
						c, err := runLobby(context.Background(), shared, lobbyData, "", Choice{})
						done <- result{c, err}
					}()
					synctest.Wait()
					// A little after the start, the refresh ticks: leave then.
					for range 3 {
						time.Sleep(lobbyRefresh)
					}
					tc.act(scr)
					r := <-done // a lobby that does not end is a deadlock synctest reports
					if (r.err != nil) != tc.err {
						t.Fatalf("runLobby: %v", r.err)
					}
					if !tc.err && r.c.Kind != tc.want {
						t.Fatalf("runLobby chose %+v, want kind %v", r.c, tc.want)
					}
				})
			}
		})
	}
}

// TestLobbyRun: the lobby on its loop takes keys and clicks, shows its
// data again at a refresh that changed it, and draws only what changed:
// nothing while idle, a burst of keys in at most one frame a tick. Cancelling its
// context leaves it.
func TestLobbyRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scr := golden.NewScreen("UTF-8", 80, 24)
		shared := startedTerminal(t, scr)
		defer scr.Fini()
		var mu sync.Mutex
		d := lobbyData()
		data := func() LobbyData {
			mu.Lock()
			defer mu.Unlock()
			return d
		}
		type result struct {
			c   Choice
			err error
		}
		start := func(ctx context.Context) <-chan result {
			done := make(chan result, 1)
			go func() {
				c, err := runLobby(ctx, shared, data, "", Choice{})
				done <- result{c, err}
			}()
			synctest.Wait()
			return done
		}
		var last uint64
		shows := func(what string, want uint64) {
			t.Helper()
			synctest.Wait()
			if n := scr.Shows(); n-last != want {
				t.Errorf("%s: %d frames shown, want %d", what, n-last, want)
			}
			last = scr.Shows()
		}
		tick := time.Second / lobbyFPS

		done := start(context.Background())
		shows("the start", 1)
		time.Sleep(3*lobbyRefresh - tick)
		shows("idle, three refreshes of the same data", 0)
		mu.Lock()
		d.Arenas = append(d.Arenas, LobbyArena{Name: "delta", Players: 1, Max: 4})
		mu.Unlock()
		time.Sleep(tick)
		shows("the refresh", 1)
		looksLike(t, scr, "lobby-run-delta-80x24") // the refresh shows the new arena
		time.Sleep(2 * tick)
		shows("after the refresh", 0)
		for range 3 {
			scr.InjectKey(tcell.KeyDown, 0, tcell.ModNone)
		}
		shows("three keys", 1)
		time.Sleep(tick)
		shows("a tick after three keys", 1)
		scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
		if r := <-done; r.err != nil || r.c != (Choice{Kind: ChoiceJoin, Name: "0123456789abcdef"}) {
			t.Errorf("Down ×3, Enter: %+v, %v; want to join 0123456789abcdef", r.c, r.err)
		}

		done = start(context.Background())
		x, y := -1, -1
		for row, line := range strings.Split(screenText(scr), "\n") {
			if i := strings.Index(line, "alice"); i >= 0 && x < 0 {
				x, y = i, row
			}
		}
		if x < 0 {
			t.Fatalf("no alice on the lobby:\n%s", screenText(scr))
		}
		scr.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
		scr.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
		if r := <-done; r.err != nil || r.c != (Choice{Kind: ChoiceWatch, Name: "alice"}) {
			t.Errorf("a click on alice: %+v, %v; want to watch alice", r.c, r.err)
		}

		ctx, cancel := context.WithCancel(context.Background())
		done = start(ctx)
		cancel()
		if r := <-done; r.err != nil || r.c.Kind != ChoiceQuit {
			t.Errorf("cancelled: %+v, %v; want to quit", r.c, r.err)
		}
	})
}

// TestLobbyPanic: a panic on the lobby's loop (here in a refresh of its
// data) ends the lobby with an error that carries it, and hands the
// shared screen on: the next lobby on it takes keys.
func TestLobbyPanic(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scr := newSim(t, "UTF-8", 80, 24)
		shared := startedTerminal(t, scr)
		calls := 0
		data := func() LobbyData {
			if calls++; calls > 1 {
				panic("a bad refresh")
			}
			return lobbyData()
		}
		_, err := runLobby(context.Background(), shared, data, "", Choice{})
		if err == nil || !strings.Contains(err.Error(), "lobby panic: a bad refresh") {
			t.Fatalf("runLobby: %v, want the refresh's panic", err)
		}
		done := make(chan Choice)
		go func() {
			c, _ := runLobby(context.Background(), shared, lobbyData, "", Choice{})
			done <- c
		}()
		synctest.Wait()
		scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
		if c := <-done; c.Kind != ChoiceSolo {
			t.Errorf("the next lobby chose %+v, want solo", c)
		}
	})
}

// junk is what a client typing at random sends: keys the lobby and the
// game do nothing with.
var junk = []rune("zxcvb1234!@#%^&*()_+=-[]{};:',.<>/?\\|`~ZXCVBAEFGHIJ")

// typeJunk posts n junk keys on scr, then Ctrl-C.
func typeJunk(scr tcell.Screen, n int) {
	post := func(ev tcell.Event) {
		for scr.PostEvent(ev) != nil { // the queue is full: let it drain
			runtime.Gosched()
		}
	}
	for i := range n {
		post(tcell.NewEventKey(tcell.KeyRune, junk[i%len(junk)], tcell.ModNone))
	}
	post(tcell.NewEventKey(tcell.KeyCtrlC, 0, tcell.ModNone))
}

// lobbyJunk runs the lobby on a terminal of 120×40 until n junk keys and
// Ctrl-C are read, and returns the bytes sent once it had drawn and the
// time the keys took.
func lobbyJunk(t testing.TB, n int) (int64, time.Duration) {
	tty, scr := newXterm(t, 120, 40)
	shared := startedTerminal(t, scr)
	defer scr.Fini()
	drawn := make(chan struct{})
	var once sync.Once
	data := func() LobbyData {
		once.Do(func() { close(drawn) })
		return lobbyData()
	}
	done := make(chan error)
	go func() {
		_, err := runLobby(context.Background(), shared, data, "", Choice{})
		done <- err
	}()
	<-drawn
	time.Sleep(50 * time.Millisecond) // the first frame goes out
	before := tty.n.Load()
	start := time.Now()
	typeJunk(scr, n)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return tty.n.Load() - before, time.Since(start)
}

// Junk typed into the lobby sends nothing: the keys change nothing on the
// screen. (Every key used to send every cell that is not blank again.)
func TestLobbyJunkSendsNothing(t *testing.T) { synctest.Test(t, testLobbyJunkSendsNothing) }

func testLobbyJunkSendsNothing(t *testing.T) {
	if sent, _ := lobbyJunk(t, 2000); sent != 0 {
		t.Errorf("2000 junk keys sent %d bytes, want 0", sent)
	}
}

// BenchmarkJunk is the cost of a junk key read by the lobby, a solo game
// and an arena seat, on a terminal of 120×40: ns/key, and the bytes sent
// per key.
func BenchmarkJunk(b *testing.B) {
	report := func(b *testing.B, sent int64, d time.Duration) {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "ns/key")
		b.ReportMetric(float64(sent)/float64(b.N), "B/key")
	}
	b.Run("lobby", func(b *testing.B) {
		sent, d := lobbyJunk(b, b.N)
		report(b, sent, d)
	})
	game := func(b *testing.B, o Options) {
		tty, scr := newXterm(b, 120, 40)
		s, err := newPlayerSession(ownTerminal(scr, nil), o)
		if err != nil {
			b.Fatal(err)
		}
		ended := make(chan error)
		go func() {
			_, err := s.run(context.Background())
			ended <- err
		}()
		time.Sleep(200 * time.Millisecond) // the first frames go out
		before := tty.n.Load()
		start := time.Now()
		typeJunk(scr, b.N)
		if err := <-ended; err != nil {
			b.Fatal(err)
		}
		report(b, tty.n.Load()-before, time.Since(start))
	}
	b.Run("game", func(b *testing.B) { game(b, Options{Seed: 1}) })
	b.Run("arena", func(b *testing.B) {
		seat, err := newHub(b, hub.Config{}).Join(hub.Request{Arena: "den", Player: "ann"})
		if err != nil {
			b.Fatal(err)
		}
		defer seat.Leave()
		game(b, Options{Arena: seat})
	})
}

// TestLobbyRename: a name chosen in the lobby is the player's for the
// session: the lobby says so, and the game played from it shows it in its
// header (its scores go under it: play.Scoring.Player). The lobby, the
// game and the lobby again show on one loop: the screen is initialised
// once.
func TestLobbyRename(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		scr := &initCounter{Screen: golden.NewScreen("UTF-8", 80, 24)}
		defer scr.Fini()
		h, err := hub.New(hub.Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		defer func() { cancel(); <-done }()
		go func() {
			_, err := PlayLobby(ctx, scr, LobbyOptions{Game: Options{Seed: 1, Player: "ann"}, Hub: h, Name: "ann"})
			done <- err
		}()
		synctest.Wait()
		shows := func(what, text string) {
			t.Helper()
			time.Sleep(time.Second / 10)
			synctest.Wait()
			if !strings.Contains(screenText(scr), text) {
				t.Fatalf("%s: no %q on the screen:\n%s", what, text, screenText(scr))
			}
		}
		shows("the lobby", "as ann (r: another name)")
		scr.InjectKey(tcell.KeyRune, 'r', tcell.ModNone)
		scr.InjectKey(tcell.KeyCtrlU, 0, tcell.ModNone)
		for _, r := range "Zed Ö" {
			scr.InjectKey(tcell.KeyRune, r, tcell.ModNone)
		}
		scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
		shows("after the name", "you play as Zed Ö")
		shows("after the name", "as Zed Ö (r: another name)")
		scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone) // Play solo
		shows("the title", "press space to play")
		scr.InjectKey(tcell.KeyRune, ' ', tcell.ModNone)
		shows("the solo game", "┌─ Zed Ö · ")
		scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
		scr.InjectKey(tcell.KeyRune, 'y', tcell.ModNone)
		shows("back in the lobby", "as Zed Ö")
		if n := scr.inits.Load(); n != 1 {
			t.Errorf("the screen was initialised %d times, want once", n)
		}
	})
}

// runLobby shows the lobby on a loop of its own on scr, started, until
// it ends: as PlayLobby's loop shows it between two sessions.
func runLobby(ctx context.Context, scr Screen, data func() LobbyData, status string, last Choice) (Choice, error) {
	l := newLoop(scr, nil)
	l.ctx = ctx
	return l.lobby(data, status, last)
}

// initCounter is a screen that counts its Inits.
type initCounter struct {
	*golden.Screen
	inits atomic.Int32
}

func (s *initCounter) Init() error {
	s.inits.Add(1)
	return s.Screen.Init()
}
