package replay

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"unicode"
	"unicode/utf8"

	"poolroids/game"
	"poolroids/levels"
	"poolroids/pool"
)

// Version is the format version this package writes. Version 2 stores the
// level set's shots per ship and plays by the arcade rules (saucers,
// respawns, spawn points) that came with them; version 3 adds the ghost
// op. Version 4 stores the level set's saucers and plays by the fair
// saucers' rules (their shots seen coming, the small one taking over when
// no one scores) and the arena's spawn rules that came with them: a file
// of an earlier version would not replay the same, so it is refused,
// saying so ([OldestVersion]).
const Version = 4

// OldestVersion is the oldest format version this package reads: a file of
// a version from OldestVersion to Version replays and checks the same.
const OldestVersion = 4

// magic opens every replay file.
const magic = "PRPL"

// DefaultEvery is the steps between two checksums when Options.Every is 0:
// a little over four seconds of play.
const DefaultEvery = 256

// MaxEvery bounds the steps between two checksums, and with it the steps a
// file of a given size can ask a player to play.
const MaxEvery = 4096

// MaxName is the longest player name a file holds, in bytes.
const MaxName = 64

// MaxGhosts is the most ghosts one file carries: a daily game's two (the
// day's best and the player's own) and room for a third and fourth shown
// later in the game.
const MaxGhosts = 4

// MaxGhost bounds the size of a ghost's replay carried by a file, in bytes:
// two hours of a solo game whose keys change every step take 448 KB.
const MaxGhost = 512 << 10

// Limits of what a header may hold, so that a corrupted count is an error
// and never a large allocation.
const (
	maxString = 255
	maxLevels = 256
)

// Body op codes; see the package documentation.
const (
	opInputMax   = 0x7F
	opRun        = 0x80
	opRunMax     = 0xBE
	opLongRun    = 0xBF
	opSlot       = 0xC0
	opSlotMax    = 0xCF
	opJoin       = 0xD0
	opLeave      = 0xD1
	opSwitch     = 0xD2
	opRestart    = 0xD3
	opChecksum   = 0xD4
	opEnd        = 0xD5
	opGhost      = 0xD6
	maxShortRun  = opRunMax - opRun + 1 // 63
	maxInputRun  = 3                    // steps an input op can play
	inputRunBits = 5                    // shift of the cc field of an input op
)

// Header is what a replay file says about its game before the first step.
type Header struct {
	Version  int    // the file's format version, OldestVersion..Version
	Build    string // the build that recorded it: see [Build]
	Seed     uint64
	Mode     game.Mode
	Ships    int // ship slots, 1..game.MaxShips
	Strategy pool.Strategy
	Bullets  int // bullet pool capacity
	Debris   int // debris pool capacity
	Every    int // steps between two checksums
	Levels   *levels.Set
	Players  []string // names of the ships in play from the start, by slot
	Start    uint64   // the world's checksum before the first step
}

// Config returns the game configuration that rebuilds the recorded world.
func (h *Header) Config() game.Config {
	return game.Config{
		Levels:   h.Levels,
		Seed:     h.Seed,
		Strategy: h.Strategy,
		Bullets:  h.Bullets,
		Debris:   h.Debris,
		Ships:    h.Ships,
		Mode:     h.Mode,
	}
}

// Build describes the running build as a header records it: module version,
// VCS revision when known, Go version, and GOOS/GOARCH (checksums compare
// within one architecture).
func Build() string {
	version, rev := "(devel)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				rev = " " + s.Value[:min(len(s.Value), 12)]
			}
		}
	}
	return fmt.Sprintf("poolroids %s%s %s %s/%s", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// FormatError is what reading a file that is not a well-formed replay
// returns: the byte offset where something else was expected, and what.
// A file cut short (it ends where more was expected) also matches
// io.ErrUnexpectedEOF with errors.Is.
type FormatError struct {
	Offset int    // from the start of the file
	Msg    string // what was expected there, and what was found
	cut    bool   // the file ends before what was expected
}

func (e *FormatError) Error() string { return fmt.Sprintf("byte %d: %s", e.Offset, e.Msg) }

// Unwrap returns io.ErrUnexpectedEOF for a file cut short, else nil.
func (e *FormatError) Unwrap() error {
	if e.cut {
		return io.ErrUnexpectedEOF
	}
	return nil
}

// encoding helpers: append to a byte slice.

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendSum(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

func appendFloat(b []byte, f float64) []byte { return appendSum(b, math.Float64bits(f)) }

func appendInt(b []byte, n int) []byte { return binary.AppendVarint(b, int64(n)) }

// appendHeader encodes h.
func appendHeader(b []byte, h *Header) []byte {
	b = append(b, magic...)
	b = binary.AppendUvarint(b, Version)
	b = appendString(b, h.Build)
	b = binary.AppendUvarint(b, h.Seed)
	b = append(b, byte(h.Mode))
	b = binary.AppendUvarint(b, uint64(h.Ships))
	b = appendString(b, string(h.Strategy))
	b = binary.AppendUvarint(b, uint64(h.Bullets))
	b = binary.AppendUvarint(b, uint64(h.Debris))
	b = binary.AppendUvarint(b, uint64(h.Every))
	b = AppendLevelSet(b, h.Levels)
	b = binary.AppendUvarint(b, uint64(len(h.Players)))
	for _, p := range h.Players {
		b = appendString(b, p)
	}
	return appendSum(b, h.Start)
}

// AppendLevelSet appends s to b as a header stores it: every field of the
// set and of each level, then its saucers with their defaults filled in,
// in a fixed order, integers as varints and floats as their IEEE 754 bits. Two sets that encode alike play the same games,
// on every machine; a digest of these bytes names a set's content.
func AppendLevelSet(b []byte, s *levels.Set) []byte {
	b = appendString(b, s.Name)
	b = binary.AppendUvarint(b, uint64(s.Bullets))
	b = binary.AppendUvarint(b, uint64(s.Debris))
	b = binary.AppendUvarint(b, uint64(s.Shots))
	b = appendString(b, string(s.Strategy))
	b = binary.AppendUvarint(b, uint64(len(s.Levels)))
	for i := range s.Levels {
		l := &s.Levels[i]
		b = appendString(b, l.Name)
		b = appendInt(b, l.Asteroids)
		b = appendInt(b, l.Size)
		b = appendFloat(b, l.SpeedMin)
		b = appendFloat(b, l.SpeedMax)
		b = appendInt(b, l.FireCooldown)
		b = appendFloat(b, l.BulletSpeed)
		b = appendInt(b, l.BulletLife)
		b = appendInt(b, l.BulletsPerShot)
		b = appendFloat(b, l.Spread)
		b = appendInt(b, l.DebrisPerBreak)
		b = appendInt(b, l.DebrisLifeMin)
		b = appendInt(b, l.DebrisLifeMax)
		b = append(b, boolByte(l.Saucer))
	}
	u := s.Saucers()
	b = appendFloat(b, u.First)
	b = appendFloat(b, u.Every)
	b = appendFloat(b, u.ShotSpeed)
	b = appendInt(b, u.ShotLife)
	b = appendInt(b, u.Reload)
	b = appendFloat(b, u.HoldFire)
	b = appendInt(b, u.SmallScore)
	return appendFloat(b, u.Aim)
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// decoder reads a file front to back; every read checks what is left and
// fails with a *FormatError naming the offset and what it wanted.
type decoder struct {
	data []byte
	off  int
}

func (d *decoder) fail(at int, format string, a ...any) error {
	return &FormatError{Offset: at, Msg: fmt.Sprintf(format, a...)}
}

func (d *decoder) eof(what string) error {
	return &FormatError{Offset: d.off, Msg: "unexpected end of file, want " + what, cut: true}
}

func (d *decoder) byte(what string) (byte, error) {
	if d.off >= len(d.data) {
		return 0, d.eof(what)
	}
	c := d.data[d.off]
	d.off++
	return c, nil
}

func (d *decoder) uvarint(what string) (uint64, error) {
	v, n := binary.Uvarint(d.data[d.off:])
	switch {
	case n == 0:
		return 0, d.eof(what)
	case n < 0:
		return 0, d.fail(d.off, "want %s, found a varint longer than 64 bits", what)
	}
	d.off += n
	return v, nil
}

// count reads a uvarint that must be within lo..hi.
func (d *decoder) count(what string, lo, hi int) (int, error) {
	at := d.off
	v, err := d.uvarint(what)
	if err != nil {
		return 0, err
	}
	if v < uint64(lo) || v > uint64(hi) {
		return 0, d.fail(at, "want %s %d..%d, found %d", what, lo, hi, v)
	}
	return int(v), nil
}

// int reads a zigzag varint that must fit 32 bits, as every level field does.
func (d *decoder) int(what string) (int, error) {
	at := d.off
	v, n := binary.Varint(d.data[d.off:])
	switch {
	case n == 0:
		return 0, d.eof(what)
	case n < 0 || v < math.MinInt32 || v > math.MaxInt32:
		return 0, d.fail(at, "want %s, found a varint beyond 32 bits", what)
	}
	d.off += n
	return int(v), nil
}

func (d *decoder) sum(what string) (uint64, error) {
	if len(d.data)-d.off < 8 {
		return 0, d.eof(what + " (8 bytes)")
	}
	v := binary.LittleEndian.Uint64(d.data[d.off:])
	d.off += 8
	return v, nil
}

func (d *decoder) float(what string) (float64, error) {
	at := d.off
	v, err := d.sum(what)
	if err != nil {
		return 0, err
	}
	f := math.Float64frombits(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, d.fail(at, "want %s, found %v", what, f)
	}
	return f, nil
}

func (d *decoder) string(what string, most int) (string, error) {
	at := d.off
	n, err := d.count(what+"'s length", 0, most)
	if err != nil {
		return "", err
	}
	if len(d.data)-d.off < n {
		return "", d.eof(fmt.Sprintf("%s (%d bytes)", what, n))
	}
	b := d.data[d.off : d.off+n]
	if !printable(string(b)) {
		// A viewer draws what a file names: an escape sequence in a name
		// would reach the terminal.
		return "", d.fail(at, "want %s in printable UTF-8, found %q", what, b)
	}
	d.off += n
	return string(b), nil
}

// printable reports whether s is valid UTF-8 of printable runes, as the
// names of level files are.
func printable(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}

func (d *decoder) strategy(what string, empty bool) (pool.Strategy, error) {
	at := d.off
	s, err := d.string(what, maxString)
	if err != nil || (s == "" && empty) {
		return "", err
	}
	st, err := pool.ParseStrategy(s)
	if err != nil {
		return "", d.fail(at, "want %s, one of %s; found %q", what, pool.StrategyNames(), s)
	}
	return st, nil
}

// header decodes and checks the header.
func (d *decoder) header() (*Header, error) {
	n := min(len(d.data), len(magic))
	switch {
	case string(d.data[:n]) != magic[:n]:
		return nil, d.fail(0, "want the replay magic %q, found %q: not a poolroids replay", magic, d.data[:n])
	case n < len(magic):
		return nil, &FormatError{Offset: 0, Msg: fmt.Sprintf("unexpected end of file, want the replay magic %q", magic), cut: true}
	}
	d.off = len(magic)
	h := &Header{}
	v, err := d.uvarint("the format version")
	if err != nil {
		return nil, err
	}
	switch {
	case v < OldestVersion:
		return nil, d.fail(len(magic), "want format version %d, found %d: an older poolroids wrote it, under rules this one no longer plays", Version, v)
	case v > Version:
		return nil, d.fail(len(magic), "want format version %d, found %d: a newer poolroids wrote it", Version, v)
	}
	h.Version = int(v)
	if h.Build, err = d.string("the build", maxString); err != nil {
		return nil, err
	}
	if h.Seed, err = d.uvarint("the seed"); err != nil {
		return nil, err
	}
	at := d.off
	m, err := d.byte("the mode")
	if err != nil {
		return nil, err
	}
	if m > byte(game.PvP) {
		return nil, d.fail(at, "want the mode 0 (co-op) or 1 (PvP), found %d", m)
	}
	h.Mode = game.Mode(m)
	if h.Ships, err = d.count("the ship slots", 1, game.MaxShips); err != nil {
		return nil, err
	}
	if h.Strategy, err = d.strategy("the starting strategy", false); err != nil {
		return nil, err
	}
	// A file may not ask for larger pools than a level set may: they are
	// allocated whole before the first step.
	if h.Bullets, err = d.count("the bullet capacity", 1, levels.MaxBullets); err != nil {
		return nil, err
	}
	if h.Debris, err = d.count("the debris capacity", 1, levels.MaxDebris); err != nil {
		return nil, err
	}
	if h.Every, err = d.count("the steps between checksums", 1, MaxEvery); err != nil {
		return nil, err
	}
	if h.Levels, err = d.levelSet(); err != nil {
		return nil, err
	}
	n, err = d.count("the number of players", 0, h.Ships)
	if err != nil {
		return nil, err
	}
	for i := range n {
		p, err := d.string(fmt.Sprintf("player %d's name", i), MaxName)
		if err != nil {
			return nil, err
		}
		h.Players = append(h.Players, p)
	}
	if h.Start, err = d.sum("the start checksum"); err != nil {
		return nil, err
	}
	return h, nil
}

// number is a field of a level set the format stores as a number: p is
// an *int (an sv) or a *float64 (a float64).
type number struct {
	p     any
	field string
}

// numbers reads the fields ns in turn, naming each name(field) in errors.
func (d *decoder) numbers(name func(string) string, ns []number) error {
	var err error
	for _, n := range ns {
		switch p := n.p.(type) {
		case *int:
			*p, err = d.int(name(n.field))
		case *float64:
			*p, err = d.float(name(n.field))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// levelSet decodes a level set and checks it by the levels package's rules.
func (d *decoder) levelSet() (*levels.Set, error) {
	at := d.off
	s := &levels.Set{}
	var err error
	if s.Name, err = d.string("the level set's name", maxString); err != nil {
		return nil, err
	}
	if s.Bullets, err = d.count("the level set's bullets", 0, levels.MaxBullets); err != nil {
		return nil, err
	}
	if s.Debris, err = d.count("the level set's debris", 0, levels.MaxDebris); err != nil {
		return nil, err
	}
	if s.Shots, err = d.count("the level set's shots", 0, pool.MaxCapacity); err != nil {
		return nil, err
	}
	if s.Strategy, err = d.strategy("the level set's strategy", false); err != nil {
		return nil, err
	}
	n, err := d.count("the number of levels", 1, maxLevels)
	if err != nil {
		return nil, err
	}
	for i := range n {
		var l levels.Level
		f := func(name string) string { return fmt.Sprintf("levels[%d].%s", i, name) }
		if l.Name, err = d.string(f("name"), maxString); err != nil {
			return nil, err
		}
		if err := d.numbers(f, []number{
			{&l.Asteroids, "asteroids"}, {&l.Size, "size"},
			{&l.SpeedMin, "speed_min"}, {&l.SpeedMax, "speed_max"},
			{&l.FireCooldown, "fire_cooldown"}, {&l.BulletSpeed, "bullet_speed"},
			{&l.BulletLife, "bullet_life"}, {&l.BulletsPerShot, "bullets_per_shot"},
			{&l.Spread, "spread"}, {&l.DebrisPerBreak, "debris_per_break"},
			{&l.DebrisLifeMin, "debris_life_min"}, {&l.DebrisLifeMax, "debris_life_max"},
		}); err != nil {
			return nil, err
		}
		bat := d.off
		c, err := d.byte(f("saucer"))
		if err != nil {
			return nil, err
		}
		if c > 1 {
			return nil, d.fail(bat, "want %s 0 or 1, found %d", f("saucer"), c)
		}
		l.Saucer = c == 1
		s.Levels = append(s.Levels, l)
	}
	u := &s.Saucer
	if err := d.numbers(func(name string) string { return "saucer." + name }, []number{
		{&u.First, "first"}, {&u.Every, "every"}, {&u.ShotSpeed, "shot_speed"},
		{&u.ShotLife, "shot_life"}, {&u.Reload, "reload"}, {&u.HoldFire, "hold_fire"},
		{&u.SmallScore, "small_score"}, {&u.Aim, "aim"},
	}); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, d.fail(at, "want a valid level set, found one where %v", err)
	}
	return s, nil
}
