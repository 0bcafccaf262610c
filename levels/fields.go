package levels

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"poolroids/pool"
)

// kind is what a field holds, which decides how a TOML value is checked.
type kind uint8

const (
	kInt      kind = iota // TOML integer into an int
	kNum                  // TOML integer or float into a float64
	kName                 // TOML string: a short printable name
	kBool                 // TOML boolean
	kStrategy             // TOML string naming a pool.Strategy
	kTable                // a TOML table holding other fields
)

// field describes one key of a file: its type, its allowed range and where
// its value goes. The loader and Validate read the same tables, so a file
// and a Set built in code obey the same rules.
type field[T any] struct {
	key      string // TOML key, dotted below a table
	kind     kind
	lo, hi   float64 // inclusive range of a number; length in characters of a name
	required bool
	ptr      func(*T) any // where the value goes; nil for a table
}

// Limits of a name: it is drawn on one terminal line next to other text.
const maxName = 40

// Upper limits shared by the field tables and Set.Level: Level never goes
// past them, so the waves past the last stay inside the documented ranges.
const (
	maxAsteroids = 64
	maxSpeed     = 600.0
	maxPerBreak  = 1024

	maxSmallScore = 500_000
)

// MaxBullets and MaxDebris are the largest pool capacities a level set may
// ask for. They bound every capacity a game is given from outside (flags,
// replay files), so that no file can make a game allocate more than a level
// set could.
const (
	MaxBullets = 4096
	MaxDebris  = 65536
)

var setFields = []field[Set]{
	{key: "name", kind: kName, lo: 1, hi: maxName, required: true, ptr: func(s *Set) any { return &s.Name }},
	{key: "pools", kind: kTable, required: true},
	{key: "pools.bullets", kind: kInt, lo: 1, hi: MaxBullets, required: true, ptr: func(s *Set) any { return &s.Bullets }},
	{key: "pools.debris", kind: kInt, lo: 1, hi: MaxDebris, required: true, ptr: func(s *Set) any { return &s.Debris }},
	{key: "pools.shots", kind: kInt, lo: 0, hi: MaxBullets, ptr: func(s *Set) any { return &s.Shots }},
	{key: "pools.strategy", kind: kStrategy, required: true, ptr: func(s *Set) any { return &s.Strategy }},
	{key: "saucer", kind: kTable},
	{key: "saucer.first", kind: kNum, lo: 0, hi: 600, ptr: func(s *Set) any { return &s.Saucer.First }},
	{key: "saucer.every", kind: kNum, lo: 0, hi: 600, ptr: func(s *Set) any { return &s.Saucer.Every }},
	{key: "saucer.shot_speed", kind: kNum, lo: 0, hi: 2000, ptr: func(s *Set) any { return &s.Saucer.ShotSpeed }},
	{key: "saucer.shot_life", kind: kInt, lo: 0, hi: 600, ptr: func(s *Set) any { return &s.Saucer.ShotLife }},
	{key: "saucer.reload", kind: kInt, lo: 0, hi: 600, ptr: func(s *Set) any { return &s.Saucer.Reload }},
	{key: "saucer.hold_fire", kind: kNum, lo: 0, hi: 1024, ptr: func(s *Set) any { return &s.Saucer.HoldFire }},
	{key: "saucer.small_score", kind: kInt, lo: 0, hi: maxSmallScore, ptr: func(s *Set) any { return &s.Saucer.SmallScore }},
	{key: "saucer.aim", kind: kNum, lo: 0, hi: 180, ptr: func(s *Set) any { return &s.Saucer.Aim }},
}

var levelFields = []field[Level]{
	{key: "name", kind: kName, lo: 1, hi: maxName, required: true, ptr: func(l *Level) any { return &l.Name }},
	{key: "asteroids", kind: kInt, lo: 1, hi: maxAsteroids, required: true, ptr: func(l *Level) any { return &l.Asteroids }},
	{key: "size", kind: kInt, lo: 1, hi: 3, required: true, ptr: func(l *Level) any { return &l.Size }},
	{key: "speed_min", kind: kNum, lo: 0, hi: maxSpeed, required: true, ptr: func(l *Level) any { return &l.SpeedMin }},
	{key: "speed_max", kind: kNum, lo: 10, hi: maxSpeed, required: true, ptr: func(l *Level) any { return &l.SpeedMax }},
	{key: "fire_cooldown", kind: kInt, lo: 1, hi: 120, required: true, ptr: func(l *Level) any { return &l.FireCooldown }},
	{key: "bullet_speed", kind: kNum, lo: 100, hi: 2000, required: true, ptr: func(l *Level) any { return &l.BulletSpeed }},
	{key: "bullet_life", kind: kInt, lo: 1, hi: 600, required: true, ptr: func(l *Level) any { return &l.BulletLife }},
	{key: "bullets_per_shot", kind: kInt, lo: 1, hi: 16, required: true, ptr: func(l *Level) any { return &l.BulletsPerShot }},
	{key: "spread", kind: kNum, lo: 0, hi: 45, ptr: func(l *Level) any { return &l.Spread }},
	{key: "debris_per_break", kind: kInt, lo: 0, hi: maxPerBreak, required: true, ptr: func(l *Level) any { return &l.DebrisPerBreak }},
	{key: "debris_life_min", kind: kInt, lo: 1, hi: 600, required: true, ptr: func(l *Level) any { return &l.DebrisLifeMin }},
	{key: "debris_life_max", kind: kInt, lo: 1, hi: 600, required: true, ptr: func(l *Level) any { return &l.DebrisLifeMax }},
	{key: "saucer", kind: kBool, ptr: func(l *Level) any { return &l.Saucer }},
}

// span is the range of a number field, as in "10..600".
func (f *field[T]) span() string { return fmtNum(f.lo) + ".." + fmtNum(f.hi) }

// allowed says what the field takes, in words that follow "allowed".
func (f *field[T]) allowed() string {
	switch f.kind {
	case kInt:
		return "an integer " + f.span()
	case kNum:
		return "a number " + f.span()
	case kName:
		return fmt.Sprintf("a text of %d to %d printable characters", int(f.lo), int(f.hi))
	case kBool:
		return "true or false"
	case kStrategy:
		return "one of " + pool.StrategyNames()
	default:
		return "a table"
	}
}

// set checks the decoded TOML value v and stores it in dst. It returns what
// is wrong, or "" when v was stored.
func (f *field[T]) set(dst *T, v any) string {
	switch p := f.ptr(dst).(type) {
	case *int:
		n, ok := v.(int64)
		if !ok {
			return f.mismatch(v)
		}
		if msg := f.outOfRange(float64(n)); msg != "" {
			return msg
		}
		*p = int(n)
	case *float64:
		var x float64
		switch n := v.(type) {
		case int64:
			x = float64(n)
		case float64:
			x = n
		default:
			return f.mismatch(v)
		}
		if msg := f.outOfRange(x); msg != "" {
			return msg
		}
		*p = x
	case *string:
		s, ok := v.(string)
		if !ok {
			return f.mismatch(v)
		}
		if msg := f.badName(s); msg != "" {
			return msg
		}
		*p = s
	case *bool:
		b, ok := v.(bool)
		if !ok {
			return f.mismatch(v)
		}
		*p = b
	case *pool.Strategy:
		s, ok := v.(string)
		if !ok {
			return f.mismatch(v)
		}
		st, err := pool.ParseStrategy(s)
		if err != nil {
			return fmt.Sprintf("%s is not a strategy, allowed %s", quote(s), f.allowed())
		}
		*p = st
	}
	return ""
}

// check is set's counterpart for a value already in src (a Set built in
// code): it returns what is wrong, or "".
func (f *field[T]) check(src *T) string {
	switch p := f.ptr(src).(type) {
	case *int:
		return f.outOfRange(float64(*p))
	case *float64:
		return f.outOfRange(*p)
	case *string:
		return f.badName(*p)
	case *pool.Strategy:
		// Exact names only: pool.New does not fold case as ParseStrategy does.
		if st, err := pool.ParseStrategy(string(*p)); err != nil || st != *p {
			return fmt.Sprintf("%s is not a strategy, allowed %s", quote(string(*p)), f.allowed())
		}
	}
	return ""
}

func (f *field[T]) outOfRange(x float64) string {
	if x >= f.lo && x <= f.hi { // false for NaN too
		return ""
	}
	return fmt.Sprintf("%s is out of range, allowed %s", fmtNum(x), f.span())
}

func (f *field[T]) badName(s string) string {
	var what string
	switch n := utf8.RuneCountInString(s); {
	case !utf8.ValidString(s):
		what = "is not valid UTF-8"
	case n < int(f.lo):
		what = "is empty"
	case n > int(f.hi):
		what = fmt.Sprintf("is too long (%d characters)", n)
	case strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		what = "has an unprintable character"
	default:
		return ""
	}
	return fmt.Sprintf("%s %s, allowed %s", quote(s), what, f.allowed())
}

func (f *field[T]) mismatch(v any) string {
	return fmt.Sprintf("got %s, allowed %s", describe(v), f.allowed())
}

// describe names a decoded TOML value for a message, with the value itself
// when it is short.
func describe(v any) string {
	switch v := v.(type) {
	case int64:
		return "an integer " + strconv.FormatInt(v, 10)
	case float64:
		return "a float " + fmtNum(v)
	case string:
		return "a string " + quote(v)
	case bool:
		return "a boolean " + strconv.FormatBool(v)
	case map[string]any:
		return "a table"
	case []map[string]any:
		return "an array of tables"
	case []any:
		return "an array"
	default: // the only TOML values left are dates and times
		return "a date-time"
	}
}

// fmtNum formats a number as TOML writes it.
func fmtNum(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// quote quotes s for a message, cut short so that a huge value cannot flood
// the terminal.
func quote(s string) string {
	const most = 48
	if len(s) <= most {
		return strconv.Quote(s)
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// children lists the keys directly below parent ("" for the top level), for
// the "allowed" part of an unknown-field message.
func children[T any](fields []field[T], parent string) string {
	var names []string
	for i := range fields {
		k := fields[i].key
		if parent != "" {
			rest, ok := strings.CutPrefix(k, parent+".")
			if !ok {
				continue
			}
			k = rest
		}
		if !strings.Contains(k, ".") {
			names = append(names, k)
		}
	}
	return strings.Join(names, ", ")
}
