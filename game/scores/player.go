package scores

import (
	"strings"

	"poolroids/game/displayname"
	"poolroids/pool"
)

// A player is a name and the key they logged in with, if any:
// [Entry].Fingerprint holds the key's fingerprint in a field of its own,
// never in the name, so that no name can pass for a key. A player with a
// key owns the entries of their name and key; a player without one, those
// of their name that carry no key. [Store.For] is the store as one key's
// holder sees it.
//
// Before keys had a field of their own (format 1 of the file, version 2
// of the schema and before), an SSH player's name ended with a blank and
// the first 8 characters of their key's fingerprint: "ann IyQcJHIb". Such
// an entry keeps its name, as it was shown, and its fingerprint is those
// 8 characters ("SHA256:IyQcJHIb", a legacy key): it is owned by ann with
// a key whose fingerprint starts so, by no one without a key.

const (
	// keyPrefix starts every fingerprint ssh.FingerprintSHA256 gives.
	keyPrefix = "SHA256:"
	// keyLen is a whole fingerprint's length: the prefix and 32 bytes of
	// unpadded base64.
	keyLen = len(keyPrefix) + 43
	// legacyKeyLen is a legacy key's length: the prefix and the 8
	// characters names used to end with.
	legacyKeyLen = len(keyPrefix) + 8
)

// validKey reports whether k may be an entry's key: "", a fingerprint, or
// a legacy key.
func validKey(k string) bool {
	if k == "" {
		return true
	}
	rest, ok := strings.CutPrefix(k, keyPrefix)
	return ok && (len(k) == keyLen || len(k) == legacyKeyLen) && base64Only(rest)
}

// base64Only reports whether s is made of the unpadded standard base64
// alphabet.
func base64Only(s string) bool {
	for i := range len(s) {
		switch c := s[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '/':
		default:
			return false
		}
	}
	return true
}

// legacyKey returns the legacy key a name of format 1 ends with, if it
// ends with a blank and 8 characters of a fingerprint.
func legacyKey(name string) (string, bool) {
	n := len(name)
	if n < 10 || name[n-9] != ' ' || !base64Only(name[n-8:]) {
		return "", false
	}
	return keyPrefix + name[n-8:], true
}

// playerOf returns who e is: the name and the start of the key boards
// count an entry under (each player's best PerPlayer), the legacy key's
// suffix left out of the name.
func playerOf(e Entry) (name, key string) {
	key = e.Fingerprint[:min(len(e.Fingerprint), legacyKeyLen)]
	if len(e.Fingerprint) == legacyKeyLen {
		return strings.TrimSuffix(e.Name, " "+e.Fingerprint[len(keyPrefix):]), key
	}
	return e.Name, key
}

// samePlayer reports whether a and b are the same player's.
func samePlayer(a, b Entry) bool {
	an, ak := playerOf(a)
	bn, bk := playerOf(b)
	return an == bn && ak == bk
}

// owns reports whether the player name, who logged in with the key
// whose fingerprint is key ("": none), owns e.
func owns(e Entry, name, key string) bool {
	if len(e.Fingerprint) == legacyKeyLen {
		return key != "" && strings.HasPrefix(key, e.Fingerprint) && e.Name == name+" "+e.Fingerprint[len(keyPrefix):]
	}
	return e.Name == name && e.Fingerprint == key
}

// maxStrategy bounds an entry's strategy: two names and a slash.
const maxStrategy = 24

// check makes e, from a file, a database or a caller, fit to keep and to
// show, by the rules of everything strangers write: the name is cleaned
// as every name a player sees (package displayname), the arena's too; a
// strategy that is none of the pools' is dropped, and so is a replay name
// the store never gives. It reports false for an entry to refuse whole:
// a key that is no fingerprint (it would be no one's, or anyone's), a
// negative score or wave, a time JSON cannot hold.
func check(e *Entry) bool {
	if !validKey(e.Fingerprint) || e.Score < 0 || e.Wave < 0 {
		return false
	}
	if y := e.When.Year(); y < 1 || y > 9999 {
		return false
	}
	e.When = e.When.UTC()
	e.Name = cleanName(e.Name)
	if e.Arena != "" {
		e.Arena = displayname.Clean(e.Arena, maxName)
	}
	if !knownStrategy(e.Strategy) {
		e.Strategy = ""
	}
	if !replayFile(e.Replay) {
		e.Replay = ""
	}
	return true
}

// knownStrategy reports whether s names the pools' strategy at a game's
// end: a strategy, or the bullets' and the debris' apart ("dense/bitset").
func knownStrategy(s string) bool {
	if len(s) > maxStrategy {
		return false
	}
	for part := range strings.SplitSeq(s, "/") {
		if _, err := pool.ParseStrategy(part); err != nil {
			return false
		}
	}
	return strings.Count(s, "/") <= 1
}
