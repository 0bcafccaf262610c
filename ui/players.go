package ui

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/hub"
)

// newsLines is how many lines of news the players box shows.
const newsLines = 3

// playersHeight is the players box's height for size players: borders,
// the table's head and a row a player, the last switch and the news.
func playersHeight(size int) int { return 2 + 1 + size + 1 + newsLines }

// players is the side panel's box of an arena: who plays (name in the
// ship's colour, score, ships left, shots refused), who switched the
// pools last and when and the latest news, one after the other from the
// top, so that a box cut short by a small terminal still shows the news
// of a half-empty arena. (A key's notice goes under the field, where
// every size shows it.) The session has it format its lines from the
// frame's View of the arena (formatView) when they are due, and it turns
// them into strings only when they change, so a frame allocates nothing
// in steady state. On the session's screen they are due every
// playersEvery, and at once when the box narrows or widens; it draws them
// whole every frame.
type players struct {
	*tview.Box
	// What the session hands it for each frame (see session.take): the
	// glyphs, the compact panel's narrow box, the time on the session's
	// clock.
	g      *glyphs
	narrow bool
	now    time.Duration
	text   textLines
	title  textCache
	box    box
	buf    []byte
	news   []string // the news lines as last formatted
	wrap   []string // scratch for them (see latestNews)

	formatted time.Duration // when the lines were last formatted, on the session's clock
	wasNarrow bool          // and narrow then
	once      bool          // they were
}

// playersEvery is how often the players box follows the arena on the
// session's screen: its counts change at every step of a busy arena,
// faster than they can be read, and formatting them for every frame is no
// small part of what a seat costs the server.
const playersEvery = 100 * time.Millisecond

// newPlayers makes the players box of ar, whose size is for good: read
// without its lock.
func newPlayers(ar *hub.Arena) *players {
	size := ar.World().Ships()
	// A line more a player: the narrow box's long names take two.
	return &players{Box: tview.NewBox(), g: utf8Glyphs, text: newTextLines(playersHeight(size) - 2 + size), buf: make([]byte, 0, 64)}
}

// due tells whether the lines are due to be formatted for a frame drawn
// on scr at p.now: every playersEvery, and at once for a box narrowed or
// widened; on any other screen, every frame.
func (p *players) due(scr tcell.Screen) bool {
	if _, ok := scr.(*surface); !ok {
		return true
	}
	return !p.once || p.narrow != p.wasNarrow || p.now-p.formatted >= playersEvery
}

func (p *players) Draw(scr tcell.Screen) {
	x, y, w, h := p.GetRect()
	p.box.draw(scr, p.g, rect{x, y, w, h}, borderStyle, 2, p.title.s, "", "")
	p.text.draw(scr, x+1, y+1, w-2, h-2)
}

// formatView formats the lines from the arena ar shows, inside its View.
func (p *players) formatView(ar hub.ArenaView) {
	p.formatted, p.wasNarrow, p.once = p.now, p.narrow, true
	w := ar.World()
	// The compact panel's box, 16 columns inside, keeps the arena's name
	// and mode, and each player's name and score.
	narrow := p.narrow
	p.buf = append(p.buf[:0], ' ')
	if !narrow {
		p.buf = append(p.buf, "arena "...)
	}
	p.buf = append(append(p.buf, ar.Arena().Name()...), " · "...)
	p.buf = append(p.buf, w.Mode().String()...)
	p.buf = append(p.buf, ' ')
	p.title.of(p.buf)

	nameW := 16
	if narrow {
		nameW = 9
	}
	next := p.text.next
	l := next().style(headStyle)
	l.b = appendCell(l.b, "player", nameW)
	if narrow {
		l.str("  score")
	} else {
		l.str("  score sh miss")
	}
	for i := range w.Ships() {
		name, ok := ar.Seated(i)
		if !ok {
			continue
		}
		l := next()
		pl := w.Player(i)
		l.style(playerStyle(i))
		if narrow && utf8.RuneCountInString(name) > nameW {
			// Whole on a line of its own, the score under it.
			l.b = appendCell(l.b, name, hub.MaxName)
			l = next().style(valueStyle)
			l.b = appendCell(l.b, "", nameW)
		} else {
			l.b = appendCell(l.b, name, nameW)
		}
		l.style(valueStyle)
		l.b = appendIntRight(l.b, int64(pl.Score), 7)
		if narrow {
			continue
		}
		if pl.Phase == game.GameOver {
			l.style(alertStyle).str(" --")
		} else {
			l.b = appendIntRight(l.b, int64(pl.Lives), 3)
		}
		l.style(valueStyle)
		l.b = appendIntRight(l.b, int64(pl.Misses), 5)
	}
	// Who switched last, and when, while they still hold the switch;
	// else who holds it now (the creator left: the longest seated). The
	// compact box has room for the name only.
	l = next().style(labelStyle)
	switch sw, by := ar.Switched(), ar.Creator(); {
	case narrow && by == "":
		l.str("switch: nobody")
	case narrow:
		l.str("switch: ").style(valueStyle).str(by)
	case by == "":
		l.str("pools: no player")
	case !sw.At.IsZero() && sw.By == by:
		l.str("pools: ")
		l.style(valueStyle).str(sw.By).style(labelStyle).str(" at ").style(valueStyle)
		l.b = sw.At.AppendFormat(l.b, time.TimeOnly)
	default:
		l.str("pools: ").style(valueStyle).str(by).style(labelStyle).str(" switches")
	}
	width := panelWidth - 2
	if narrow {
		width = compactWidth - 2
	}
	// The news takes the lines the box shows, where a small terminal cuts
	// it short: the latest then shows, not the older.
	n := newsLines
	if _, _, _, h := p.GetRect(); h > 0 {
		n = min(n, max(h-2-p.text.n, 0))
	}
	p.news = latestNews(p.news[:0], &p.wrap, ar.News(), width, n)
	for i := range newsLines {
		l := next()
		if k := len(p.news) - n + i; k >= 0 && k < len(p.news) {
			l.style(valueStyle).str(p.news[k])
		}
	}
	p.text.settle()
}

// latestNews appends to dst the lines that show the latest of news in n
// lines of w cells, oldest first: each item wrapped at its blanks (see
// wrapText, with scratch), as many whole items as fit, but the latest
// cut short when it alone does not.
func latestNews(dst []string, scratch *[]string, news []hub.News, w, n int) []string {
	start := len(dst)
	for k := len(news) - 1; k >= 0 && len(dst)-start < n; k-- {
		*scratch = wrapText((*scratch)[:0], news[k].Text, w)
		lines := *scratch
		room := n - (len(dst) - start)
		if len(lines) > room {
			if len(dst) > start {
				break // an older item shows whole or not at all
			}
			lines = lines[:room]
		}
		for i := len(lines) - 1; i >= 0; i-- {
			dst = append(dst, lines[i])
		}
	}
	slices.Reverse(dst[start:])
	return dst
}

// wrapText appends to dst the lines of s wrapped at its blanks to w cells
// (one a rune), a word longer than a line cut where the line ends.
func wrapText(dst []string, s string, w int) []string {
	for s != "" && w > 0 {
		s = strings.TrimLeft(s, " ")
		end, cut, n := len(s), -1, 0 // the line's end, its last blank, its cells
		for i, r := range s {
			if n == w {
				end = i
				if r == ' ' {
					cut = i
				}
				break
			}
			if r == ' ' {
				cut = i
			}
			n++
		}
		if end < len(s) && cut > 0 {
			end = cut
		}
		if line := strings.TrimRight(s[:end], " "); line != "" {
			dst = append(dst, line)
		}
		s = s[end:]
	}
	return dst
}
