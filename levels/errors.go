package levels

import (
	"fmt"
	"strings"
)

// FieldError is every error the loader and [Set.Validate] return: what is
// wrong, where, and what is allowed instead. Get it with errors.As. Its text
// reads like a compiler's:
//
//	levels/03-swarm.toml:7: field "speed_max": 9000 is out of range, allowed 10..600
type FieldError struct {
	File  string // the file as the loader named it, e.g. "mylevels/03-swarm.toml"; "" from Validate
	Line  int    // 1-based line of the field; 0 when there is none (a missing field or file)
	Field string // the TOML key, e.g. "speed_max" or "pools.bullets"; "" when the whole file is at fault
	Msg   string // what is wrong, ending with what is allowed
	Err   error  // the underlying I/O or TOML syntax error, if any
}

func (e *FieldError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error, so that errors.Is(err, fs.ErrNotExist)
// works for a missing file.
func (e *FieldError) Unwrap() error { return e.Err }
