package ui

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"poolroids/game"
	"poolroids/game/hub"
	"poolroids/game/match"
	"poolroids/game/replay"
)

// cellAspect is a terminal cell's height over its width: the playfield is
// fitted in cells so that it keeps its shape on screen. Common monospace
// fonts make cells 2.0 to 2.2 times as tall as wide, so a field may be up
// to maxWiden wider than cellAspect makes it, to use the columns a short
// terminal leaves.
const (
	cellAspect = 2.0
	maxWiden   = 1.1
)

// hud is what the arena shows besides the world, copied under the session
// lock in one go.
type hud struct {
	level              string
	score, lives, wave int
	high               int
	mode               match.Phase
	paused, stress     bool
	over               []string // game-over screen, built when the game ended
	watching           int      // how many watch the game
	hidden             bool     // a solo game hidden from watchers
	notice             string   // why a key did nothing, for a few seconds
	question           []string // the question a solo game waits on, in a box over the field
	// whose, for a watcher or a replay, is whose game it is, first in the
	// title: "ann's game", "arena den"; "": the player's own screen.
	// name, on the player's own screen, is the player's name there: the
	// one their score is saved under.
	whose string
	name  string
	// board: the scores are the players box's (an arena watched), and the
	// header shows none.
	board bool
	// best: the header shows only the best score, as high (the replay of
	// an arena: no one ship's score stands for the game).
	best bool
	// title replaces the title screen (a daily game's); status shows on
	// the bottom border in play when nothing else does.
	title  []string
	status string
}

// arena is the left side: the playfield, scaled to fit with its aspect
// kept, drawn with braille dots (or ASCII) inside a border that carries the
// level, score, lives, high score and wave. It draws all of itself every
// frame, reusing its canvas, so a frame allocates nothing; the screen
// sends only the cells that changed.
type arena struct {
	*tview.Box
	// What the session hands it for each frame (see session.take): the
	// glyphs, whether the field is ASCII, the key help's lines while it
	// is up (nil: none), the header (hud) and the world painted on the
	// canvas (cv) at the field's place (see place).
	g     *glyphs
	ascii bool
	help  []string

	cv     canvas
	pts    []game.Vec // outline scratch
	buf    []byte     // header scratch: the title, the notice
	buf2   []byte     // header scratch: the score
	left   textCache  // header texts
	right  textCache
	notice textCache
	hud    hud
	frame  rect // where the field was last drawn, border excluded
	field  field
	box    box
	over   overlayRows

	nameTags

	rasters    *rasterSet // the paintings shared with rastersFor's other seats (see paintShared)
	rastersFor *hub.Arena

	ghost     *replay.Ghost // the ghost paintWorld paints next, set by the show; nil: none
	ghostName string        // its player as the board names them; "": as its replay does
	ghostTag  ghostTag
}

func newArena() *arena {
	return &arena{
		Box: tview.NewBox(),
		g:   utf8Glyphs,
		pts: make([]game.Vec, 0, 2*game.MaxVertices),
		buf: make([]byte, 0, 256),
		// A label a slot at most: a frame with more than the last never
		// grows the slice.
		nameTags: nameTags{labels: make([]label, 0, game.MaxShips)},
	}
}

// fieldSize is the largest field of cells within w×h that keeps the
// playfield's aspect ratio on screen, widened by up to maxWiden where the
// height limits it.
func fieldSize(w, h int) (fw, fh int) {
	ratio := game.Width / game.Height * cellAspect // cells across per cell down
	fh = min(h, int(float64(w)/ratio))
	fw = min(w, int(float64(fh)*ratio*maxWiden))
	return max(fw, 0), max(fh, 0)
}

// place fits the field into the arena's rect and readies the canvas
// for the world the session paints on it: cleared, or sized afresh. It
// reports whether there is a field to paint.
func (a *arena) place() bool {
	x, y, w, h := a.GetRect()
	fw, fh := fieldSize(w-2, h-2)
	if fw < 2 || fh < 2 {
		return false
	}
	a.frame = rect{x + 1 + (w-2-fw)/2, y + 1, fw, fh}
	if a.cv.w != fw || a.cv.h != fh || a.cv.ascii != a.ascii {
		a.cv.resize(fw, fh, a.ascii)
	} else {
		a.cv.clear()
	}
	a.labels = a.labels[:0]
	return true
}

// Draw draws the world the session painted on the canvas, and the
// header it handed: all of it, the border, the field, the names, the
// overlay, in that order, the later over the earlier.
func (a *arena) Draw(scr tcell.Screen) {
	x, y, w, h := a.GetRect()
	fw, fh := fieldSize(w-2, h-2)
	if fw < 2 || fh < 2 {
		return
	}
	if a.frame != (rect{x + 1 + (w-2-fw)/2, y + 1, fw, fh}) || a.cv.w != fw || a.cv.h != fh {
		a.place() // not where the session painted: an empty field this frame
	}
	f := a.frame
	st := borderStyle
	if a.HasFocus() {
		st = focusStyle
	}
	lines, over := a.overlay()
	a.coverLabels(&a.cv, f, over)
	a.drawFrame(scr, st)
	a.field.place(&a.cv, f)
	// Slow changes wait on a session's screen; a test's shows each
	// frame as it is.
	_, late := scr.(*surface)
	a.cv.blit(scr, &a.field, over.at(-f.x, -f.y), late)
	a.drawLabels(scr, &a.cv, f, over)
	a.drawOverlay(scr, lines, over)
	a.field.seal(scr)
}

// MouseHandler gives the arena the focus on a click.
func (a *arena) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return a.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(tview.Primitive)) (bool, tview.Primitive) {
		if action != tview.MouseLeftClick || !a.InRect(ev.Position()) {
			return false, nil
		}
		setFocus(a)
		return true, nil
	})
}

// paintWorld copies the world onto the canvas, placed (see place). The
// caller holds the world's lock.
func (a *arena) paintWorld(w *game.World) {
	for i := range w.Asteroids() {
		r := &w.Asteroids()[i]
		a.pts = r.Points(a.pts[:0])
		a.polygon(a.pts, r.Pos, r.Radius*1.2, inkAsteroid)
	}
	if sc, ok := w.Saucer(); ok {
		a.pts = sc.Points(a.pts[:0])
		a.polygon(a.pts, sc.Pos, sc.Radius*1.2, inkSaucer)
	}
	// Debris shows in two shades by its age, a third of the level's mean
	// debris life each, and no longer after them: a burst's pieces, all of
	// an age, dim together, where by their own (random) lives neighbouring
	// pieces would differ, each difference costing the terminal a style
	// change; and a dimmest third shade, of lone far-flung pieces costing a
	// cursor move and a style change a dot, was a third of a busy arena's
	// frame.
	l := w.Level()
	third := max((l.DebrisLifeMin+l.DebrisLifeMax)/6, 1)
	for _, p := range w.Debris().All() {
		if p.Age >= 2*third {
			continue
		}
		k := inkRock1
		if p.Kind == game.ShipDebris {
			k = inkSpark1
		}
		a.point(p.Pos, k-ink(min(max(p.Age/third, 0), 1)), '.')
	}
	for _, b := range w.Bullets().All() {
		if b.Hostile {
			a.point(b.Pos, inkHostile, a.hostileShot())
			continue
		}
		a.bullet(b.Pos, inkBullet)
	}
	a.labels = a.labels[:0]
	for i := range w.Ships() {
		a.ship(w, i)
	}
	a.paintGhost()
	a.placeLabels(&a.cv)
}

// paintShared paints w, the world of arena ar, on the canvas as
// paintWorld does: by copying what another seat painted of this step at
// this size, else by painting it and keeping a copy. The caller holds
// ar's read lock.
func (a *arena) paintShared(ar *hub.Arena, w *game.World) {
	if a.rasters == nil || a.rastersFor != ar {
		a.rasters, a.rastersFor = rastersOf(ar), ar
	}
	set := a.rasters
	set.mu.Lock()
	defer set.mu.Unlock()
	r := set.at(a.cv.w, a.cv.h, a.cv.ascii)
	if r.world == w && r.steps == w.Steps() {
		copy(a.cv.cells, r.cells)
		a.labels = append(a.labels[:0], r.labels...)
		return
	}
	a.paintWorld(w)
	r.world, r.steps = w, w.Steps()
	r.cells = append(r.cells[:0], a.cv.cells...)
	r.labels = append(r.labels[:0], a.labels...)
}

// The drawn ship is the game's outline made larger where the field is
// small, so that its heading reads from one frame: its nose is at least
// noseDots dots from its centre (a cell is 2×4 dots), though it collides
// at its own size. Its nose is drawn in reverse video, so that the cell
// it points from stands out whatever the slot's colour.
const noseDots = 6.5

// refusedSteps is how long a refused shot is marked at the nose.
const refusedSteps = game.TPS / 3

// ship draws slot's ship in its colour, dimmed and blinking while
// invulnerable, its nose lit, with a flickering flame while it thrusts and
// a mark by its nose while a shot of its was just refused.
func (a *arena) ship(w *game.World, slot int) {
	p := w.Player(slot)
	sh := p.Ship
	if note := respawnNote(&p, a.cv.ascii); note != "" {
		a.note(&a.cv, w.SpawnPoint(slot), slot, note, 0)
	}
	if !sh.Alive {
		return
	}
	a.note(&a.cv, sh.Pos, slot, a.names[slot], a.shipReach())
	k := inkShip + ink(slot)
	if sh.Invulnerable > 0 && sh.Invulnerable/8%2 == 0 {
		k = inkShipGhost
	}
	a.drawShip(sh, k, inkNose+ink(slot), sh.Thrusting && w.Steps()%4 < 2, p.Refused > 0 && w.Steps()-p.Refused < refusedSteps)
}

// drawShip draws ship sh with its body in ink body, its nose in nose, its
// flame if flame, and the mark of a refused shot if refused.
func (a *arena) drawShip(sh game.Ship, body, nose ink, flame, refused bool) {
	if a.cv.ascii {
		a.asciiShip(sh, body, nose, refused)
		return
	}
	a.pts = sh.Points(a.pts[:0])
	scale := a.shipScale(sh.Pos, a.pts[0])
	for i, q := range a.pts {
		a.pts[i] = game.Vec{X: sh.Pos.X + (q.X-sh.Pos.X)*scale, Y: sh.Pos.Y + (q.Y-sh.Pos.Y)*scale}
	}
	reach := 2 * game.ShipRadius * scale
	tip, right, notch, left := a.pts[0], a.pts[1], a.pts[2], a.pts[3]
	if flame {
		end := game.Vec{X: notch.X + (notch.X-tip.X)*0.6, Y: notch.Y + (notch.Y-tip.Y)*0.6}
		a.segment(mid(notch, right), end, inkFlame)
		a.segment(mid(notch, left), end, inkFlame)
	}
	// A slim solid dart, not the game's notched outline: at a few dots a
	// side, a notched ship's two tail tips are as sharp as its nose, and
	// players read a tip for the nose. A ghost is the dart's outline: it
	// is not there.
	sn, cs := math.Sincos(sh.Angle)
	dart := [3]game.Vec{tip, narrow(sh.Pos, sn, cs, right), narrow(sh.Pos, sn, cs, left)}
	a.polygon(dart[:], sh.Pos, reach, body)
	if body != inkGhost {
		a.fill(dart, sh.Pos, reach, body)
	}
	a.polygon(a.pts[:1], sh.Pos, reach, nose) // the nose's dot, lit
	if refused {
		// A small cross just past the nose, where the shot would have been.
		x, y := a.cv.dotOf(tip)
		cx, cy := x+int(math.Round(3*cs)), y+int(math.Round(3*sn))
		for _, d := range [5][2]int{{0, 0}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
			a.cv.dot(cx+d[0], cy+d[1], inkRefused, 0)
		}
	}
}

// shipSlim is how much of the game's width across its tail the drawn
// ship keeps.
const shipSlim = 0.55

// narrow moves the tail corner w of a ship at pos, heading (cs, sn),
// toward the ship's axis, to shipSlim of its distance from it.
func narrow(pos game.Vec, sn, cs float64, w game.Vec) game.Vec {
	along := (w.X-pos.X)*cs + (w.Y-pos.Y)*sn
	px, py := pos.X+along*cs, pos.Y+along*sn
	return game.Vec{X: px + shipSlim*(w.X-px), Y: py + shipSlim*(w.Y-py)}
}

// shipReach is how far from its centre a ship is drawn, in dots.
func (a *arena) shipReach() float64 {
	if a.cv.ascii {
		return 1 // the arrow next to its cell
	}
	return max(noseDots, shipNose*min(a.cv.sx, a.cv.sy))
}

// shipNose is how far the game's ship reaches from its centre: its nose.
var shipNose = func() float64 {
	var s game.Ship
	nose := s.Points(nil)[0]
	return math.Hypot(nose.X, nose.Y)
}()

// shipScale is how much larger than the game's the ship at pos, whose
// nose is at nose, is drawn: enough for noseDots, never smaller.
func (a *arena) shipScale(pos, nose game.Vec) float64 {
	r := math.Hypot(nose.X-pos.X, nose.Y-pos.Y) * min(a.cv.sx, a.cv.sy)
	if r <= 0 {
		return 1
	}
	return max(noseDots/r, 1)
}

// asciiShip draws a ship in ASCII: an o where it is and, in the cell next
// to it that its nose points at, an arrow (> v < ^, / and \ askew) in the
// nose's ink; a refused shot marks the cell past it with an x.
func (a *arena) asciiShip(sh game.Ship, body, nose ink, refused bool) {
	x, y := a.cv.dotOf(sh.Pos)
	// Cells are about twice as tall as wide: a row is two columns' worth.
	sn, cs := math.Sincos(sh.Angle)
	dir := int(math.Round(math.Atan2(sn/2, cs)/(math.Pi/4))) & 7
	d := asciiDirs[dir]
	a.cv.dot(x, y, body, 'o')
	a.cv.dot(x+d.dx, y+d.dy, nose, d.glyph)
	if refused {
		a.cv.dot(x+2*d.dx, y+2*d.dy, inkRefused, 'x')
	}
}

// asciiDirs are the eight cells around a ship's, clockwise from the
// right (y grows downwards), with the arrow its nose shows there.
var asciiDirs = [8]struct {
	dx, dy int
	glyph  byte
}{{1, 0, '>'}, {1, 1, '\\'}, {0, 1, 'v'}, {-1, 1, '/'}, {-1, 0, '<'}, {-1, -1, '\\'}, {0, -1, '^'}, {1, -1, '/'}}

func mid(p, q game.Vec) game.Vec { return game.Vec{X: (p.X + q.X) / 2, Y: (p.Y + q.Y) / 2} }

// polygon draws the closed outline pts of an object at c whose outline
// stays within r of c, once more across each edge it overlaps, so that it
// wraps around the playfield as the object does.
func (a *arena) polygon(pts []game.Vec, c game.Vec, r float64, k ink) {
	if len(pts) == 0 {
		return
	}
	offx, nx := wrapOffsets(c.X, r, game.Width)
	offy, ny := wrapOffsets(c.Y, r, game.Height)
	for _, ox := range offx[:nx] {
		for _, oy := range offy[:ny] {
			prev := pts[len(pts)-1]
			for _, p := range pts {
				a.segment(game.Vec{X: prev.X + ox, Y: prev.Y + oy}, game.Vec{X: p.X + ox, Y: p.Y + oy}, k)
				prev = p
			}
		}
	}
}

// fill sets the dots inside the triangle t in ink k, where the field
// shows it: as polygon, about c with reach r. A dot is inside when its
// centre is; polygon draws the edges.
func (a *arena) fill(t [3]game.Vec, c game.Vec, r float64, k ink) {
	offx, nx := wrapOffsets(c.X, r, game.Width)
	offy, ny := wrapOffsets(c.Y, r, game.Height)
	for _, ox := range offx[:nx] {
		for _, oy := range offy[:ny] {
			var d [3][2]float64
			for i, p := range t {
				d[i] = [2]float64{(p.X + ox) * a.cv.sx, (p.Y + oy) * a.cv.sy}
			}
			x0 := int(math.Floor(min(d[0][0], d[1][0], d[2][0])))
			x1 := int(math.Ceil(max(d[0][0], d[1][0], d[2][0])))
			y0 := int(math.Floor(min(d[0][1], d[1][1], d[2][1])))
			y1 := int(math.Ceil(max(d[0][1], d[1][1], d[2][1])))
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					px, py := float64(x)+0.5, float64(y)+0.5
					e0 := edgeSide(d[0], d[1], px, py)
					e1 := edgeSide(d[1], d[2], px, py)
					e2 := edgeSide(d[2], d[0], px, py)
					if (e0 >= 0 && e1 >= 0 && e2 >= 0) || (e0 <= 0 && e1 <= 0 && e2 <= 0) {
						a.cv.dot(x, y, k, 0)
					}
				}
			}
		}
	}
}

// edgeSide is positive on one side of the line from a to b, negative on
// the other, zero on it.
func edgeSide(a, b [2]float64, x, y float64) float64 {
	return (b[0]-a[0])*(y-a[1]) - (b[1]-a[1])*(x-a[0])
}

// wrapOffsets lists the shifts at which an object at c with reach r shows
// on a wrapping axis of the given size: itself, and its copy across the
// edge it overlaps.
func wrapOffsets(c, r, size float64) (off [2]float64, n int) {
	n = 1
	switch {
	case c-r < 0:
		off[1], n = size, 2
	case c+r > size:
		off[1], n = -size, 2
	}
	return off, n
}

func (a *arena) segment(p, q game.Vec, k ink) {
	x0, y0 := a.cv.dotOf(p)
	x1, y1 := a.cv.dotOf(q)
	a.cv.line(x0, y0, x1, y1, k)
}

func (a *arena) point(p game.Vec, k ink, glyph byte) {
	x, y := a.cv.dotOf(p)
	a.cv.dot(x, y, k, glyph)
}

// bullet is a player's shot: a 2×2 block of braille dots, a single
// character in ASCII. A saucer's is a character of its own (see
// hostileShot), told apart from it at a glance.
// The block is kept within one cell (its column, and rows 0-1, 1-2 or
// 2-3 of the cell): a bullet crosses a few cells a frame, so the dot it
// moves by is not seen, where a block across two or four cells would
// change as many on screen, twice a frame (drawn, then erased).
func (a *arena) bullet(p game.Vec, k ink) {
	x, y := a.cv.dotOf(p)
	if a.cv.ascii {
		a.cv.dot(x, y, k, '*')
		return
	}
	x &^= 1
	if y&3 == 3 {
		y--
	}
	a.cv.dot(x, y, k, 0)
	a.cv.dot(x+1, y, k, 0)
	a.cv.dot(x, y+1, k, 0)
	a.cv.dot(x+1, y+1, k, 0)
}

// hostileShot is the character a saucer's shot shows as: a star, of
// another shape than the player's block of dots (and, in ASCII, than the
// player's star), in a colour of its own.
func (a *arena) hostileShot() byte {
	if a.cv.ascii {
		return '+'
	}
	return '*'
}

// drawFrame draws the field's border: on its top row the level and wave,
// left, and the score, lives and high score, right; on its bottom row the
// mode.
func (a *arena) drawFrame(scr tcell.Screen, st tcell.Style) {
	f, g := a.frame, a.g
	// The score and lives matter most: where all does not fit, the
	// level's name gives way first, then the high score.
	room := f.w - 4 // a ─ at each end, one between
	a.buf = a.appendTitle(a.buf[:0], true)
	a.buf2 = a.appendScore(a.buf2[:0], true)
	if cells(a.buf)+cells(a.buf2) > room {
		if a.buf = a.appendTitle(a.buf[:0], false); cells(a.buf)+cells(a.buf2) > room {
			a.buf2 = a.appendScore(a.buf2[:0], false)
		}
	}
	left := a.left.of(a.buf)
	right := ""
	if min(utf8.RuneCountInString(left), f.w-2)+cells(a.buf2) <= room {
		right = a.right.of(a.buf2)
	}

	h := &a.hud
	badge := ""
	switch {
	case h.notice != "": // under the field, at every size
		a.buf = append(append(append(a.buf[:0], ' '), h.notice...), ' ')
		badge = a.notice.of(a.buf)
	case h.mode == match.Title && h.whose != "": // a watcher's: the player starts
		badge = " DEMO "
	case h.mode == match.Title:
		badge = g.demoBadge
	case h.paused:
		badge = " PAUSED "
	case h.stress:
		badge = g.stressBadge
	case h.status != "" && h.mode == match.Play:
		badge = h.status
	}

	a.box.draw(scr, g, rect{f.x - 1, f.y - 1, f.w + 2, f.h + 2}, st, 2, left, right, badge)
}

// appendTitle appends the arena's title to b: for a watcher or a replay
// whose game it is, for the player their name, the level's name (when
// named), the wave, and "hidden" or the watchers.
func (a *arena) appendTitle(b []byte, named bool) []byte {
	h, g := &a.hud, a.g
	b = append(b, ' ')
	if h.whose != "" {
		b = append(append(b, h.whose...), g.sep...)
	}
	if h.name != "" {
		b = append(append(b, h.name...), g.sep...)
	}
	if named {
		b = append(append(b, h.level...), g.sep...)
	}
	b = append(b, "wave "...)
	b = strconv.AppendInt(b, int64(h.wave), 10)
	switch {
	case h.hidden:
		b = append(append(b, g.sep...), "hidden"...)
	case h.watching > 0:
		b = strconv.AppendInt(append(b, g.sep...), int64(h.watching), 10)
		b = append(b, " watching"...)
	}
	return append(b, ' ')
}

// appendScore appends the score, the lives and (when high) the high score
// to b: under the title only the high score, the demo's score being no
// one's, and nothing where the players box has the scores.
func (a *arena) appendScore(b []byte, high bool) []byte {
	h, g := &a.hud, a.g
	if h.board {
		return b
	}
	b = append(b, ' ')
	if h.best {
		b = append(b, "best "...)
		b = strconv.AppendInt(b, int64(h.high), 10)
		return append(b, ' ')
	}
	if h.mode != match.Title {
		b = append(b, "score "...)
		b = strconv.AppendInt(b, int64(h.score), 10)
		b = append(b, g.sep...)
		b = append(b, "lives "...)
		b = strconv.AppendInt(b, int64(h.lives), 10)
		if !high {
			return append(b, ' ')
		}
		b = append(b, g.sep...)
	}
	b = append(b, "high "...)
	b = strconv.AppendInt(b, int64(h.high), 10)
	return append(b, ' ')
}

// watchPauseScreen is the pause overlay of a watcher, whose keys do not
// resume the game.
var watchPauseScreen = []string{"PAUSED", "", "q: leave"}

var titleScreen = []string{
	"P O O L R O I D S",
	"",
	"asteroids on fixed-capacity object pools",
	"",
	"press space to play",
}

// watchTitleScreen is the title screen of a watcher, whose space does
// not start the game.
var watchTitleScreen = []string{
	"P O O L R O I D S",
	"",
	"asteroids on fixed-capacity object pools",
	"",
	"the player has not started yet",
}

// overlay is the key help, title, pause or game-over screen to show over
// the field, and where; none: no lines and an empty rect.
func (a *arena) overlay() ([]string, rect) {
	var lines []string
	switch {
	case a.help != nil:
		lines = a.help
	case a.hud.mode == match.Title && a.hud.title != nil:
		lines = a.hud.title
	case a.hud.mode == match.Title && a.hud.whose != "":
		lines = watchTitleScreen
	case a.hud.mode == match.Title:
		lines = titleScreen
	case a.hud.mode == match.Over:
		lines = a.hud.over
	case a.hud.question != nil:
		lines = a.hud.question
	case a.hud.paused && a.hud.whose != "": // a watcher's: the player resumes
		lines = watchPauseScreen
	case a.hud.paused:
		lines = a.g.pauseScreen
	default:
		return nil, rect{}
	}
	width := 0
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(l))
	}
	f := a.frame
	w, h := min(width+4, f.w), min(len(lines)+2, f.h)
	r := rect{f.x + (f.w-w)/2, f.y + (f.h-h)/2, w, h}
	if (a.hud.paused || a.hud.question != nil) && a.help == nil && a.hud.mode != match.Title && a.hud.mode != match.Over {
		// A pause is for looking at the field: where a ship is under the
		// box in the middle (where ships come back), it goes to the top,
		// else the bottom, of the field.
		for _, y := range [...]int{r.y, f.y + 1, f.y + f.h - h - 1} {
			if r.y = y; !a.coversShip(r) {
				break
			}
		}
	}
	return lines, r
}

// overlayRows are the overlay's rows as last formatted, and what from:
// its lines and width.
type overlayRows struct {
	rows  textLines
	lines []string
	w     int
}

// coversShip reports whether r, in screen cells, covers a cell of a ship
// on the field as painted.
func (a *arena) coversShip(r rect) bool {
	f := a.frame
	for y := max(r.y, f.y); y < min(r.y+r.h, f.y+a.cv.h); y++ {
		for x := max(r.x, f.x); x < min(r.x+r.w, f.x+a.cv.w); x++ {
			if k := a.cv.cells[(y-f.y)*a.cv.w+x-f.x].ink; k >= inkShipGhost && k < numInks {
				return true
			}
		}
	}
	return false
}

// drawOverlay shows lines in the box r over the field, each centred.
func (a *arena) drawOverlay(scr tcell.Screen, lines []string, r rect) {
	if r.h < 2 { // none
		return
	}
	o := &a.over
	if r.w != o.w || r.h != len(o.rows.lines) || !slices.Equal(lines, o.lines) {
		o.w, o.lines = r.w, append(o.lines[:0], lines...)
		if len(o.rows.lines) != r.h {
			o.rows = newTextLines(r.h)
		}
		edge := o.rows.next().style(overlayStyle)
		edge.b = pad(edge.b, 0, r.w)
		for i, l := range lines[:r.h-2] {
			st := overlayStyle
			if i == 0 {
				st = overlayTitle
			}
			row := o.rows.next().style(overlayStyle)
			row.b = pad(row.b, 0, (r.w-utf8.RuneCountInString(l))/2)
			row.style(st).str(cutCells(l, r.w-2)).style(overlayStyle)
			row.b = pad(row.b, 0, r.w)
		}
		edge = o.rows.next().style(overlayStyle)
		edge.b = pad(edge.b, 0, r.w)
		o.rows.settle()
	}
	o.rows.draw(scr, r.x, r.y, r.w, r.h)
}
