package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadme keeps README.md a guide: at most 250 lines, with the test
// command that .ci/run runs, and the benchmark tables in pool/BENCHMARKS.md.
func TestReadme(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	if n := strings.Count(text, "\n"); n > 250 {
		t.Errorf("README.md has %d lines, want at most 250", n)
	}
	const test = "go test -race ./..."
	if !strings.Contains(string(ci), "\n"+test+"\n") || !strings.Contains(text, "\n"+test+" ") {
		t.Errorf("README.md and .ci/run do not both run %q", test)
	}
	if strings.Contains(text, "AcquireRelease") {
		t.Error("README.md holds benchmark tables; they belong in pool/BENCHMARKS.md")
	}
	if _, err := os.Stat("pool/BENCHMARKS.md"); err != nil {
		t.Error(err)
	}
}
