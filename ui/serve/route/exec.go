package route

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"poolroids/game/daily"
	"poolroids/game/scores"
	"poolroids/ui/serve"
)

// maxRows bounds the rows scores prints of a board.
const maxRows = 100

// Exec is the server's [serve.ExecFunc]: it proves and ranks a posted
// daily game, or prints a board.
//
// A post is proven and added to the daily board as the session's player
// (their key, else their name) by the router's [play.Board], as the daily
// games played here are: the answer is two lines, what the replay proves
// and what the board did with it (or that it waits in the score queue
// for the database). A replay
// refused, a game the board holds already, a server too busy to prove it
// now or a store that cannot save it is a [*serve.RefusedError] whose
// message starts with "refused, " and a reason in one word: one of
// daily's, "posted", "busy" or "unsaved".
func (r *Router) Exec(ctx context.Context, s serve.Session, in []byte) (string, error) {
	switch s.Command.Verb {
	case serve.VerbPost:
		return r.post(ctx, s, in)
	case serve.VerbScores:
		return r.board(s.Command), nil
	}
	return "", fmt.Errorf("route: %s needs a terminal", s.Command.Verb)
}

// refused is a post's refusal for reason, a word, and why.
func refused(reason, format string, a ...any) error {
	return &serve.RefusedError{Message: "refused, " + reason + ": " + fmt.Sprintf(format, a...)}
}

// post proves and ranks a posted replay.
func (r *Router) post(ctx context.Context, s serve.Session, data []byte) (string, error) {
	log := r.log.With("player", s.Player(), "addr", s.Address())
	store := r.game.Scores.For(s.Fingerprint)
	p, res, err := r.daily.Rank(ctx, store, s.Name, data)
	var why *daily.RefusedError
	switch pe, posted := errors.AsType[*scores.PostedError](err); {
	case err == nil:
	case errors.As(err, &why):
		log.Info("daily post refused", "reason", why.Reason, "err", why.Msg)
		return "", refused(why.Reason.String(), "%s", why.Msg)
	case errors.Is(err, daily.ErrBusy):
		log.Warn("daily post not proven: busy", "err", err)
		return "", refused("busy", "too many replays being proven here now; try again in a minute")
	case ctx.Err() != nil:
		return "", err // the connection ended
	case posted:
		log.Info("daily post refused", "reason", "posted", "day", p.Day, "score", p.Score)
		return "", refused("posted", "%v", pe)
	case errors.Is(err, scores.ErrQueued):
		log.Info("daily post queued", "day", p.Day, "score", p.Score)
		return fmt.Sprintf("proven: %v\nqueued: %v; it is ranked then\n", p, err), nil
	default:
		return "", refused("unsaved", "proven (score %d), but not saved: %v; try again later", p.Score, err)
	}
	log.Info("daily post", "day", p.Day, "score", p.Score, "wave", p.Wave, "steps", p.Steps, "counted", res.Counted, "rank", res.Rank)
	var b strings.Builder
	fmt.Fprintf(&b, "proven: %v\n", p)
	switch {
	case res.Counted && res.Kept:
		fmt.Fprintf(&b, "counted: #%d of %d on the board of %s\n", res.Rank, res.Board, p.Day)
	case res.Counted:
		fmt.Fprintf(&b, "counted, but below the board's %d games: not kept\n", res.Board)
	default:
		b.WriteString("practice: ")
		if c, rank, ok := store.DailyCounted(p.Day, s.Name); ok {
			fmt.Fprintf(&b, "your game that counts on %s scored %d (#%d); ", p.Day, c.Score, rank)
		}
		if res.Rank > 0 {
			fmt.Fprintf(&b, "this one would be #%d", res.Rank)
		} else {
			b.WriteString("this one would be below the board")
		}
		if res.Kept {
			b.WriteString(", kept as your best of the day")
		}
		b.WriteString("\n")
	}
	if s.Fingerprint == "" {
		b.WriteString("(posted without a key: your name is anyone's to type, and so is its game of the day; log in with a key to keep yours)\n")
	}
	return b.String(), nil
}

// board is the text of the board c asks for: its title, then a row a
// game, best first, at most maxRows. Names are the store's, cleaned.
func (r *Router) board(c serve.Command) string {
	var b strings.Builder
	row := func(rank int, e scores.Entry, last string) {
		key := "-"
		if fp, ok := strings.CutPrefix(e.Fingerprint, "SHA256:"); ok {
			key = fp[:min(8, len(fp))]
		}
		fmt.Fprintf(&b, "%4d  %s  %-8s  %9d  %4d  %s\n", rank, pad(e.Name, 20), key, e.Score, e.Wave, last)
	}
	head := func(title string, n int, last string) {
		fmt.Fprintf(&b, "%s: %d\n%4s  %s  %-8s  %9s  %4s  %s\n", title, n, "#", pad("player", 20), "key", "score", "wave", last)
	}
	if c.Name == serve.Boards[0] {
		d := c.Day
		if d == 0 {
			d = daily.DayOf(time.Now())
		}
		es := r.game.Scores.Daily(d, 0)
		head(fmt.Sprintf("the daily game of %s, games counted", d), len(es), "played")
		for i, e := range es[:min(len(es), maxRows)] {
			row(i+1, e.Entry, e.Time().Round(time.Second).String())
		}
		return b.String()
	}
	p := map[string]scores.Period{"today": scores.Today, "week": scores.ThisWeek, "all": scores.AllTime}[c.Name]
	var es []scores.Entry
	if r.game.Scores != nil {
		es = r.game.Scores.Board(p, 0)
	}
	head("high scores, "+p.String(), len(es), "when")
	for i, e := range es[:min(len(es), maxRows)] {
		row(i+1, e, e.When.Format("2006-01-02 15:04"))
	}
	return b.String()
}

// pad pads name, whose characters are one cell each (see
// serve.CleanName), to w cells.
func pad(name string, w int) string {
	return name + strings.Repeat(" ", max(0, w-utf8.RuneCountInString(name)))
}
