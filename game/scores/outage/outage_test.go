package outage_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"poolroids/game/scores/outage"
)

// An outage of many failures is two lines: its start, with the first
// error and what the server does meanwhile, and its end, with the count.
// Successes outside an outage log nothing.
func TestLog(t *testing.T) {
	var buf bytes.Buffer
	l := outage.New("score database", "saves are queued")
	l.SetLogger(slog.New(slog.NewTextHandler(&buf, nil)))
	l.OK()
	if l.Down() || l.LastOK().IsZero() || buf.Len() != 0 {
		t.Fatalf("a success: down %v, last %v, log %q", l.Down(), l.LastOK(), buf.String())
	}
	for range 100 {
		l.Failed(errors.New("connection refused"))
	}
	if !l.Down() || l.Failures() != 100 {
		t.Errorf("after 100 failures: down %v, failures %d", l.Down(), l.Failures())
	}
	l.OK("posted", 3)
	l.OK()
	l.Failed(errors.New("timeout"))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		`level=WARN msg="score database unreachable" err="connection refused" meanwhile="saves are queued"`,
		`level=INFO msg="score database back" after=`,
		`level=WARN msg="score database unreachable" err=timeout`,
	}
	if len(lines) != len(want) {
		t.Fatalf("logged %d lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %s\nwant %s", i+1, lines[i], w)
		}
	}
	if !strings.Contains(lines[1], "failures=100 posted=3") {
		t.Errorf("the end of the outage: %s, want its 100 failures and the attrs", lines[1])
	}
	if l.Failures() != 101 {
		t.Errorf("Failures() = %d, want 101 in all", l.Failures())
	}
}
