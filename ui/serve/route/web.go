package route

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"

	"poolroids/game/daily"
	"poolroids/game/scores"
)

// boardSize is how many games a board of the scores page lists.
const boardSize = 20

// WebPages serves what a browser asks of the server beside the page
// (serve.Config.WebPages): the boards at /scores, all time, this week,
// today and today's daily game, each game with its replay, if kept, to
// download at /replays/NAME and to play in the page at /replay/NAME.
// Only the replays of the games the boards list are served.
func (r *Router) WebPages() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /scores", r.serveBoards)
	mux.HandleFunc("GET /replays/{name}", r.serveReplay)
	return mux
}

// webBoard is a board as the scores page shows it.
type webBoard struct {
	Title   string
	Daily   bool
	Entries []webEntry
}

type webEntry struct {
	Place        int
	Name         string
	Score, Wave  int
	Where, When  string
	Replay, Time string
}

var boardsPage = template.Must(template.New("scores").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>poolroids · scores</title>
<link rel="stylesheet" href="/page.css">
</head>
<body class="doc">
<header>
  <a class="brand" href="/">poolroids</a>
  <nav><a href="/">lobby</a><a href="/scores">scores</a></nav>
</header>
<main class="boards">
{{range .}}<section>
<h2>{{.Title}}</h2>
{{if .Entries}}<table>
<tr><th>#</th><th>player</th><th>score</th><th>wave</th><th>{{if .Daily}}time{{else}}where{{end}}</th><th>replay</th></tr>
{{range .Entries}}<tr><td>{{.Place}}</td><td>{{.Name}}</td><td class="n">{{.Score}}</td><td class="n">{{.Wave}}</td><td>{{if .Time}}{{.Time}}{{else}}{{.Where}}{{end}}</td><td>{{if .Replay}}<a href="/replay/{{.Replay}}">play</a> · <a href="/replays/{{.Replay}}" download>download</a>{{else}}-{{end}}</td></tr>
{{end}}</table>{{else}}<p class="none">no game yet</p>{{end}}
</section>
{{end}}</main>
</body>
</html>
`))

// serveBoards serves the scores page.
func (r *Router) serveBoards(w http.ResponseWriter, _ *http.Request) {
	st := r.game.Scores
	var boards []webBoard
	for _, p := range scores.Periods {
		b := webBoard{Title: strings.ToUpper(p.String())}
		if p == scores.AllTime {
			b.Title = "HIGH SCORES"
		}
		for i, e := range st.Board(p, boardSize) {
			where := "solo"
			if e.Arena != "" {
				where = "arena " + e.Arena
			}
			b.Entries = append(b.Entries, webEntry{Place: i + 1, Name: e.Name, Score: e.Score, Wave: e.Wave, Where: where, Replay: e.Replay})
		}
		boards = append(boards, b)
	}
	day := daily.DayOf(time.Now())
	b := webBoard{Title: "DAILY " + day.String(), Daily: true}
	for i, e := range st.Daily(day, boardSize) {
		b.Entries = append(b.Entries, webEntry{Place: i + 1, Name: e.Name, Score: e.Score, Wave: e.Wave, Time: e.Time().Round(time.Second).String(), Replay: e.Replay})
	}
	boards = append(boards, b)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	if err := boardsPage.Execute(w, boards); err != nil {
		r.log.Warn("web: the scores page", "err", err)
	}
}

// serveReplay serves the replay of a game on the boards, to download.
func (r *Router) serveReplay(w http.ResponseWriter, req *http.Request) {
	name := req.PathValue("name")
	data, err := r.boardReplay(req.Context(), name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data)
}

// boardReplay reads the replay called name, if it is a game's on the
// boards or on today's daily board. A daily game's replay is proven again
// before it is served (scores.Store.DailyReplay), once: the daily board
// keeps what it proved for the ghosts it flies.
func (r *Router) boardReplay(ctx context.Context, name string) ([]byte, error) {
	st := r.game.Scores
	for _, p := range scores.Periods {
		for _, e := range st.Board(p, 0) {
			if e.Replay != "" && e.Replay == name {
				return st.ReadReplay(name)
			}
		}
	}
	if data, ok, err := r.daily.Replay(ctx, st, name, boardSize); ok {
		return data, err
	}
	return nil, fmt.Errorf("no game on the boards keeps a replay called %q", name)
}
