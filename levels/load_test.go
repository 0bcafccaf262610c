package levels

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// testSet and testLevel are valid files, one field a line, so that a case
// can break line n and know where the error must point.
var (
	testSet = []string{
		`name = "Test set"`, // 1
		``,                  // 2
		`[pools]`,           // 3
		`bullets = 64`,      // 4
		`debris = 1024`,     // 5
		`strategy = "freelist"`,
	}
	testLevel = []string{
		`name = "Swarm"`,        // 1
		`asteroids = 8`,         // 2
		`size = 3`,              // 3
		`speed_min = 35`,        // 4
		`speed_max = 90`,        // 5
		`fire_cooldown = 7`,     // 6
		`bullet_speed = 620`,    // 7
		`bullet_life = 58`,      // 8
		`bullets_per_shot = 3`,  // 9
		`spread = 5`,            // 10
		`debris_per_break = 48`, // 11
		`debris_life_min = 40`,  // 12
		`debris_life_max = 100`, // 13
		`saucer = true`,         // 14
	}
)

// edit returns lines with line n (1-based) replaced by repl; n past the end
// appends. A removed field becomes a comment, so later lines keep their
// numbers.
func edit(lines []string, n int, repl string) string {
	return edits(lines, map[int]string{n: repl})
}

// edits is edit for several lines at once.
func edits(lines []string, repl map[int]string) string {
	out := append([]string(nil), lines...)
	for n, r := range repl {
		for len(out) < n {
			out = append(out, "")
		}
		out[n-1] = r
	}
	return joined(out)
}

func joined(lines []string) string { return strings.Join(lines, "\n") + "\n" }

// mapFS builds a level directory "lv" of name -> content.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys["lv/"+name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

func TestLoadFSValid(t *testing.T) {
	fsys := mapFS(map[string]string{
		"set.toml":       edit(testSet, 6, `strategy = " Bitset "`), // names fold as in ParseStrategy
		"10-last.toml":   edit(testLevel, 1, `name = "Last"`),
		"02-second.toml": edit(testLevel, 1, `name = "Second"`),
		"01-first.toml":  edits(testLevel, map[int]string{1: `name = "First"`, 10: "", 14: ""}),
		"README.md":      "not a level",
		".#01-x.toml":    "editor lock file",
		"old/01-x.toml":  "in a subdirectory",
	})
	s, err := LoadFS(fsys, "lv")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "Test set" || s.Bullets != 64 || s.Debris != 1024 || s.Strategy != "bitset" {
		t.Errorf("set = %q %d %d %q, want \"Test set\" 64 1024 \"bitset\"", s.Name, s.Bullets, s.Debris, s.Strategy)
	}
	var names []string
	for _, l := range s.Levels {
		names = append(names, l.Name)
	}
	if got := strings.Join(names, ","); got != "First,Second,Last" {
		t.Errorf("levels = %s, want First,Second,Last (file name order)", got)
	}
	want := Level{Name: "Second", Asteroids: 8, Size: 3, SpeedMin: 35, SpeedMax: 90, FireCooldown: 7,
		BulletSpeed: 620, BulletLife: 58, BulletsPerShot: 3, Spread: 5, DebrisPerBreak: 48,
		DebrisLifeMin: 40, DebrisLifeMax: 100, Saucer: true}
	if s.Levels[1] != want {
		t.Errorf("level 2 = %+v\nwant %+v", s.Levels[1], want)
	}
	if first := s.Levels[0]; first.Spread != 0 || first.Saucer {
		t.Errorf("optional fields left out: spread %v saucer %v, want 0 false", first.Spread, first.Saucer)
	}
	if err := s.Validate(); err != nil {
		t.Errorf("a loaded set does not validate: %v", err)
	}
	if s.Saucer != (Saucers{}) {
		t.Errorf("a set.toml without [saucer] gave saucers %+v, want none set (the defaults)", s.Saucer)
	}
	fsys["lv/set.toml"] = &fstest.MapFile{Data: []byte(joined(testSet) + "[saucer]\nhold_fire = 300\nreload = 50\n")}
	if s, err = LoadFS(fsys, "lv"); err != nil {
		t.Fatal(err)
	}
	if want := (Saucers{HoldFire: 300, Reload: 50}); s.Saucer != want {
		t.Errorf("saucers %+v, want %+v", s.Saucer, want)
	}
}

func TestLoadFSBroken(t *testing.T) {
	lv := joined(testLevel)
	cases := []struct {
		name   string
		set    string            // "" : the valid testSet
		levels map[string]string // nil: 03-swarm.toml = the valid testLevel
		file   string
		line   int
		field  string
		msg    string // the message, or its start when it ends in "..."
	}{
		{name: "out of range", levels: map[string]string{"03-swarm.toml": edit(testLevel, 5, `speed_max = 9000`)},
			file: "lv/03-swarm.toml", line: 5, field: "speed_max", msg: "9000 is out of range, allowed 10..600"},
		{name: "below range", levels: map[string]string{"03-swarm.toml": edit(testLevel, 11, `debris_per_break = -1`)},
			file: "lv/03-swarm.toml", line: 11, field: "debris_per_break", msg: "-1 is out of range, allowed 0..1024"},
		{name: "nan", levels: map[string]string{"03-swarm.toml": edit(testLevel, 7, `bullet_speed = nan`)},
			file: "lv/03-swarm.toml", line: 7, field: "bullet_speed", msg: "nan is out of range, allowed 100..2000"},
		{name: "inf", levels: map[string]string{"03-swarm.toml": edit(testLevel, 10, `spread = -inf`)},
			file: "lv/03-swarm.toml", line: 10, field: "spread", msg: "-inf is out of range, allowed 0..45"},
		{name: "string for integer", levels: map[string]string{"03-swarm.toml": edit(testLevel, 3, `size = "big"`)},
			file: "lv/03-swarm.toml", line: 3, field: "size", msg: `got a string "big", allowed an integer 1..3`},
		{name: "float for integer", levels: map[string]string{"03-swarm.toml": edit(testLevel, 2, `asteroids = 8.5`)},
			file: "lv/03-swarm.toml", line: 2, field: "asteroids", msg: "got a float 8.5, allowed an integer 1..64"},
		{name: "string for boolean", levels: map[string]string{"03-swarm.toml": edit(testLevel, 14, `saucer = "yes"`)},
			file: "lv/03-swarm.toml", line: 14, field: "saucer", msg: `got a string "yes", allowed true or false`},
		{name: "array", levels: map[string]string{"03-swarm.toml": edit(testLevel, 3, `size = [1, 2]`)},
			file: "lv/03-swarm.toml", line: 3, field: "size", msg: "got an array, allowed an integer 1..3"},
		{name: "date", levels: map[string]string{"03-swarm.toml": edit(testLevel, 3, `size = 1979-05-27`)},
			file: "lv/03-swarm.toml", line: 3, field: "size", msg: "got a date-time, allowed an integer 1..3"},
		{name: "number for name", levels: map[string]string{"03-swarm.toml": edit(testLevel, 1, `name = 7`)},
			file: "lv/03-swarm.toml", line: 1, field: "name", msg: "got an integer 7, allowed a text of 1 to 40 printable characters"},
		{name: "empty name", levels: map[string]string{"03-swarm.toml": edit(testLevel, 1, `name = ""`)},
			file: "lv/03-swarm.toml", line: 1, field: "name", msg: `"" is empty, allowed a text of 1 to 40 printable characters`},
		{name: "long name", levels: map[string]string{"03-swarm.toml": edit(testLevel, 1, `name = "`+strings.Repeat("ab", 21)+`"`)},
			file: "lv/03-swarm.toml", line: 1, field: "name", msg: `"` + strings.Repeat("ab", 21) + `" is too long (42 characters), ...`},
		{name: "control character in name", levels: map[string]string{"03-swarm.toml": edit(testLevel, 1, `name = "bell\u0007"`)},
			file: "lv/03-swarm.toml", line: 1, field: "name", msg: `"bell\a" has an unprintable character, ...`},
		{name: "multi-line name", levels: map[string]string{"03-swarm.toml": "\n" + `name = """` + "\nab\ncd" + `"""` + "\n" + joined(testLevel[1:])},
			file: "lv/03-swarm.toml", line: 2, field: "name", msg: `"ab\ncd" has an unprintable character, ...`},
		{name: "after a multi-line string", levels: map[string]string{"03-swarm.toml": `name = """` + "\nab" + `"""` + "\n" + edit(testLevel[1:], 2, "size = 0")},
			file: "lv/03-swarm.toml", line: 4, field: "size", msg: "0 is out of range, allowed 1..3"},
		{name: "byte-order mark", levels: map[string]string{"03-swarm.toml": "\ufeff" + edit(testLevel, 3, "size = 4")},
			file: "lv/03-swarm.toml", line: 3, field: "size", msg: "4 is out of range, allowed 1..3"},
		{name: "misspelt field", levels: map[string]string{"03-swarm.toml": edit(testLevel, 14, `sped_max = 3`)},
			file: "lv/03-swarm.toml", line: 14, field: "sped_max", msg: `unknown field (did you mean "speed_max"?), allowed name, asteroids, size, ...`},
		{name: "unknown table", levels: map[string]string{"03-swarm.toml": lv + "[wave]\nasteroids = 3\n"},
			file: "lv/03-swarm.toml", line: 15, field: "wave", msg: "unknown field, allowed name, asteroids, size, speed_min, speed_max, fire_cooldown, bullet_speed, bullet_life, bullets_per_shot, spread, debris_per_break, debris_life_min, debris_life_max, saucer"},
		{name: "key below a value", levels: map[string]string{"03-swarm.toml": `name.x = 1` + "\n" + joined(testLevel[1:])},
			file: "lv/03-swarm.toml", line: 1, field: "name", msg: "got a table, allowed a text of 1 to 40 printable characters"},
		{name: "missing field", levels: map[string]string{"03-swarm.toml": edit(testLevel, 5, `# no speed_max`)},
			file: "lv/03-swarm.toml", line: 0, field: "speed_max", msg: "missing, allowed a number 10..600"},
		{name: "a line before a missing field", levels: map[string]string{"03-swarm.toml": edits(testLevel, map[int]string{5: "# no speed_max", 8: "bullet_life = 0"})},
			file: "lv/03-swarm.toml", line: 8, field: "bullet_life", msg: "0 is out of range, allowed 1..600"},
		{name: "earliest line first", levels: map[string]string{"03-swarm.toml": edits(testLevel, map[int]string{1: "saucer = 3", 3: "size = 9", 14: `name = "Swarm"`})},
			file: "lv/03-swarm.toml", line: 1, field: "saucer", msg: "got an integer 3, allowed true or false"},
		{name: "speed range upside down", levels: map[string]string{"03-swarm.toml": edit(testLevel, 4, `speed_min = 95`)},
			file: "lv/03-swarm.toml", line: 4, field: "speed_min", msg: "95 is above speed_max 90, allowed 0..90"},
		{name: "debris life upside down", levels: map[string]string{"03-swarm.toml": edit(testLevel, 12, `debris_life_min = 120`)},
			file: "lv/03-swarm.toml", line: 12, field: "debris_life_min", msg: "120 is above debris_life_max 100, allowed 1..100"},
		{name: "syntax", levels: map[string]string{"03-swarm.toml": edit(testLevel, 3, `size = 3x`)},
			file: "lv/03-swarm.toml", line: 3, msg: "invalid TOML: expected a top-level item to end with a newline, comment, or EOF, but got 'x' instead"},
		{name: "duplicate key", levels: map[string]string{"03-swarm.toml": edit(testLevel, 14, `size = 2`)},
			file: "lv/03-swarm.toml", line: 14, field: "size", msg: "invalid TOML: Key 'size' has already been defined."},
		{name: "integer overflow", levels: map[string]string{"03-swarm.toml": edit(testLevel, 2, `asteroids = 99999999999999999999`)},
			file: "lv/03-swarm.toml", line: 2, field: "asteroids", msg: "invalid TOML: 99999999999999999999 is out of range for int64"},
		{name: "duplicate level name", levels: map[string]string{"01-a.toml": lv, "02-b.toml": lv},
			file: "lv/02-b.toml", line: 1, field: "name", msg: `"Swarm" is already the name of 01-a.toml, allowed a name of its own`},
		{name: "no levels", levels: map[string]string{"notes.txt": lv},
			file: "lv", msg: "no level files, allowed one or more *.toml files besides set.toml"},
		{name: "huge file", levels: map[string]string{"03-swarm.toml": lv + "#" + strings.Repeat("x", maxFileSize)},
			file: "lv/03-swarm.toml", msg: "too large, allowed up to 64 KiB"},
		{name: "unknown strategy", set: edit(testSet, 6, `strategy = "fast"`),
			file: "lv/set.toml", line: 6, field: "pools.strategy", msg: `"fast" is not a strategy, allowed one of alloc, syncpool, listremove, activelist, scan, queue, freelist, offsets, bitset, dense`},
		{name: "volley too big", set: edit(testSet, 4, `bullets = 2`),
			file: "lv/set.toml", line: 4, field: "pools.bullets", msg: "2 is too small for one volley of 03-swarm.toml (bullets_per_shot = 3), allowed 3..4096"},
		{name: "zero capacity", set: edit(testSet, 5, `debris = 0`),
			file: "lv/set.toml", line: 5, field: "pools.debris", msg: "0 is out of range, allowed 1..65536"},
		{name: "no pools", set: joined(testSet[:2]),
			file: "lv/set.toml", line: 0, field: "pools", msg: "missing, allowed a table"},
		{name: "missing capacity", set: edit(testSet, 5, "# no debris"),
			file: "lv/set.toml", line: 3, field: "pools.debris", msg: "missing, allowed an integer 1..65536"},
		{name: "pools not a table", set: joined(testSet[:2]) + "pools = 5\n",
			file: "lv/set.toml", line: 3, field: "pools", msg: "got an integer 5, allowed a table"},
		{name: "array of tables", set: joined(testSet[:2]) + "[[pools]]\nbullets = 1\n",
			file: "lv/set.toml", line: 3, field: "pools", msg: "got an array of tables, allowed a table"},
		{name: "unknown pool key", set: edit(testSet, 7, "bulets = 3"),
			file: "lv/set.toml", line: 7, field: "pools.bulets", msg: `unknown field (did you mean "bullets"?), allowed bullets, debris, shots, strategy`},
		{name: "inline table", set: joined(testSet[:2]) + `pools = {bullets = 64, debris = 8, strategy = "scan", colour = "red"}` + "\n",
			file: "lv/set.toml", line: 3, field: "pools.colour", msg: "unknown field, allowed bullets, debris, shots, strategy"},
		{name: "dotted keys", set: joined(testSet[:2]) + "pools.bullets = 64\npools.debris = 1e3\npools.strategy = 'scan'\n",
			file: "lv/set.toml", line: 4, field: "pools.debris", msg: "got a float 1000, allowed an integer 1..65536"},
		{name: "level table in set", set: joined(testSet) + "[level]\nname = 'x'\n",
			file: "lv/set.toml", line: 7, field: "level", msg: "unknown field, allowed name, pools, saucer"},
		{name: "saucer out of range", set: joined(testSet) + "[saucer]\nfirst = 10\nshot_speed = 5000\n",
			file: "lv/set.toml", line: 9, field: "saucer.shot_speed", msg: "5000 is out of range, allowed 0..2000"},
		{name: "unknown saucer key", set: joined(testSet) + "[saucer]\nspeed = 10\n",
			file: "lv/set.toml", line: 8, field: "saucer.speed", msg: "unknown field, allowed first, every, shot_speed, shot_life, reload, hold_fire, small_score, aim"},
		{name: "no set file", set: "-",
			file: "lv/set.toml", msg: "missing, allowed a set.toml with name and [pools] bullets, debris, strategy"},
		{name: "null bytes", set: "\x00\x00name = 1",
			file: "lv/set.toml", line: 1, msg: "invalid TOML: files cannot contain NULL bytes; probably using UTF-16; TOML files must be UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"set.toml": joined(testSet)}
			if c.set == "-" {
				delete(files, "set.toml")
			} else if c.set != "" {
				files["set.toml"] = c.set
			}
			if c.levels == nil {
				c.levels = map[string]string{"03-swarm.toml": lv}
			}
			for name, data := range c.levels {
				files[name] = data
			}
			s, err := LoadFS(mapFS(files), "lv")
			checkFieldError(t, s, err, c.file, c.line, c.field, c.msg)
		})
	}
}

// checkFieldError asserts that err is a *FieldError with exactly these
// parts, msg being a prefix when it ends in "...".
func checkFieldError(t *testing.T, s *Set, err error, file string, line int, field, msg string) {
	t.Helper()
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("got set %v, error %v; want a *FieldError", s, err)
	}
	if s != nil {
		t.Errorf("got a set with the error")
	}
	if fe.File != file || fe.Line != line || fe.Field != field {
		t.Errorf("error at %q line %d field %q, want %q line %d field %q\n%v", fe.File, fe.Line, fe.Field, file, line, field, err)
	}
	if prefix, ok := strings.CutSuffix(msg, "..."); ok {
		if !strings.HasPrefix(fe.Msg, prefix) {
			t.Errorf("message %q, want it to start with %q", fe.Msg, prefix)
		}
	} else if fe.Msg != msg {
		t.Errorf("message %q\nwant    %q", fe.Msg, msg)
	}
}

// TestLoadFSNotRegular checks that LoadFS refuses a level or set file that
// is a named pipe or a device, naming it, and skips a directory named like
// a level.
func TestLoadFSNotRegular(t *testing.T) {
	for _, c := range []struct {
		name string
		mode fs.FileMode
		msg  string
	}{
		{"07-x.toml", fs.ModeNamedPipe, "a named pipe, allowed only a regular file"},
		{"07-x.toml", fs.ModeDevice | fs.ModeCharDevice, "a device, allowed only a regular file"},
		{SetFile, fs.ModeNamedPipe, "a named pipe, allowed only a regular file"},
	} {
		fsys := mapFS(map[string]string{SetFile: joined(testSet), "01-a.toml": joined(testLevel)})
		fsys["lv/"+c.name] = &fstest.MapFile{Mode: c.mode}
		s, err := LoadFS(fsys, "lv")
		checkFieldError(t, s, err, "lv/"+c.name, 0, "", c.msg)
	}
	fsys := mapFS(map[string]string{SetFile: joined(testSet), "01-a.toml": joined(testLevel)})
	fsys["lv/02-dir.toml"] = &fstest.MapFile{Mode: fs.ModeDir}
	if s, err := LoadFS(fsys, "lv"); err != nil || len(s.Levels) != 1 {
		t.Errorf("a directory named like a level: %v; want it skipped", err)
	}
}

func TestLoadFSMissingDir(t *testing.T) {
	_, err := LoadFS(fstest.MapFS{}, "nowhere")
	var fe *FieldError
	if !errors.As(err, &fe) || fe.File != "nowhere" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want a *FieldError for \"nowhere\" wrapping fs.ErrNotExist", err)
	}
	_, err = LoadFS(mapFS(map[string]string{"01-a.toml": joined(testLevel)}), "lv")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no set.toml: err = %v, want it to wrap fs.ErrNotExist", err)
	}
}

// TestLoadDir loads a copy of the shipped set from disk, then breaks it:
// the error names the file by its path on disk.
func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, Embedded()); err != nil {
		t.Fatal(err)
	}
	s, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := Default(); s.Name != d.Name || len(s.Levels) != len(d.Levels) || s.Levels[len(s.Levels)-1] != d.Levels[len(d.Levels)-1] {
		t.Errorf("LoadDir of the shipped files differs from Default")
	}

	bad := filepath.Join(dir, "02-drift.toml")
	if err := os.WriteFile(bad, []byte(edit(testLevel, 5, "speed_max = 9000")), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = LoadDir(dir)
	checkFieldError(t, s, err, bad, 5, "speed_max", "9000 is out of range, allowed 10..600")
	if want := bad + `:5: field "speed_max": 9000 is out of range, allowed 10..600`; err.Error() != want {
		t.Errorf("error text\n%s\nwant\n%s", err, want)
	}

	if s, err := LoadDir(""); err == nil {
		t.Errorf("LoadDir(\"\") = %v, want an error", s)
	}
	// The error names the directory as given, not "." as os.DirFS has it.
	nowhere := filepath.Join(dir, "nowhere")
	s, err = LoadDir(nowhere)
	checkFieldError(t, s, err, nowhere, 0, "", "cannot read the level directory: no such file or directory")
	if want := nowhere + ": cannot read the level directory: no such file or directory"; err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error text\n%s\nwant\n%s, wrapping fs.ErrNotExist", err, want)
	}
}

func TestFieldErrorText(t *testing.T) {
	cases := []struct {
		err  FieldError
		want string
	}{
		{FieldError{File: "lv/03-swarm.toml", Line: 7, Field: "speed_max", Msg: "9000 is out of range, allowed 10..600"},
			`lv/03-swarm.toml:7: field "speed_max": 9000 is out of range, allowed 10..600`},
		{FieldError{File: "lv/03-swarm.toml", Field: "speed_max", Msg: "missing, allowed a number 10..600"},
			`lv/03-swarm.toml: field "speed_max": missing, allowed a number 10..600`},
		{FieldError{File: "lv/03-swarm.toml", Line: 3, Msg: "invalid TOML: bad"}, `lv/03-swarm.toml:3: invalid TOML: bad`},
		{FieldError{Field: "levels[2].size", Msg: "0 is out of range, allowed 1..3"}, `field "levels[2].size": 0 is out of range, allowed 1..3`},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %s\nwant      %s", got, c.want)
		}
	}
}
