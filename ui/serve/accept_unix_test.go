//go:build unix

package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// fdChild is set in the environment of the process that TestOutOfFiles
// runs as a server with few file descriptors.
const fdChild = "POOLROIDS_TEST_FD_CHILD"

// childFiles is the child's RLIMIT_NOFILE: room for the runtime, the
// listener and a few connections.
const childFiles = 64

// TestOutOfFiles: a server out of file descriptors backs off and keeps
// accepting once some are free again. A flood of idle connections used to
// make Accept fail with EMFILE, and Serve return the error: `poolroids
// serve` then exited. The server runs in a child process whose limit is
// childFiles; the flood holds twice as many connections open, the server
// must still be serving when it ends, and a real login then plays.
func TestOutOfFiles(t *testing.T) {
	if os.Getenv(fdChild) != "" {
		t.Skip("the child's own run")
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOutOfFilesChild$")
	dir := t.TempDir()
	cmd.Env = append(os.Environ(), fdChild+"="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr logBuf
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The child's stdout: where it listens, or why it failed.
	var said logBuf
	listening := make(chan string, 1)
	exited := make(chan struct{})
	var werr error
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			fmt.Fprintln(&said, sc.Text())
			if a, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
				listening <- a
			}
		}
		werr = cmd.Wait()
		close(exited)
	}()
	died := func(when string) {
		t.Helper()
		t.Fatalf("the server exited %s (%v):\n%s%s", when, werr, said.String(), stderr.String())
	}
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	var addr string
	select {
	case addr = <-listening:
	case <-exited:
		died("at start")
	}

	var flood []net.Conn
	for range 2 * childFiles {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			select {
			case <-exited:
				died("during the flood")
			case <-time.After(time.Second):
			}
			t.Fatalf("flood: %v", err)
		}
		flood = append(flood, c)
	}
	// The flood holds more connections than the child has descriptors:
	// it is out of them until LoginTimeout cuts the ones it took.
	select {
	case <-exited:
		died("during the flood")
	case <-time.After(3 * time.Second):
	}
	if !strings.Contains(stderr.String(), "too many open files") {
		t.Errorf("the child never ran out of descriptors; its log:\n%s", stderr.String())
	}
	for _, c := range flood {
		c.Close()
	}
	hk, err := LoadOrCreateHostKey(filepath.Join(dir, "host_key"))
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{addr: addr, hostKey: hk.PublicKey()}
	var c *ssh.Client
	if !waitUntil(t, func() bool {
		c, err = ts.dial(t, "after", nil)
		return err == nil
	}) {
		t.Fatalf("no login after the flood (%v); the child's log:\n%s", err, stderr.String())
	}
	defer c.Close()
	p := play(t, c, ptyOpts{w: 80, h: 24})
	p.waitScreen(t, "player after")
	p.keys(t, "q")
	if st := p.exit(t); st != 0 {
		t.Errorf("the game after the flood ended with %d", st)
	}
	if closed(exited) {
		died("after the flood")
	}
}

// TestOutOfFilesChild is TestOutOfFiles's server: it lowers its own
// RLIMIT_NOFILE, serves on loopback, says where on stdout, and shuts down
// when its stdin closes. It fails when Serve returns before that.
func TestOutOfFilesChild(t *testing.T) {
	dir := os.Getenv(fdChild)
	if dir == "" {
		t.Skip("run by TestOutOfFiles")
	}
	lim := syscall.Rlimit{Cur: childFiles, Max: childFiles}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{
		HostKeyPath:           filepath.Join(dir, "host_key"),
		Play:                  testPlay,
		MaxStartups:           Startups{1000, 100, 1000},
		MaxStartupsPerAddress: 1000,
		ConnPerMinute:         -1,
		LoginTimeout:          2 * time.Second,
		Logger:                slog.New(slog.NewTextHandler(os.Stderr, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Println("listening", ln.Addr())
	stdin := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stdin)
	}()
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v", err)
	case <-stdin:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	if err := <-served; !errors.Is(err, ErrServerClosed) {
		t.Fatalf("Serve returned %v", err)
	}
}
