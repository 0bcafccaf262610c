package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"poolroids/ui/serve"
)

// A relay is bounded in time from end to end. dialWait bounds its start:
// the connection to the member, the handshake and the session's requests,
// until the member runs the command. Then the member must answer a
// keepalive sent every keepEvery: a member that has answered none for
// deadAfter (stopped, or cut off by its network) is gone.
const (
	dialWait  = 5 * time.Second
	keepEvery = 2 * time.Second
	deadAfter = 6 * time.Second
)

// ErrUnreachable is wrapped by Relay's error when the member could not be
// reached or refused the session before it started.
var ErrUnreachable = errors.New("fleet: member unreachable")

// Result is how a relayed session ended.
type Result struct {
	Status  int    // its exit status
	Message string // what the member told the player last ("poolroids: …"), if anything
}

// Relay relays t, the terminal of player p, to the member at hop, which
// runs cmd there (a join, new or watch command line, or "" for its lobby),
// until that session ends or ctx is done, and returns how it ended. key
// is the fleet's: the member must prove it holds it too. t.In must return
// io.EOF once Relay has returned, as a [serve.Session]'s does.
func Relay(ctx context.Context, hop string, key ssh.Signer, p serve.HopPlayer, cmd string, t serve.Terminal) (Result, error) {
	unreachable := func(err error) (Result, error) {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		return Result{}, fmt.Errorf("%w: %s: %w", ErrUnreachable, hop, err)
	}
	nc, err := (&net.Dialer{Timeout: dialWait}).DialContext(ctx, "tcp", hop)
	if err != nil {
		return unreachable(err)
	}
	defer nc.Close()
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	defer stop()
	_ = nc.SetDeadline(time.Now().Add(dialWait))
	c, chans, reqs, err := ssh.NewClientConn(nc, hop, &ssh.ClientConfig{
		User:            p.User,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(key.PublicKey()),
	})
	if err != nil {
		return unreachable(err)
	}
	client := ssh.NewClient(c, chans, reqs)
	defer client.Close()

	sess, err := client.NewSession()
	if err != nil {
		return unreachable(err)
	}
	defer sess.Close()
	if ok, err := sess.SendRequest(serve.HopRequest, true, ssh.Marshal(p)); err != nil || !ok {
		return unreachable(fmt.Errorf("the player was refused (%v)", err))
	}
	for _, kv := range t.Env {
		k, v, _ := strings.Cut(kv, "=")
		_ = sess.Setenv(k, v)
	}
	cols, rows := t.Size()
	if err := sess.RequestPty(t.Term, rows, cols, nil); err != nil {
		return unreachable(err)
	}
	// One writer for both streams: the member's messages come on stderr.
	out := &output{w: t.Out}
	sess.Stdout, sess.Stderr = out, out
	in, err := sess.StdinPipe()
	if err != nil {
		return unreachable(err)
	}
	if cmd == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(cmd)
	}
	if err != nil {
		return unreachable(err)
	}
	_ = nc.SetDeadline(time.Time{})
	// The input's copier ends when t.In does, once the relay is over:
	// waiting for it here would wait for the player's next key.
	go func() {
		_, _ = io.Copy(in, t.In)
		_ = in.Close()
	}()
	ended := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(ended)
	var dead atomic.Bool
	wg.Go(func() {
		if keepAlive(client, ended) {
			dead.Store(true)
			nc.Close()
		}
	})
	wg.Go(func() {
		for {
			select {
			case <-ended:
				return
			case <-t.Resized:
				cols, rows := t.Size()
				_ = sess.WindowChange(rows, cols)
			}
		}
	})
	err = sess.Wait()
	res := Result{Message: out.message()}
	if ee, ok := errors.AsType[*ssh.ExitError](err); ok {
		res.Status = ee.ExitStatus()
		return res, nil
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return res, ctx.Err()
	case dead.Load():
		return res, fmt.Errorf("fleet: %s: no answer for %v", hop, deadAfter)
	}
	return res, err
}

// keepAlive sends client's member a keepalive every keepEvery, one at a
// time, until ended is closed; it returns true, at once, when the member
// has answered none for deadAfter. Any answer will do: a member refuses
// keepalives, as it refuses every global request.
func keepAlive(client *ssh.Client, ended <-chan struct{}) (dead bool) {
	t := time.NewTicker(keepEvery)
	defer t.Stop()
	answered := make(chan struct{}, 1)
	waiting, last := false, time.Now()
	for {
		select {
		case <-ended:
			return false
		case <-answered:
			waiting, last = false, time.Now()
		case now := <-t.C:
			if now.Sub(last) >= deadAfter {
				return true
			}
			if !waiting {
				waiting = true
				go func() {
					// Returns once answered, or once the connection is closed.
					if _, _, err := client.SendRequest("keepalive@openssh.com", true, nil); err == nil {
						answered <- struct{}{}
					}
				}()
			}
		}
	}
}

// output is the relayed session's output: stdout's and stderr's copiers
// write to the player's terminal in turn, and the last bytes are kept for
// the member's last words.
type output struct {
	mu   sync.Mutex
	w    io.Writer
	tail []byte // the last tailSize bytes written
}

const tailSize = 256

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.tail = append(o.tail, p[max(0, len(p)-tailSize):]...)
	o.tail = o.tail[max(0, len(o.tail)-tailSize):]
	return o.w.Write(p)
}

// message returns the message a server ends a session with, when the
// output ends with one: "poolroids: …" and CR LF.
func (o *output) message() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	rest, ok := bytes.CutSuffix(o.tail, []byte("\r\n"))
	if !ok {
		return ""
	}
	i := bytes.LastIndex(rest, []byte("poolroids: "))
	if i < 0 || bytes.ContainsAny(rest[i:], "\r\n\x1b") {
		return ""
	}
	return string(rest[i+len("poolroids: "):])
}
