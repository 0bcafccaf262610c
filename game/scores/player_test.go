package scores

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"poolroids/game/scores/pgtest"
)

// Two keys' fingerprints, as ssh.FingerprintSHA256 gives them.
const (
	annKey   = "SHA256:IyQcJHIbq0Nw3vOPrkw8d4FqJ2m5Vx1sLcR7TgHnYeA"
	otherKey = "SHA256:Zq8p1mXv7bN3cT5rW2yK9hJ4dF6gS0aL1eU8iO3pQwE"
)

// testIdentity is the contract of players on a store that open opens
// afresh on one table: a name with a key owns its entries; the same name
// without the key, with another key, or with the key's start after it
// ("ann IyQcJHIb", how names used to carry keys) owns none of them, and
// their games do not push the key's holder's off the board.
func testIdentity(t *testing.T, open func() *Store) {
	s := open()
	ann := s.For(annKey)
	if _, err := ann.Add(entry("ann", 5000, 0)); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, key string }{
		{"ann", ""},
		{"ann " + annKey[7:15], ""},
		{"ann", otherKey},
		{"ann " + annKey[7:15], otherKey},
	} {
		st := s.For(f.key)
		if e, place, ok := st.Best(AllTime, f.name); ok {
			t.Errorf("%q with key %q was shown ann's best: %+v at %d", f.name, f.key, e, place)
		}
		if got := st.TopFor(f.name, 0); len(got) != 0 {
			t.Errorf("%q with key %q was shown ann's entries: %s", f.name, f.key, names(got))
		}
		for i := range PerPlayer + 1 {
			if _, err := st.Add(entry(f.name, 6000+i, i+1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	again := open()
	for _, st := range []*Store{ann, again.For(annKey)} {
		if e, place, ok := st.Best(AllTime, "ann"); !ok || e.Score != 5000 || e.Fingerprint != annKey {
			t.Errorf("ann's best: %+v at %d, %v; want her 5000 under her key", e, place, ok)
		}
		if got := names(st.TopFor("ann", 0)); got != "ann:5000" {
			t.Errorf("ann's entries: %s, want ann:5000 alone", got)
		}
	}
	if got := names(again.For("").TopFor("ann", 0)); !strings.HasPrefix(got, "ann:6010 ") || strings.Count(got, "ann:") != PerPlayer {
		t.Errorf("ann without a key: %s, want her own best %d", got, PerPlayer)
	}
	if _, err := s.For("SHA256:not a key").Add(entry("eve", 1, 0)); err == nil {
		t.Error("an entry under a key that is no fingerprint was taken")
	}
}

func TestIdentity(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "scores.json")
	testIdentity(t, func() *Store {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestPostgresIdentity(t *testing.T) {
	t.Parallel()
	pg := pgtest.Start(t)
	testIdentity(t, func() *Store { return openPG(t, pg.URL) })
}

// legacyTable is a table of format 1, where SSH players' names ended with
// their key's start: ann with annKey, eve with otherKey, and john anderson,
// who had no key (there is no telling him apart: his name is taken for a
// legacy key too, and no one without one owns it now).
var legacyTable = []Entry{
	{Name: "ann " + annKey[7:15], Score: 500, Wave: 1, When: t0},
	{Name: "eve " + otherKey[7:15], Score: 400, Wave: 1, When: t0},
	{Name: "john anderson", Score: 300, Wave: 1, When: t0},
	{Name: "bob", Score: 200, Wave: 1, When: t0},
}

// testLegacy checks s, which holds legacyTable as format 1 kept it: every
// name shows as it did, ann with her key owns hers and groups it with her
// new ones, no one without her key does, and bob is still bob.
func testLegacy(t *testing.T, s *Store) {
	t.Helper()
	if got := names(s.Top(0)); got != "ann "+annKey[7:15]+":500 eve "+otherKey[7:15]+":400 john anderson:300 bob:200" {
		t.Errorf("the legacy table shows %s", got)
	}
	if e, _, ok := s.For(annKey).Best(AllTime, "ann"); !ok || e.Score != 500 {
		t.Errorf("ann with her key: best %+v, %v; want her legacy 500", e, ok)
	}
	if e, _, ok := s.For(otherKey).Best(AllTime, "ann"); ok {
		t.Errorf("ann with eve's key was shown %+v", e)
	}
	if e, _, ok := s.For("").Best(AllTime, "ann "+annKey[7:15]); ok {
		t.Errorf("a name ending with ann's key's start, without a key, was shown %+v", e)
	}
	if e, _, ok := s.For("").Best(AllTime, "bob"); !ok || e.Score != 200 {
		t.Errorf("bob: %+v, %v; want his 200", e, ok)
	}
	for i := range PerPlayer {
		if _, err := s.For(annKey).Add(entry("ann", 1000+i, i+1)); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.For(annKey).TopFor("ann", 0); len(got) != PerPlayer || got[PerPlayer-1].Score != 1000 {
		t.Errorf("ann's entries: %s; want her %d new ones, her legacy one counted with them and gone", names(got), PerPlayer)
	}
}

// TestLegacyFile: a table of format 1 is read with its legacy keys, and
// saved in format 2.
func TestLegacyFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "scores.json")
	var b strings.Builder
	b.WriteString(`{"version":1,"entries":[`)
	for i, e := range legacyTable {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":%q,"score":%d,"wave":1,"strategy":"dense","when":"2025-03-01T12:00:00Z"}`, e.Name, e.Score)
	}
	b.WriteString("]}\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	testLegacy(t, s)
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), `"version": 2`) || !strings.Contains(string(data), `"fingerprint": "`+annKey+`"`) {
		t.Errorf("saved as:\n%s\n%v; want format 2 with ann's key", data, err)
	}
}

// TestLegacyPostgres: a database of schema version 1 is migrated, its
// names' keys in the key column.
func TestLegacyPostgres(t *testing.T) {
	t.Parallel()
	pg := pgtest.Start(t)
	ctx := context.Background()
	conn := pgConn(t, pg.URL)
	for _, stmt := range append(migrations[0], `CREATE TABLE poolroids_schema (version integer NOT NULL)`, `INSERT INTO poolroids_schema VALUES (1)`) {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range legacyTable {
		if _, err := conn.Exec(ctx, `INSERT INTO poolroids_scores (name, score, wave, strategy, at) VALUES ($1, $2, 1, 'dense', $3)`, e.Name, e.Score, e.When); err != nil {
			t.Fatal(err)
		}
	}
	testLegacy(t, openPG(t, pg.URL))
}
