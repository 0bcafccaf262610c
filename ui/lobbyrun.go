package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/displayname"
	"poolroids/game/hub"
	"poolroids/game/scores"
)

// lobbyRefresh is how often the lobby asks for its data again, and
// lobbyFPS how often at most it draws: keys that come faster (a key held,
// a paste, junk) are drawn together.
const (
	lobbyRefresh = time.Second
	lobbyFPS     = 30
)

// lobby shows the lobby on l until the player chooses, the connection's
// context is done (ChoiceQuit) or reading the screen fails. data is asked
// for at the start and every lobbyRefresh; status, if not empty, says why
// the last choice failed, and the selection starts on last where listed.
func (l *loop) lobby(data func() LobbyData, status string, last Choice) (Choice, error) {
	r := &lobbyRun{sf: l.sf, scr: l.screen, done: make(chan struct{})}
	r.lobby = NewLobby(data, func(c Choice) { r.end(c, nil) })
	r.lobby.SetStatus(status)
	r.lobby.Select(last)
	if rn, ok := l.screen.(renamer); ok {
		go func() {
			select {
			case name := <-rn.Renames():
				r.end(Choice{Kind: ChoiceName, Name: name}, nil)
			case <-r.done:
			}
		}()
	}
	l.show(r)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.choice, r.err
}

// renamer is a Screen on which the player names themselves outside the
// lobby's form (a browser's page has a name field of its own): the lobby
// takes each name as if typed into its form.
type renamer interface{ Renames() <-chan string }

// lobbyRun is one showing of the lobby, a root of the loop that is lazy:
// it draws it when a key, a click, a resize or a refresh of its data
// changed it. Every way out (a choice, which Ctrl-C is too; the
// context's end; an input error; a panic) goes through end, which ends
// the showing.
//
// The lobby draws whole at every frame, as tview's widgets do, into the
// screen's one buffer: the screen sends only the cells that differ from
// what it shows, so a key that changes nothing sends nothing.
type lobbyRun struct {
	lobby *Lobby
	scr   Screen
	sf    *surface
	done  chan struct{} // closed by end

	mu     sync.Mutex
	ended  bool
	choice Choice
	err    error
}

// end ends the lobby with c, or with err: the first call wins.
func (r *lobbyRun) end(c Choice, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended {
		return
	}
	r.ended, r.choice, r.err = true, c, err
	close(r.done)
}

// The lobby as the loop's root.

func (r *lobbyRun) primitive() tview.Primitive             { return r.lobby }
func (r *lobbyRun) first() tview.Primitive                 { return r.lobby }
func (r *lobbyRun) pace() pace                             { return pace{fps: lobbyFPS, lazy: true, refreshes: lobbyRefresh} }
func (r *lobbyRun) key(ev *tcell.EventKey) *tcell.EventKey { return ev }
func (r *lobbyRun) refresh() bool                          { return r.lobby.Refresh() }
func (r *lobbyRun) over() <-chan struct{}                  { return r.done }
func (r *lobbyRun) gone() <-chan struct{}                  { return nil }
func (r *lobbyRun) mouse(ev *tcell.EventMouse, a tview.MouseAction) (*tcell.EventMouse, tview.MouseAction) {
	return ev, a
}

// stop ends the lobby as the loop saw it end: the context's end leaves
// it, as q does.
func (r *lobbyRun) stop(why ending, err error) {
	switch why {
	case endFailed:
		r.end(Choice{}, fmt.Errorf("ui: reading the terminal: %w", err))
	case endPanic:
		r.end(Choice{}, fmt.Errorf("ui: lobby panic: %w", err))
	default:
		r.end(Choice{Kind: ChoiceQuit}, nil)
	}
}

// frame draws the whole lobby and shows what changed.
func (r *lobbyRun) frame() {
	r.sf.resize()
	w, h := r.sf.Size()
	r.lobby.SetRect(0, 0, w, h)
	r.lobby.Draw(r.sf)
	r.scr.Show()
}

// LobbyOptions configures [PlayLobby].
type LobbyOptions struct {
	// Fleet, if set, is the rest of the server's fleet: its rooms are
	// listed too, and a choice of one is played where it is held.
	Fleet Fleet

	Game Options  // every game's options: Player and Scores name the player and the table, Live the games to watch
	Hub  *hub.Hub // the arenas to list and join
	// Name is the player's name as other players see it (cleaned). The
	// player may choose another in the lobby, for the session: it then
	// names them in the games they play from it, and their scores.
	Name string
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
	return playLobby(ctx, newTerminal(screen, lo.Game.Keys), lo)
}

// playLobby is PlayLobby on scr: one loop for the whole connection,
// showing the lobby and the sessions it plays in turn.
func playLobby(ctx context.Context, scr Screen, lo LobbyOptions) (Result, error) {
	l := newLoop(scr, lo.Game.Clock)
	return l.connect(ctx, func() (Result, error) { return l.playLobby(lo) })
}

// playLobby is PlayLobby's connection on l.
func (l *loop) playLobby(lo LobbyOptions) (Result, error) {
	ctx := l.ctx
	best, status := Result{Reason: ReasonQuit}, ""
	var last Choice // the lobby comes back on it
	data := func() LobbyData { return lobbyList(lo) }
	for ctx.Err() == nil {
		c, err := l.lobby(data, status, last)
		if err != nil || c.Kind == ChoiceQuit {
			return best, err
		}
		last = c
		status = ""
		if c.Kind == ChoiceName {
			lo.rename(c.Name)
			status = "you play as " + lo.Name
			continue
		}
		if lo.Fleet != nil && c.Kind != ChoiceReplay && c.Kind != ChoiceDaily {
			var elsewhere bool
			played := c
			played.Player = lo.Name // a name chosen here goes with a relay
			if status, elsewhere, err = lo.Fleet.Play(ctx, played); elsewhere {
				if err != nil {
					return best, err
				}
				l.screen.Sync() // the other server drew on the terminal
				continue
			}
		}
		o := lo.Game
		switch c.Kind {
		case ChoiceDaily:
			today := daily.DayOf(time.Now())
			o.Daily = &today
		case ChoiceJoin, ChoiceNew:
			seat, err := Join(lo.Hub, c, lo.Name, lo.Address)
			if err != nil {
				status = err.Error()
				continue
			}
			o.Arena = seat
		case ChoiceWatch:
			var res Result
			status, res, err = l.watchLobby(lo, c.Name)
			if err != nil || (res.Reason != "" && res.Reason != ReasonQuit && res.Reason != ReasonGone) {
				best.Reason = res.Reason
				return best, err
			}
			continue
		case ChoiceReplay:
			res, err := l.playReplay(lo, c.Score)
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
		res, err := l.playSession(o)
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

// playSession plays the session of Run on l.
func (l *loop) playSession(o Options) (Result, error) {
	s, err := l.playerSession(o)
	if err != nil {
		return Result{}, err
	}
	return s.play()
}

// rename makes name, cleaned by the one name rule, the player's for the
// rest of the session: their ship's, their solo game's to watchers, and
// their scores'.
func (lo *LobbyOptions) rename(name string) {
	lo.Name = displayname.Clean(name, hub.MaxName)
	lo.Game.Player, lo.Game.Name = lo.Name, lo.Name
}

// Fleet is the rest of a fleet of servers as a lobby sees it: the rooms
// (arenas and live games) the other servers hold, and a way to play there.
type Fleet interface {
	// List adds the other servers' rooms to d, which lists this one's.
	List(d *LobbyData)
	// Play plays c where it is held, if another server holds its name,
	// as c.Player, and returns what the lobby says next; elsewhere is
	// false when no other server does: c is then this server's to play.
	Play(ctx context.Context, c Choice) (status string, elsewhere bool, err error)
}

// playReplay plays the replay kept for the high score e on l. An error
// with a zero Result came before anything showed: the file cannot be
// read or is no replay this build plays.
func (l *loop) playReplay(lo LobbyOptions, e LobbyScore) (Result, error) {
	data, err := readReplay(l.ctx, lo.Game, e)
	if err != nil {
		return Result{}, fmt.Errorf("the replay of %s's %d: %w", e.Name, e.Score, err)
	}
	o := lo.Game
	o.Strategy = "" // the recorded strategies: the server's default is no watcher's choice
	var res Result
	s, err := l.replaySession(data, o)
	if err == nil {
		res, err = s.play()
	}
	if err != nil && res.Reason == "" {
		err = fmt.Errorf("the replay of %s's %d: %w", e.Name, e.Score, err)
	}
	return res, err
}

// readReplay reads the replay of e: a daily game's proven first, by the
// daily board, which keeps what it proved (play.Board.Ghost).
func readReplay(ctx context.Context, o Options, e LobbyScore) ([]byte, error) {
	if !e.Daily {
		return o.Scores.ReadReplay(e.Replay)
	}
	if o.Board == nil {
		return nil, errors.New("this server keeps no daily board")
	}
	if data, ok, err := o.Board.Replay(ctx, o.Scores, e.Replay, 0); ok {
		return data, err
	}
	return nil, errors.New("it is no longer on today's daily board")
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
func (l *loop) watchLobby(lo LobbyOptions, name string) (string, Result, error) {
	if lo.Game.Live == nil {
		return "no game is watched here", Result{}, nil
	}
	w, err := lo.Game.Live.Watch(name)
	if err != nil {
		return err.Error(), Result{}, nil
	}
	res, err := l.watch(w, lo.Game)
	if res.Reason == ReasonGone {
		return Gone(w), res, err
	}
	return "", res, err
}

// lobbyList lists the hub's arenas, the live games and the table's high
// scores.
func lobbyList(lo LobbyOptions) LobbyData {
	d := LobbyData{Name: lo.Name}
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
	if lo.Fleet != nil {
		lo.Fleet.List(&d)
	}
	if lo.Game.Notice != nil {
		d.Notice = lo.Game.Notice()
	}
	if lo.Game.Scores == nil {
		return d
	}
	board := func(p scores.Period, n int) ([]LobbyScore, LobbyPlace) {
		var list []LobbyScore
		for _, e := range lo.Game.Scores.Board(p, n) {
			list = append(list, LobbyScore{Name: e.Name, Score: e.Score, Wave: e.Wave, Arena: e.Arena, Replay: e.Replay})
		}
		var you LobbyPlace
		if e, place, ok := lo.Game.Scores.Best(p, lo.Game.Player); ok {
			you = LobbyPlace{Place: place, Score: e.Score}
		}
		return list, you
	}
	d.Scores, d.You = board(scores.AllTime, 8)
	for _, p := range scores.Periods[1:] {
		list, you := board(p, 3)
		d.Boards = append(d.Boards, LobbyBoard{Title: strings.ToUpper(p.String()), Scores: list, You: you})
	}
	if lo.Game.Board != nil {
		lobbyDaily(&d, lo.Game.Scores, lo.Game.Player, daily.DayOf(time.Now()))
	}
	return d
}

// lobbyDaily adds the daily game to d: its line, whether the player's
// next game counts, and the day's board, on which player has their
// counted game.
func lobbyDaily(d *LobbyData, store *scores.Store, player string, day daily.Day) {
	b := LobbyBoard{Title: "DAILY " + day.String()}
	for _, e := range store.Daily(day, 3) {
		b.Scores = append(b.Scores, LobbyScore{Name: e.Name, Score: e.Score, Wave: e.Wave, Replay: e.Replay, Daily: true})
	}
	d.Daily = "your first game of today counts"
	if e, rank, ok := store.DailyCounted(day, player); ok {
		b.You = LobbyPlace{Place: rank, Score: e.Score}
		d.Daily = "practice: yours of today: " + strconv.Itoa(e.Score)
	}
	d.Boards = append(d.Boards, b)
}
