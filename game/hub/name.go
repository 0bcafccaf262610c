package hub

import (
	"errors"
	"strconv"
	"strings"
)

// MaxName is the longest name of an arena, a watched game or a player, in
// characters (each one cell on a screen).
const MaxName = 16

// ErrName is the rule of the names arenas and watched games go by, which
// [ParseName] enforces and [FitName] and [AppendNameRune] follow.
var ErrName = errors.New("names are 1 to 16 of a-z 0-9 - _, the first a letter or digit")

// ParseName returns name lowercased (ASCII letters only) when it then is a
// valid name: 1 to [MaxName] of a-z, 0-9, '-' and '_', the first a letter
// or digit (so that no name reads as an option). Otherwise it returns
// [ErrName]. It allocates only to lowercase.
func ParseName(name string) (string, error) {
	if name == "" || len(name) > MaxName || name[0] == '-' || name[0] == '_' {
		return "", ErrName
	}
	upper := false
	for i := range len(name) {
		switch b := name[i]; {
		case 'A' <= b && b <= 'Z':
			upper = true
		case 'a' <= b && b <= 'z', '0' <= b && b <= '9', b == '-', b == '_':
		default:
			return "", ErrName
		}
	}
	if upper {
		name = strings.ToLower(name)
	}
	return name, nil
}

// FitName fits any name (a player's, to name their game to watchers) to
// the rule of [ParseName] by dropping what it does not allow; "player"
// when nothing is left.
func FitName(name string) string {
	b := make([]byte, 0, MaxName)
	for _, r := range name {
		b = AppendNameRune(b, r)
	}
	if len(b) == 0 {
		return "player"
	}
	return string(b)
}

// AppendNameRune appends r to b, a name being typed, if the rule of
// [ParseName] allows r there: ASCII letters (lowered), digits, and - or _
// after the first; at most [MaxName].
func AppendNameRune(b []byte, r rune) []byte {
	if 'A' <= r && r <= 'Z' {
		r += 'a' - 'A'
	}
	if len(b) < MaxName && ('a' <= r && r <= 'z' || '0' <= r && r <= '9' || (r == '-' || r == '_') && len(b) > 0) {
		return append(b, byte(r))
	}
	return b
}

// UniqueName returns name if it is not taken, else the first of name-2,
// name-3, … that is not, name cut so that the whole stays within [MaxName]
// runes. With n names taken it asks taken at most n+1 times: each
// candidate differs from all the others (by its digits after its last
// '-').
func UniqueName(name string, taken func(string) bool) string {
	if !taken(name) {
		return name
	}
	runes := []rune(name)
	for i := 2; ; i++ {
		suffix := "-" + strconv.Itoa(i)
		base := runes[:min(len(runes), MaxName-len(suffix))]
		if c := string(base) + suffix; !taken(c) {
			return c
		}
	}
}
