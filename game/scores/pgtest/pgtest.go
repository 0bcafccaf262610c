// Package pgtest starts a PostgreSQL server of a test's own, as httptest
// starts an HTTP server: initdb and pg_ctl in a temporary directory, the
// server listening on a Unix socket there only, stopped when the test
// ends. Under root, which PostgreSQL refuses, it runs them as the postgres
// user that Debian's postgresql package creates.
//
// Without PostgreSQL installed the test is skipped, except under CI=true,
// where it fails: .ci/run installs it.
package pgtest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Server is a running PostgreSQL server with one database, postgres, that
// the user poolroids may use without a password.
type Server struct {
	URL string // postgres://poolroids@/postgres?host=DIR

	t    testing.TB
	bin  string // the directory of initdb and pg_ctl
	dir  string // the socket's directory; the data is in dir/data
	asPG bool   // run the programs as the postgres user
}

// Start starts a server for t, stopped and removed when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := ""
	if found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb"); len(found) > 0 {
		bin = filepath.Dir(found[len(found)-1])
	} else if p, err := exec.LookPath("initdb"); err == nil {
		bin = filepath.Dir(p)
	}
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("PostgreSQL's initdb is not installed (apt-get install postgresql)")
		}
		t.Skip("PostgreSQL's initdb is not installed (apt-get install postgresql): skipping")
	}
	// Not t.TempDir: its parent is closed to other users, postgres among them.
	dir, err := os.MkdirTemp("", "poolroids-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := &Server{t: t, bin: bin, dir: dir, asPG: os.Geteuid() == 0}
	if s.asPG {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root, PostgreSQL needs the postgres user: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	s.run("initdb", "-D", s.data(), "-U", "poolroids", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C")
	s.Start()
	t.Cleanup(func() { s.run("pg_ctl", "-D", s.data(), "-m", "immediate", "-w", "stop") })
	s.URL = "postgres://poolroids@/postgres?host=" + dir
	return s
}

func (s *Server) data() string { return filepath.Join(s.dir, "data") }

// run runs one of PostgreSQL's programs, as the postgres user under root.
func (s *Server) run(prog string, args ...string) {
	s.t.Helper()
	path := filepath.Join(s.bin, prog)
	cmd := exec.Command(path, args...)
	if s.asPG {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("%s %s: %v\n%s", prog, strings.Join(args, " "), err, out)
	}
}

// Start starts the server again after Stop. (Start, the function, starts
// it the first time.)
func (s *Server) Start() {
	s.t.Helper()
	s.run("pg_ctl", "-D", s.data(), "-l", filepath.Join(s.dir, "log"), "-w",
		"-o", fmt.Sprintf("-c listen_addresses='' -k %s -F", s.dir), "start")
}

// Stop stops the server as a service manager would: its sessions are cut.
func (s *Server) Stop() {
	s.t.Helper()
	s.run("pg_ctl", "-D", s.data(), "-m", "fast", "-w", "stop")
}
