package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/crypto/ssh"

	"poolroids/game/daily"
)

// execRun runs cmd on c with in as its input (nil: none, the input left
// open) and returns its exit status, standard output and error.
func execRun(t testing.TB, c *ssh.Client, cmd string, in []byte) (status int, stdout, stderr string) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out, errs logBuf
	sess.Stdout, sess.Stderr = &out, &errs
	if in != nil {
		sess.Stdin = bytes.NewReader(in)
	}
	err = sess.Run(cmd)
	var ee *ssh.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errs.String()
	case !errors.As(err, &ee):
		t.Fatalf("%s: want an exit status, got %v", cmd, err)
	}
	return ee.ExitStatus(), out.String(), errs.String()
}

// execCall is what an ExecFunc was called with.
type execCall struct {
	s  Session
	in []byte
}

// recorder is an ExecFunc that answers as answer says and keeps its
// calls.
type recorder struct {
	mu     sync.Mutex
	calls  []execCall
	answer func(s Session, in []byte) (string, error)
}

func (r *recorder) exec(_ context.Context, s Session, in []byte) (string, error) {
	r.mu.Lock()
	r.calls = append(r.calls, execCall{s, in})
	r.mu.Unlock()
	if r.answer == nil {
		return "ok " + s.Command.Verb.String(), nil
	}
	return r.answer(s, in)
}

func (r *recorder) called() []execCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]execCall(nil), r.calls...)
}

// TestExec: post and scores need no terminal: the server hands the
// command, the session and a post's input to Exec, and sends its answer
// (status 0), its refusal (status 1, on stderr) or, for a panic, an
// internal error; the server lives on. Without Exec they are refused.
func TestExec(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	ts := startServer(t, Config{Exec: r.exec})
	key := newKey(t)
	st, out, _ := execRun(t, ts.mustDial(t, "ann", key), "scores daily 2025-06-14", nil)
	if st != 0 || out != "ok scores\n" {
		t.Errorf("scores: %d %q", st, out)
	}
	st, out, _ = execRun(t, ts.mustDial(t, "ann", key), "POST", []byte("the replay"))
	if st != 0 || out != "ok post\n" {
		t.Errorf("post: %d %q", st, out)
	}
	calls := r.called()
	if len(calls) != 2 {
		t.Fatalf("%d calls", len(calls))
	}
	day, _ := daily.ParseDay("2025-06-14")
	if c := calls[0]; c.s.Command != (Command{Verb: VerbScores, Name: "daily", Day: day}) || c.in != nil {
		t.Errorf("scores called with %+v, %q", c.s.Command, c.in)
	}
	if c := calls[1]; c.s.Command.Verb != VerbPost || string(c.in) != "the replay" || c.s.Name != "ann" ||
		c.s.Fingerprint != ssh.FingerprintSHA256(key.PublicKey()) || c.s.Address() != "127.0.0.1/32" {
		t.Errorf("post called with %+v, %q", c.s, c.in)
	}

	r.answer = func(s Session, in []byte) (string, error) {
		switch string(in) {
		case "bad":
			return "", &RefusedError{Message: "refused, altered: no"}
		case "boom":
			panic("boom")
		}
		return "two\nlines", nil
	}
	st, out, errs := execRun(t, ts.mustDial(t, "bob", nil), "post", []byte("bad"))
	if st != 1 || out != "" || errs != "poolroids: refused, altered: no\n" {
		t.Errorf("a refusal: %d %q %q", st, out, errs)
	}
	st, out, errs = execRun(t, ts.mustDial(t, "bob", nil), "post", []byte("boom"))
	if st != 1 || out != "" || !strings.Contains(errs, "internal error") {
		t.Errorf("a panic: %d %q %q", st, out, errs)
	}
	waitLog(t, ts, "msg=panic", "boom")
	if st, out, _ := execRun(t, ts.mustDial(t, "bob", nil), "post", []byte("fine")); st != 0 || out != "two\nlines\n" {
		t.Errorf("after a panic: %d %q", st, out)
	}
	for _, line := range []string{"post now", "scores best", "scores week 2025-06-14", "scores daily yesterday"} {
		if st, _, errs := execRun(t, ts.mustDial(t, "bob", nil), line, []byte{}); st != 1 || !strings.Contains(errs, "runs no commands but these") {
			t.Errorf("%q: %d %q", line, st, errs)
		}
	}

	none := startServer(t, Config{})
	if st, _, errs := execRun(t, none.mustDial(t, "bob", nil), "post", []byte("x")); st != 1 || !strings.Contains(errs, "answers no post or scores") {
		t.Errorf("a server without Exec: %d %q", st, errs)
	}
}

// TestPostBounds: a post over daily.MaxBytes is refused, the rest of it
// unread, and Exec never sees it; one of daily.MaxBytes is taken. A post
// is a session, no game: it needs a session's room from its address, not
// a game's.
func TestPostBounds(t *testing.T) {
	t.Parallel()
	r := &recorder{}
	ts := startServer(t, Config{Exec: r.exec, MaxPerAddress: 1, MaxSessionsPerAddress: 2, PostsPerHour: -1})
	st, _, errs := execRun(t, ts.mustDial(t, "ann", nil), "post", make([]byte, 3*daily.MaxBytes))
	if st != 1 || !strings.Contains(errs, "refused, too-large: over 4194304 bytes") {
		t.Errorf("a post of 3 × MaxBytes: %d %q", st, errs)
	}
	if n := len(r.called()); n != 0 {
		t.Errorf("Exec saw the post too large (%d calls)", n)
	}
	if st, _, errs := execRun(t, ts.mustDial(t, "ann", nil), "post", make([]byte, daily.MaxBytes)); st != 0 || len(r.called()) != 1 || len(r.called()[0].in) != daily.MaxBytes {
		t.Errorf("a post of MaxBytes: %d %q", st, errs)
	}

	p := play(t, ts.mustDial(t, "ann", nil), ptyOpts{w: 80, h: 24}) // a game: the address's one
	p.waitScreen(t, "frame")
	if st, _, errs := execRun(t, ts.mustDial(t, "ann", nil), "post", []byte("x")); st != 0 {
		t.Errorf("a post beside a game, the address's last: %d %q; want it taken, no game", st, errs)
	}
	// A post under way is the address's second session.
	sess, err := ts.mustDial(t, "ann", nil).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := sess.Start("post"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return ts.Sessions() == 2 })
	if st, _, errs := execRun(t, ts.mustDial(t, "ann", nil), "post", []byte("x")); st != 1 || !strings.Contains(errs, "too many sessions from your address (2 at once)") {
		t.Errorf("a post with the address's sessions all taken: %d %q", st, errs)
	}
}

// TestPostRate: a key may post PostBurst times, then PostsPerHour an
// hour; an address twice as many, its keys' posts and keyless ones
// together. Each refusal names its limit and when to come back.
func TestPostRate(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		ts := startPipeServer(t, Config{Exec: r.exec, PostsPerHour: 6, PostBurst: 2})
		ann, bob := newKey(t), newKey(t)
		post := func(key ssh.Signer) (int, string) {
			st, _, errs := execRun(t, ts.mustDial(t, "p", key), "post", []byte("x"))
			return st, errs
		}
		for i := range 2 {
			if st, errs := post(ann); st != 0 {
				t.Fatalf("ann's post %d: %d %q", i+1, st, errs)
			}
		}
		if st, errs := post(ann); st != 1 || errs != "poolroids: too many posts from your key (2 at once, then 6 an hour): try again in 10m0s\n" {
			t.Errorf("ann's third post: %d %q", st, errs)
		}
		if st, errs := post(bob); st != 0 {
			t.Errorf("bob's first post: %d %q", st, errs)
		}
		// ann's refused post counted against the address: 4 of its 4.
		if st, errs := post(nil); st != 1 || !strings.Contains(errs, "too many posts from your address (4 at once, then 12 an hour): try again in 5m0s") {
			t.Errorf("a keyless post, the address's fifth: %d %q", st, errs)
		}
		time.Sleep(10 * time.Minute)
		if st, errs := post(ann); st != 0 {
			t.Errorf("ann's post 10 minutes later: %d %q", st, errs)
		}
		waitLog(t, ts, "msg=rejected", `reason="post rate per key"`)
		waitLog(t, ts, "msg=rejected", `reason="post rate per address"`)
		if n := len(r.called()); n != 4 {
			t.Errorf("Exec saw %d posts, want the 4 taken", n)
		}
	})
}

// TestPostSlow: a post whose input does not end within postTime is
// refused, and Exec never sees it.
func TestPostSlow(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		ts := startPipeServer(t, Config{Exec: r.exec, Idle: time.Hour})
		sess, err := ts.mustDial(t, "ann", nil).NewSession()
		if err != nil {
			t.Fatal(err)
		}
		in, err := sess.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var errs logBuf
		sess.Stderr = &errs
		if err := sess.Start("post"); err != nil {
			t.Fatal(err)
		}
		_, _ = io.WriteString(in, "PRPL") // and nothing more, never the end
		start := time.Now()
		err = sess.Wait()
		if ee, ok := errors.AsType[*ssh.ExitError](err); !ok || ee.ExitStatus() != 1 || !strings.Contains(errs.String(), "the upload took over 30s") {
			t.Errorf("a post never ended: %v %q", err, errs.String())
		}
		if d := time.Since(start); d != postTime {
			t.Errorf("refused after %v, want %v", d, postTime)
		}
		if n := len(r.called()); n != 0 {
			t.Errorf("Exec saw the post (%d calls)", n)
		}
	})
}
