package scores

import (
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullDiskChild is set in the environment of the process that runs
// TestFullDiskKeepsOldFile's limit.
const fullDiskChild = "POOLROIDS_TEST_FULL_DISK"

// TestFullDiskKeepsOldFile makes the disk "full" for real — a file size
// limit on this process, which root obeys too — so that writing the new
// table fails part way, and checks the old file is exactly as it was, no
// temporary file is left, the entry is kept in memory, and the next save
// once there is room writes it.
//
// The limit is the whole process's: it runs in a process of its own, the
// test binary run again for this test alone, so that no other write of
// the test's process (go test's log of the files a test opens, flushed
// when its buffer fills) meets it.
func TestFullDiskKeepsOldFile(t *testing.T) {
	if os.Getenv(fullDiskChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFullDiskKeepsOldFile$", "-test.v")
		cmd.Env = append(os.Environ(), fullDiskChild+"=1")
		out, err := cmd.CombinedOutput()
		if err == nil && strings.Contains(string(out), "--- SKIP: TestFullDiskKeepsOldFile") {
			t.Skipf("skipped in its own process:\n%s", out)
		}
		if err != nil || !strings.Contains(string(out), "--- PASS: TestFullDiskKeepsOldFile") {
			t.Fatalf("the test in a process of its own: %v\n%s", err, out)
		}
		return
	}
	path := filepath.Join(t.TempDir(), "scores.json")
	s, _ := Open(path)
	for i := range 5 {
		if _, err := s.Add(entry("ann", 100*i, i)); err != nil {
			t.Fatal(err)
		}
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Skip(err)
	}
	// Past the limit write fails with EFBIG instead of killing the process.
	signal.Ignore(syscall.SIGXFSZ)
	defer signal.Reset(syscall.SIGXFSZ)
	small := lim
	small.Cur = uint64(len(old)) / 2
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &small); err != nil {
		t.Skip(err)
	}
	rank, addErr := s.Add(entry("bob", 1000, 9))
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}

	if addErr == nil || rank != 1 {
		t.Fatalf("Add on a full disk = %d, %v; want rank 1 and an error", rank, addErr)
	}
	if now, err := os.ReadFile(path); err != nil || string(now) != string(old) {
		t.Errorf("old file changed by a failed save: %v", err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	if got := names(s.Top(1)); got != "bob:1000" {
		t.Errorf("table top %s, want the entry kept in memory", got)
	}

	if _, err := s.Add(entry("cy", 1, 10)); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil || len(again.Top(0)) != 7 || again.Top(1)[0].Name != "bob" {
		t.Errorf("after room returns the file holds %v, %v; want all 7 with bob first", names(again.Top(0)), err)
	}
}
