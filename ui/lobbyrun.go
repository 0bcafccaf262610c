package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/hub"
)

// Shared is one terminal's screen used by one tview application after
// another (the lobby, then a game, then the lobby again): tcell cannot
// initialise a screen again once finalised, so each application gets a
// [Shared.View] whose Init initialises the screen the first time only and
// whose Fini leaves it running. The owner finalises the screen itself at
// the end.
type Shared struct {
	screen  tcell.Screen
	once    sync.Once
	initErr error
}

// NewShared shares screen, not yet initialised.
func NewShared(screen tcell.Screen) *Shared { return &Shared{screen: screen} }

// View returns a screen for one application: Run, or the lobby.
func (s *Shared) View() tcell.Screen { return &sharedView{Screen: s.screen, shared: s} }

// sharedView is one application's use of a Shared screen. Its Fini wakes the
// application's event goroutine, which then sees the end of its screen
// (a nil event) as tview expects, and leaves the screen as it is.
type sharedView struct {
	tcell.Screen
	shared *Shared
	mu     sync.Mutex
	done   bool
}

// wake is the event a view's Fini posts for its own PollEvent.
type wake struct {
	tcell.EventTime
	v *sharedView
}

func (v *sharedView) Init() error {
	s := v.shared
	s.once.Do(func() { s.initErr = s.screen.Init() })
	if s.initErr == nil {
		v.Screen.Clear() // the last application's cells must not show through
	}
	return s.initErr
}

func (v *sharedView) Fini() {
	v.mu.Lock()
	first := !v.done
	v.done = true
	v.mu.Unlock()
	if first {
		ev := &wake{v: v}
		ev.SetEventNow()
		_ = v.Screen.PostEvent(ev)
	}
}

func (v *sharedView) PollEvent() tcell.Event {
	for {
		ev := v.Screen.PollEvent()
		if w, ok := ev.(*wake); ok {
			if w.v == v {
				return nil
			}
			continue // an earlier view's, its application gone
		}
		v.mu.Lock()
		done := v.done
		v.mu.Unlock()
		if done {
			return nil
		}
		return ev
	}
}

// lobbyRefresh is how often the lobby asks for its data again.
const lobbyRefresh = time.Second

// runLobby shows the lobby on screen, a Shared view, until the player
// chooses, ctx is done (ChoiceQuit) or reading the terminal fails. data is
// asked for at the start and every second; status, if not empty, says why
// the last choice failed, and the selection starts on last where listed.
//
// Every way out goes through one end, which stops the refresh goroutine
// before the application: QueueUpdateDraw waits for tview's event loop to
// run the update, so an update queued as the loop stops would wait for
// ever, and the lobby with it. tview stops by itself on Ctrl-C and on an
// input error: the lobby takes both first.
func runLobby(ctx context.Context, screen tcell.Screen, data func() LobbyData, status string, last Choice) (choice Choice, err error) {
	// tview drops Init's error, and a screen that could not start must
	// not be drawn on: a view initialises once, so this Init is tview's.
	if err := screen.Init(); err != nil {
		return Choice{}, fmt.Errorf("ui: starting the terminal: %w", err)
	}
	app := tview.NewApplication()
	var (
		mu      sync.Mutex
		ended   bool
		started bool
		readErr error
		stop    = make(chan struct{})
		wg      sync.WaitGroup
	)
	end := func(c Choice, e error) {
		mu.Lock()
		defer mu.Unlock()
		if ended {
			return
		}
		ended, choice, readErr = true, c, e
		close(stop)
		go func() { // not from within the event loop, which the refresh may wait on
			wg.Wait()
			app.Stop()
		}()
	}
	l := NewLobby(data, func(c Choice) { end(c, nil) })
	l.SetStatus(status)
	l.Select(last)
	refresh := func() {
		defer wg.Done()
		t := time.NewTicker(lobbyRefresh)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				end(Choice{Kind: ChoiceQuit}, nil)
				return
			case <-stop:
				return
			case <-t.C:
				app.QueueUpdateDraw(l.Refresh)
			}
		}
	}
	// The goroutine starts with the first draw: stopping the application
	// before Run would make tview open a terminal of its own.
	startRefresh := func(tcell.Screen) {
		mu.Lock()
		defer mu.Unlock()
		if !ended && !started {
			started = true
			wg.Add(1)
			go refresh()
		}
	}
	quitKey := func(ev *tcell.EventKey) *tcell.EventKey {
		if ev.Key() == tcell.KeyCtrlC {
			end(Choice{Kind: ChoiceQuit}, nil)
			return nil
		}
		return ev
	}
	failed := func(e error) { end(Choice{}, fmt.Errorf("ui: reading the terminal: %w", e)) }
	app.SetScreen(&lobbyScreen{Screen: screen, failed: failed}).EnableMouse(true).
		SetRoot(l, true).SetFocus(l).SetInputCapture(quitKey).SetAfterDrawFunc(startRefresh)
	defer func() {
		if p := recover(); p != nil {
			end(Choice{}, nil) // the refresh stops, unless tview's loop died under it
			err = fmt.Errorf("ui: lobby panic: %v\n%s", p, debug.Stack())
		}
	}()
	if err := app.Run(); err != nil {
		return Choice{}, fmt.Errorf("ui: lobby: %w", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if readErr != nil {
		return Choice{}, readErr
	}
	return choice, nil
}

// lobbyScreen is the lobby's screen as tview sees it: an input error ends
// the lobby through its one way out instead of stopping tview directly.
type lobbyScreen struct {
	tcell.Screen
	failed func(error)
}

func (s *lobbyScreen) PollEvent() tcell.Event {
	for {
		ev := s.Screen.PollEvent()
		if e, ok := ev.(*tcell.EventError); ok {
			s.failed(e)
			continue
		}
		return ev
	}
}

// LobbyOptions configures [PlayLobby].
type LobbyOptions struct {
	Game Options  // every game's options: Player and Scores name the player and the table, Live the games to watch
	Hub  *hub.Hub // the arenas to list and join
	Name string   // the player's name as other players see it (cleaned)
	// Address is the player's address as the server's limits count it,
	// for the arenas one address may open (see [hub.Request].Owner).
	Address string
}

// PlayLobby shows the lobby on screen (not yet initialised) and plays what
// the player chooses there, a solo game, an arena or a live game to watch,
// coming back to the lobby when it ends, until the player leaves the lobby
// or ctx is done. A choice that fails (a full arena, a taken name, too
// many watchers) shows why in the lobby, and so does a watched game's end.
// The Result's score is the best of the games played. It finalises
// nothing: the owner finalises screen afterwards.
func PlayLobby(ctx context.Context, screen tcell.Screen, lo LobbyOptions) (Result, error) {
	shared := NewShared(screen)
	best, status := Result{Reason: ReasonQuit}, ""
	var last Choice // the lobby comes back on it
	data := func() LobbyData { return lobbyList(lo) }
	for ctx.Err() == nil {
		c, err := runLobby(ctx, shared.View(), data, status, last)
		if err != nil || c.Kind == ChoiceQuit {
			return best, err
		}
		last = c
		status = ""
		o := lo.Game
		switch c.Kind {
		case ChoiceJoin, ChoiceNew:
			seat, err := Join(lo.Hub, c, lo.Name, lo.Address)
			if err != nil {
				status = err.Error()
				continue
			}
			o.Arena = seat
		case ChoiceWatch:
			var res Result
			status, res, err = watchLobby(ctx, shared, lo, c.Name)
			if err != nil || (res.Reason != "" && res.Reason != ReasonQuit && res.Reason != ReasonGone) {
				best.Reason = res.Reason
				return best, err
			}
			continue
		case ChoiceReplay:
			res, err := playReplay(ctx, shared, lo, c.Score)
			if err != nil && res.Reason == "" { // before it showed: the lobby says why
				status = err.Error()
				continue
			}
			if err != nil || res.Reason != ReasonQuit {
				best.Reason = res.Reason
				return best, err
			}
			continue
		}
		res, err := Run(ctx, shared.View(), o)
		if o.Arena != nil {
			o.Arena.Leave()
		}
		best.Score = max(best.Score, res.Score)
		if err != nil || res.Reason != ReasonQuit {
			best.Reason = res.Reason
			return best, err
		}
	}
	return Result{Score: best.Score, Reason: ReasonCanceled}, nil
}

// playReplay plays the replay kept for the high score e on a view of
// shared. An error with a zero Result came before anything showed: the
// file cannot be read or is no replay this build plays.
func playReplay(ctx context.Context, shared *Shared, lo LobbyOptions, e LobbyScore) (Result, error) {
	data, err := lo.Game.Scores.ReadReplay(e.Replay)
	if err != nil {
		return Result{}, fmt.Errorf("the replay of %s's %d: %w", e.Name, e.Score, err)
	}
	o := lo.Game
	o.Strategy = "" // the recorded strategies: the server's default is no watcher's choice
	res, err := RunReplay(ctx, shared.View(), data, o)
	if err != nil && res.Reason == "" {
		err = fmt.Errorf("the replay of %s's %d: %w", e.Name, e.Score, err)
	}
	return res, err
}

// Join seats player, from address, in the arena c names: ChoiceJoin joins
// it (opening it, co-op, if none is open), ChoiceNew opens it in c's mode.
// See [hub.Hub.Join].
func Join(h *hub.Hub, c Choice, player, address string) (*hub.Seat, error) {
	mode := game.Coop
	if c.PvP {
		mode = game.PvP
	}
	return h.Join(hub.Request{Arena: c.Name, Player: player, New: c.Kind == ChoiceNew, Mode: mode, Owner: address})
}

// watchLobby watches the game called name from the lobby and returns
// what the lobby says next (why it could not be watched, or why watching
// ended) and how the Watch ended (no Reason: it did not start).
func watchLobby(ctx context.Context, shared *Shared, lo LobbyOptions, name string) (string, Result, error) {
	if lo.Game.Live == nil {
		return "no game is watched here", Result{}, nil
	}
	w, err := lo.Game.Live.Watch(name)
	if err != nil {
		return err.Error(), Result{}, nil
	}
	res, err := Watch(ctx, shared.View(), w, lo.Game)
	if res.Reason == ReasonGone {
		return Gone(w), res, err
	}
	return "", res, err
}

// lobbyList lists the hub's arenas, the live games and the table's high
// scores.
func lobbyList(lo LobbyOptions) LobbyData {
	var d LobbyData
	for _, a := range lo.Hub.Arenas() {
		d.Arenas = append(d.Arenas, LobbyArena{Name: a.Name, Players: a.Players, Max: a.Size, PvP: a.Mode == game.PvP})
	}
	if lo.Game.Live != nil {
		for _, g := range lo.Game.Live.Games() {
			d.Games = append(d.Games, LobbyGame{Name: g.Name, Arena: g.Arena, Players: g.Players, Watchers: g.Watchers})
			for i := range d.Arenas {
				if g.Arena && d.Arenas[i].Name == g.Name {
					d.Arenas[i].Watchers = g.Watchers
				}
			}
		}
	}
	if lo.Game.Scores == nil {
		return d
	}
	for _, e := range lo.Game.Scores.Top(8) {
		d.Scores = append(d.Scores, LobbyScore{Name: e.Name, Score: e.Score, Wave: e.Wave, Arena: e.Arena, Replay: e.Replay})
	}
	return d
}
