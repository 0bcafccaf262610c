package levels

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"poolroids/levels/regfile"
)

// SetFile is the file of a level-set directory that names the set and
// gives the pool capacities. Every other *.toml file there is a level.
const SetFile = "set.toml"

// maxFileSize bounds what the loader reads of one file: a level is a few
// hundred bytes, so anything near this is a mistake (or an attack on a
// server that loads sets).
const maxFileSize = 64 << 10

// LoadDir loads the level set in directory dir of the operating system, as
// the --levels flag asks. Errors are *[FieldError]s whose File is the path
// of the file at fault joined to dir.
func LoadDir(dir string) (*Set, error) {
	if dir == "" {
		return nil, &FieldError{Msg: "no level directory given, allowed a directory holding set.toml and level files"}
	}
	return load(os.DirFS(dir), ".", func(name string) string { return filepath.Join(dir, name) })
}

// LoadFS loads the level set in directory name of fsys ("." for its root):
// name/set.toml for the set, then every other name/*.toml as a level, in
// the order of the file names (so 01-first.toml, 02-second.toml, ...).
// Subdirectories, other files and names starting with "." (editor
// leftovers) are skipped. A set.toml or level that is not a regular file
// (a named pipe, a socket, a device), or a link to one, is an error, found
// before any file is opened: reading a pipe would wait for a writer for
// good. Errors are *[FieldError]s whose File is the file at fault joined
// to name; nothing panics, whatever the files hold.
func LoadFS(fsys fs.FS, name string) (*Set, error) {
	return load(fsys, name, func(file string) string { return path.Join(name, file) })
}

func load(fsys fs.FS, dir string, show func(string) string) (*Set, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, &FieldError{File: show(""), Msg: "cannot read the level directory: " + reason(err), Err: err}
	}
	var files []string // the levels' files
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".toml") {
			continue
		}
		if ok, err := regular(fsys, path.Join(dir, n), e, show(n)); err != nil {
			return nil, err
		} else if ok && n != SetFile {
			files = append(files, n)
		}
	}
	sd, err := readDoc(fsys, dir, SetFile, show)
	if err != nil {
		return nil, err
	}
	s := new(Set)
	if err := decode(sd, setFields, s); err != nil {
		return nil, err
	}
	named := make(map[string]string) // level name -> its file
	for _, n := range files {
		d, err := readDoc(fsys, dir, n, show)
		if err != nil {
			return nil, err
		}
		var l Level
		if err := decode(d, levelFields, &l); err != nil {
			return nil, err
		}
		if key, msg := crossCheck(&l); msg != "" {
			return nil, d.errorf(key, "%s", msg)
		}
		if prev, dup := named[l.Name]; dup {
			return nil, d.errorf("name", "%s is already the name of %s, allowed a name of its own", quote(l.Name), prev)
		}
		named[l.Name] = n
		s.Levels = append(s.Levels, l)
	}
	if len(s.Levels) == 0 {
		return nil, &FieldError{File: show(""), Msg: "no level files, allowed one or more *.toml files besides " + SetFile}
	}
	if i, need := biggestVolley(s.Levels); need > s.Bullets {
		return nil, sd.errorf("pools.bullets", "%s", volleyMsg(s.Bullets, need, files[i]))
	}
	return s, nil
}

// regular reports whether the entry e, at name in fsys, is a regular file
// to read, or a link to one; false for a directory (or a link to one),
// which the loader skips. Anything else is an error naming file, since
// opening it might never return. Only the types are looked at: nothing is
// opened.
func regular(fsys fs.FS, name string, e fs.DirEntry, file string) (bool, error) {
	mode := e.Type()
	if mode&fs.ModeSymlink != 0 {
		info, err := fs.Stat(fsys, name)
		if err != nil {
			return false, &FieldError{File: file, Msg: "cannot open: " + reason(err), Err: err}
		}
		mode = info.Mode().Type()
	}
	switch {
	case mode.IsRegular():
		return true, nil
	case mode.IsDir():
		return false, nil
	}
	return false, &FieldError{File: file, Msg: regfile.Kind(mode) + ", allowed only a regular file"}
}

// reason is err without the path a *fs.PathError repeats: the FieldError
// names the file, as the user gave it, and the path in the error is
// relative to the level directory ("open .").
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// doc is one parsed file. The values stay toml.Primitives until a field
// asks for them, because a Primitive remembers its key, and decoding it
// again is how the key's line is found (see lineOf).
type doc struct {
	file string // as shown in errors
	src  string
	md   toml.MetaData
	top  map[string]toml.Primitive
}

func readDoc(fsys fs.FS, dir, name string, show func(string) string) (*doc, error) {
	file := show(name)
	f, err := fsys.Open(path.Join(dir, name))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && name == SetFile {
			return nil, &FieldError{File: file, Msg: "missing, allowed a " + SetFile + " with name and [pools] bullets, debris, strategy", Err: err}
		}
		return nil, &FieldError{File: file, Msg: "cannot open: " + reason(err), Err: err}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, &FieldError{File: file, Msg: "cannot read: " + reason(err), Err: err}
	}
	if len(b) > maxFileSize {
		return nil, &FieldError{File: file, Msg: fmt.Sprintf("too large, allowed up to %d KiB", maxFileSize>>10)}
	}
	// toml skips a byte-order mark; so does doc, so that offsets agree.
	src := string(b)
	for _, bom := range []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"} {
		if rest, ok := strings.CutPrefix(src, bom); ok {
			src = rest
			break
		}
	}
	d := &doc{file: file, src: src}
	d.md, err = toml.Decode(src, &d.top)
	if err != nil {
		fe := &FieldError{File: file, Msg: "invalid TOML: " + err.Error(), Err: err}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fe.Line, fe.Field, fe.Msg = pe.Position.Line, pe.LastKey, "invalid TOML: "+pe.Message
		}
		return nil, fe
	}
	return d, nil
}

// decode checks every key of d against fields and fills dst. Of all the
// problems found it returns the one on the earliest line, so that fixing
// a file from top to bottom works; missing fields, which have no line of
// their own, come last.
func decode[T any](d *doc, fields []field[T], dst *T) error {
	var errs []*FieldError
	failed := make(map[string]bool) // missing or wrong tables: their keys are not looked up
	for i := range fields {
		f := &fields[i]
		parent, nested := parentOf(f.key)
		if nested && failed[parent] {
			continue
		}
		p, ok := d.lookup(f.key)
		if !ok {
			failed[f.key] = true
			if f.required {
				line := 0
				if nested {
					line = d.line(parent)
				}
				errs = append(errs, &FieldError{File: d.file, Line: line, Field: f.key, Msg: "missing, allowed " + f.allowed()})
			}
			continue
		}
		v := d.value(p)
		var msg string
		if f.ptr == nil {
			if _, ok := v.(map[string]any); !ok {
				failed[f.key] = true
				msg = f.mismatch(v)
			}
		} else {
			msg = f.set(dst, v)
		}
		if msg != "" {
			errs = append(errs, &FieldError{File: d.file, Line: d.line(f.key), Field: f.key, Msg: msg})
		}
	}
	known := make(map[string]bool, len(fields))
	for i := range fields {
		known[fields[i].key] = true
	}
	// Keys come in document order, so the first unknown one is the earliest;
	// looking no further keeps a file of thousands of keys cheap.
	if k, i, ok := firstUnknown(d.md.Keys(), known); ok {
		name, parent := strings.Join(k[:i], "."), strings.Join(k[:i-1], ".")
		allowed := children(fields, parent)
		if allowed == "" {
			allowed = fmt.Sprintf("no keys below %q", parent)
		}
		errs = append(errs, &FieldError{File: d.file, Line: d.keyLine(k), Field: name,
			Msg: "unknown field" + suggest(k[i-1], fields, parent) + ", allowed " + allowed})
	}
	if len(errs) == 0 {
		return nil
	}
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i].Line, errs[j].Line
		return a != 0 && (b == 0 || a < b)
	})
	return errs[0]
}

// firstUnknown returns the first key with a part that is not a field, and
// how many parts make up the unknown name.
func firstUnknown(keys []toml.Key, known map[string]bool) (toml.Key, int, bool) {
	for _, k := range keys {
		for i := 1; i <= len(k); i++ {
			if !known[k[:i].String()] {
				return k, i, true
			}
		}
	}
	return nil, 0, false
}

// errorf reports a problem with key, at its line.
func (d *doc) errorf(key, format string, args ...any) *FieldError {
	return &FieldError{File: d.file, Line: d.line(key), Field: key, Msg: fmt.Sprintf(format, args...)}
}

// lookup finds the value of a dotted key of the field tables.
func (d *doc) lookup(key string) (toml.Primitive, bool) {
	parts := strings.Split(key, ".")
	p, ok := d.top[parts[0]]
	for _, part := range parts[1:] {
		if !ok {
			break
		}
		var m map[string]toml.Primitive
		if d.md.PrimitiveDecode(p, &m) != nil {
			return toml.Primitive{}, false
		}
		p, ok = m[part]
	}
	return p, ok
}

func (d *doc) value(p toml.Primitive) any {
	var v any
	if d.md.PrimitiveDecode(p, &v) != nil {
		return nil
	}
	return v
}

// line returns the line of a dotted key of the field tables, 0 if absent.
// A table made implicitly by a dotted key ("pools.bullets = 64" with no
// [pools]) has no line of its own: it is on the line of its first key.
func (d *doc) line(key string) int {
	if p, ok := d.lookup(key); ok {
		if n := d.lineOf(p); n > 0 {
			return n
		}
	}
	parts := strings.Split(key, ".")
	for _, k := range d.md.Keys() {
		if len(k) > len(parts) && slices.Equal(k[:len(parts)], parts) {
			return d.keyLine(k)
		}
	}
	return 0
}

// keyLine returns the line of any key of the file: that of its deepest part
// that can be reached (keys inside an array of tables cannot).
func (d *doc) keyLine(k toml.Key) int {
	p, ok := d.top[k[0]]
	if !ok {
		return 0
	}
	for _, part := range k[1:] {
		var m map[string]toml.Primitive
		if d.md.PrimitiveDecode(p, &m) != nil {
			break
		}
		q, ok := m[part]
		if !ok {
			break
		}
		p = q
	}
	return d.lineOf(p)
}

// lineOf returns the line of the key a Primitive came from. The toml
// package records the position of every key's value but exports it only in
// the ParseError of a failed decode; decoding the Primitive into a type
// that always fails yields that error, and the position with it. Its Line
// is where the value ends (the last line of a multi-line string), so the
// line is counted up to where the value starts instead.
func (d *doc) lineOf(p toml.Primitive) int {
	var pe toml.ParseError
	if !errors.As(d.md.PrimitiveDecode(p, locator{}), &pe) || pe.Position.Line == 0 {
		return 0
	}
	if start := pe.Position.Start; start >= 0 && start <= len(d.src) {
		return 1 + strings.Count(d.src[:start], "\n")
	}
	return pe.Position.Line
}

// locator is a toml.Unmarshaler that refuses everything, for lineOf.
type locator struct{}

var errLocate = errors.New("locate")

func (locator) UnmarshalTOML(any) error { return errLocate }

// parentOf returns "pools" for "pools.bullets".
func parentOf(key string) (parent string, nested bool) {
	i := strings.LastIndexByte(key, '.')
	if i < 0 {
		return "", false
	}
	return key[:i], true
}

// suggest offers the known key closest to a misspelt one, when there is a
// close one.
func suggest[T any](name string, fields []field[T], parent string) string {
	best, bestD := "", 3 // more than two edits away is no longer a typo
	for _, k := range strings.Split(children(fields, parent), ", ") {
		// Short names are all close to each other: "wave" is no typo of "name".
		if d := editDistance(name, k); d < bestD && 3*d <= len(name) {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance of two short keys, in bytes.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 { // keys are short; a long one is no typo
		return len(a) + len(b)
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			diag, row[j] = row[j], min(row[j]+1, row[j-1]+1, diag+cost)
		}
	}
	return row[len(b)]
}
