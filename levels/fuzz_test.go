package levels

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// FuzzLoad feeds arbitrary set.toml and level files to the loader: it must
// never panic, and must return either a *FieldError pointing into one of
// the files or a set that validates, whose every wave (past the last level
// too) stays in range. The seed corpus in testdata/fuzz/FuzzLoad runs as a
// plain test.
func FuzzLoad(f *testing.F) {
	set, err := fs.ReadFile(Embedded(), SetFile)
	if err != nil {
		f.Fatal(err)
	}
	lv, err := fs.ReadFile(Embedded(), "06-debris-field.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(set, lv)
	f.Fuzz(func(t *testing.T, set, level []byte) {
		files := map[string][]byte{SetFile: set, "01-level.toml": level}
		fsys := fstest.MapFS{}
		for name, data := range files {
			fsys[name] = &fstest.MapFile{Data: data}
		}
		s, err := LoadFS(fsys, ".")
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Msg == "" || s != nil {
				t.Fatalf("got set %v and error %#v, want a *FieldError only", s, err)
			}
			data, ok := files[fe.File]
			if !ok {
				t.Fatalf("error names file %q, not one of the two: %v", fe.File, err)
			}
			if n := strings.Count(string(data), "\n") + 1; fe.Line < 0 || fe.Line > n {
				t.Fatalf("error on line %d of a %d-line file: %v", fe.Line, n, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("loaded set does not validate: %v", err)
		}
		for n := range len(s.Levels) + Ramp + 2 {
			one := &Set{Name: s.Name, Bullets: s.Bullets, Debris: s.Debris, Strategy: s.Strategy, Levels: []Level{s.Level(n)}}
			if err := one.Validate(); err != nil {
				t.Fatalf("Level(%d) out of range: %v", n, err)
			}
		}
	})
}
