package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"poolroids/game/daily"
	"poolroids/game/scores"
	"poolroids/levels"
	"poolroids/levels/regfile"
)

// ProofTime bounds a daily game's proof, its wait for a slot of the gate
// included: a game of daily.MaxSteps re-plays in a few seconds of one
// core. A proof that runs out of it is daily.ErrBusy.
const ProofTime = 10 * time.Second

// Board is the one way a daily game reaches a daily board: proven by
// daily.Verify through a Gate, against the board's level set and the
// time now, then added with the proof (scores.Store.AddDaily). A server's
// posts and the daily games played on it go through its one Board, so
// that its Gate bounds all the proofs it runs at once. It also keeps the
// replays of the last ghosts it proved ([Board.Ghost]). A Board is safe
// for concurrent use; make one with [NewBoard].
type Board struct {
	levels *levels.Set
	gate   *daily.Gate
	log    *slog.Logger // the daily games played, and what came of them; nil: none

	mu     sync.Mutex
	ghosts []ghostFile // proven, most recent last
}

// ghostFile is a ghost's replay, proven for its entry.
type ghostFile struct {
	sum  uint64
	data []byte
}

// maxGhostFiles is how many proven ghosts a Board keeps: the day's best
// and the players' own bests of the moment.
const maxGhostFiles = 16

// NewBoard returns the board of the daily games of set (nil: the shipped
// levels), proven through gate (nil: a gate of one slot and 16 waiting).
func NewBoard(set *levels.Set, gate *daily.Gate) *Board {
	if gate == nil {
		gate = daily.NewGate(1, 16)
	}
	return &Board{levels: set, gate: gate}
}

// SetLogger logs the daily games played (not those posted, which their
// route logs) to l: what each proves and where it ranks, or why not. Call
// it before the Board is used.
func (b *Board) SetLogger(l *slog.Logger) { b.log = l }

// Levels returns the board's level set; nil: the shipped levels.
func (b *Board) Levels() *levels.Set { return b.levels }

// Rank proves the replay in data, within ProofTime, and adds the game it
// proves to store's daily board as the player name with the store's key.
// Its errors: a *daily.RefusedError for a replay refused; daily.ErrBusy
// when the gate is full or the proof ran out of time; ctx's own error;
// then AddDaily's (a *scores.PostedError for a game the board holds,
// scores.ErrQueued for one queued, a save that failed). The proof is
// returned whenever the replay was proven.
func (b *Board) Rank(ctx context.Context, store *scores.Store, name string, data []byte) (daily.Proof, scores.DailyResult, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, ProofTime, daily.ErrBusy)
	defer cancel()
	p, err := b.gate.Verify(ctx, data, time.Now(), b.levels)
	if err != nil {
		if errors.Is(context.Cause(ctx), daily.ErrBusy) {
			err = daily.ErrBusy
		}
		return daily.Proof{}, scores.DailyResult{}, err
	}
	if store == nil {
		return p, scores.DailyResult{}, errors.New("this server keeps no scores")
	}
	res, err := store.AddDaily(name, p, data)
	return p, res, err
}

// Ghost returns the replay kept with e, a game of store's daily board,
// proven as scores.Store.DailyReplay proves it; a replay proven before is
// not proven again.
func (b *Board) Ghost(ctx context.Context, store *scores.Store, e scores.DailyEntry) ([]byte, error) {
	b.mu.Lock()
	for _, g := range b.ghosts {
		if g.sum == e.Sum {
			b.mu.Unlock()
			return g.data, nil
		}
	}
	b.mu.Unlock()
	data, err := store.DailyReplay(ctx, e, b.levels)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.ghosts) == maxGhostFiles {
		b.ghosts = append(b.ghosts[:0], b.ghosts[1:]...)
	}
	b.ghosts = append(b.ghosts, ghostFile{e.Sum, data})
	return data, nil
}

// Replay returns the replay called name of one of the best n games of
// store's daily board of today (all when n <= 0), proven as Ghost proves
// it; ok is false when none of them keeps a replay of that name.
func (b *Board) Replay(ctx context.Context, store *scores.Store, name string, n int) (data []byte, ok bool, err error) {
	for _, e := range store.Daily(daily.DayOf(time.Now()), n) {
		if e.Replay != "" && e.Replay == name {
			data, err = b.Ghost(ctx, store, e)
			return data, true, err
		}
	}
	return nil, false, nil
}

// Daily makes a solo Game the daily game of a day (package game/daily):
// its Config must be the day's (daily.Config). Each game that counts is
// written to Dir, if set, and proven and ranked on the Game's scores'
// daily board through Board, if set, in place of the high scores; a ghost
// (the day's best, or the player's own) flies beside it.
type Daily struct {
	Day   daily.Day
	Board *Board // nil: no game is ranked, and no ghost flies
	Dir   string // "": no file is written
}

// GhostKind is which game flies beside a daily game as its ghost.
type GhostKind uint8

const (
	GhostBest GhostKind = iota // the day's best game on the board
	GhostOwn                   // the player's own best game of the day
	GhostOff                   // none
	numGhostKinds
)

var ghostKindNames = [numGhostKinds]string{"the day's best", "your best", "off"}

func (k GhostKind) String() string {
	if k < numGhostKinds {
		return ghostKindNames[k]
	}
	return fmt.Sprintf("GhostKind(%d)", k)
}

// DailyView is what a daily game's screens say of it, before and after
// each game: whether the next game counts, and which ghost flies.
type DailyView struct {
	// Change is new whenever the rest changes: a front end formats it
	// once for each.
	Change uint64
	Day    daily.Day
	// Counted is set once the player has a game counted on the day's
	// board: their games are practice from then on. Score and Rank are
	// that game's.
	Counted     bool
	Score, Rank int
	// Ghost is the ghost chosen; Name and GhostScore are its player's and
	// score while one flies; Why says why none does ("" when one does).
	Ghost      GhostKind
	GhostName  string
	GhostScore int
	Why        string
}

// dailyState is a daily Game's: the ghosts it may fly, proven, and what
// its View says. It is the Game's, under its lock.
type dailyState struct {
	cfg     Daily
	view    DailyView
	ghosts  [numGhostKinds]ghostChoice // by kind; GhostOff's is empty
	written []string                   // the replays written, in order
}

// ghostChoice is a ghost that may fly: its replay, proven, and its player.
type ghostChoice struct {
	data  []byte
	name  string
	score int
	why   string // why there is none
}

// DailyFiles returns the paths of the daily games' replays the Game wrote
// (see Daily.Dir), in the order they were played.
func (g *Game) DailyFiles() []string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.daily == nil {
		return nil
	}
	return append([]string(nil), g.daily.written...)
}

// SwitchGhost flies the next ghost of the daily game (the day's best, the
// player's own, none, round again) and returns the one chosen. Outside a
// daily game it does nothing.
func (g *Game) SwitchGhost() GhostKind {
	g.mu.Lock()
	defer g.mu.Unlock()
	d := g.daily
	if d == nil {
		return GhostOff
	}
	d.view.Ghost = (d.view.Ghost + 1) % numGhostKinds
	g.flyGhost()
	return d.view.Ghost
}

// flyGhost sets the ghost chosen on the match and says so in the View.
// The caller holds the Game's lock.
func (g *Game) flyGhost() {
	d := g.daily
	c := d.ghosts[d.view.Ghost]
	if d.view.Ghost == GhostOff {
		c.why = "off"
	}
	if err := g.m.SetGhost(c.data); err != nil {
		c = ghostChoice{why: "its replay cannot fly: " + err.Error()}
	}
	g.changes++
	d.view.Change = g.changes
	d.view.GhostName, d.view.GhostScore, d.view.Why = c.name, c.score, c.why
}

// loadDaily reads the daily board for the View and proves the ghosts, on
// a goroutine of its own (a proof takes a fraction of a second), then
// flies the ghost chosen. The Game's saves wait for it.
func (g *Game) loadDaily() {
	defer g.saves.Done()
	d := g.daily
	store, name := g.sc.Scores, g.sc.Player
	var files [numGhostKinds]ghostChoice
	counted, rank, hasCounted := store.DailyCounted(d.cfg.Day, name)
	load := func(e scores.DailyEntry, ok bool, none string) ghostChoice {
		if !ok {
			return ghostChoice{why: none}
		}
		ctx, cancel := context.WithTimeout(context.Background(), ProofTime)
		defer cancel()
		data, err := d.cfg.Board.Ghost(ctx, store, e)
		if err != nil {
			return ghostChoice{why: "its replay cannot be read"}
		}
		return ghostChoice{data: data, name: e.Name, score: e.Score}
	}
	if d.cfg.Board != nil {
		best, ok := store.DailyBest(d.cfg.Day)
		files[GhostBest] = load(best, ok, "no game on the day's board yet")
		own, ok := store.DailyOwn(d.cfg.Day, name)
		files[GhostOwn] = load(own, ok, "no game of yours today yet")
	} else {
		files[GhostBest].why, files[GhostOwn].why = "no board here", "no board here"
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	d.ghosts = files
	d.view.Counted, d.view.Score, d.view.Rank = hasCounted, counted.Score, rank
	g.flyGhost()
}

// saveDaily writes a daily game that ended to the Game's Dir and ranks it
// on its board, then shows what came of it on the game-over screen of
// change if that screen is still the Game's, and reads the board again
// for the next game and its ghosts.
func (g *Game) saveDaily(change uint64, e scores.Entry, data []byte) {
	d := g.daily
	var file string
	var fileErr error
	if d.cfg.Dir != "" {
		file, fileErr = writeDaily(d.cfg.Dir, d.cfg.Day, e.When, data)
	}
	over := DailyOver{File: file, FileErr: fileErr}
	if d.cfg.Board != nil && g.sc.Scores != nil {
		over.Proof, over.Result, over.Err = d.cfg.Board.Rank(context.Background(), g.sc.Scores, g.sc.Player, data)
		if log := d.cfg.Board.log; log != nil {
			r := over.Result
			log.Info("daily game", "player", g.sc.Player, "day", d.cfg.Day, "score", over.Proof.Score, "steps", over.Proof.Steps,
				"counted", r.Counted, "rank", r.Rank, "err", over.Err)
		}
		if over.Err == nil {
			for _, t := range g.sc.Scores.Daily(d.cfg.Day, TopN) {
				over.Top = append(over.Top, t.Entry)
			}
		}
	}
	g.mu.Lock()
	if file != "" {
		d.written = append(d.written, file)
	}
	if g.over.Change == change {
		g.changes++
		g.over.Change, g.over.Saving, g.over.Daily = g.changes, false, &over
		g.over.Err, g.over.Top = over.Err, over.Top
		if over.Err == nil {
			g.over.Rank = over.Result.Rank
		}
	}
	g.mu.Unlock()
	g.saves.Add(1) // loadDaily's Done
	g.loadDaily()
}

// DailyOver is what came of a daily game that ended: the file its replay
// was written to, and its proof and place on the board.
type DailyOver struct {
	File    string // "": none written
	FileErr error  // why it was not
	Proof   daily.Proof
	Result  scores.DailyResult
	Err     error // why it is not ranked: scores.ErrQueued, a refusal, a save that failed
	Top     []scores.Entry
}

// writeDaily writes a daily game's replay into dir, made if missing, as
// DAY-HHMMSS.prpl (its end's time), with a number after it if taken.
func writeDaily(dir string, day daily.Day, when time.Time, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("the daily game's replay: %w", err)
	}
	base := fmt.Sprintf("%s-%s", day, when.UTC().Format("150405"))
	for i := 1; ; i++ {
		name := base + ".prpl"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.prpl", base, i)
		}
		path := filepath.Join(dir, name)
		if _, err := os.Lstat(path); err == nil {
			continue
		}
		err := regfile.Write(path, func(w io.Writer) error { _, err := w.Write(data); return err })
		if err != nil {
			return "", fmt.Errorf("the daily game's replay: %w", err)
		}
		return path, nil
	}
}
