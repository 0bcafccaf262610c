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
	l, err := open(ctx, hop, key, p)
	if err != nil {
		return Result{}, err
	}
	defer l.close()
	sess := l.sess
	for _, kv := range t.Env {
		k, v, _ := strings.Cut(kv, "=")
		_ = sess.Setenv(k, v)
	}
	cols, rows := t.Size()
	if err := sess.RequestPty(t.Term, rows, cols, nil); err != nil {
		return l.unreachable(err)
	}
	// One writer for both streams: the member's messages come on stderr.
	out := &output{w: t.Out}
	sess.Stdout, sess.Stderr = out, out
	in, err := sess.StdinPipe()
	if err != nil {
		return l.unreachable(err)
	}
	if cmd == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(cmd)
	}
	if err != nil {
		return l.unreachable(err)
	}
	_ = l.nc.SetDeadline(time.Time{})
	// The input's copier ends when t.In does, once the relay is over:
	// waiting for it here would wait for the player's next key.
	go func() {
		_, _ = io.Copy(in, t.In)
		_ = in.Close()
	}()
	err = l.watch(func(ended <-chan struct{}) error {
		go func() {
			for {
				select {
				case <-ended:
					return
				case <-t.Resized:
					cols, rows := t.Size()
					_ = sess.WindowChange(rows, cols)
				}
			}
		}()
		return sess.Wait()
	})
	res := Result{Message: out.message()}
	if ee, ok := errors.AsType[*ssh.ExitError](err); ok {
		res.Status = ee.ExitStatus()
		return res, nil
	}
	return res, err
}

// A Page is a browser's page as a relay lends it: Relay plays it on the
// session whose messages come and go on rw until that session ends, and
// returns the reason it ended with (serve.Session.RelayWeb).
type Page func(rw io.ReadWriteCloser) (bye string, err error)

// RelayWeb relays page, the page of player p, to the member at hop, which
// plays it there as if it were its own (see [serve.WebRequest]), until
// that session ends or ctx is done, and returns how it ended: its Message
// is the reason the member gave, if any. The bounds of [Relay] apply.
func RelayWeb(ctx context.Context, hop string, key ssh.Signer, p serve.HopPlayer, page Page) (Result, error) {
	l, err := open(ctx, hop, key, p)
	if err != nil {
		return Result{}, err
	}
	defer l.close()
	in, err := l.sess.StdinPipe()
	if err != nil {
		return l.unreachable(err)
	}
	out, err := l.sess.StdoutPipe()
	if err != nil {
		return l.unreachable(err)
	}
	errs, err := l.sess.StderrPipe()
	if err != nil {
		return l.unreachable(err)
	}
	if ok, err := l.sess.SendRequest(serve.WebRequest, true, nil); err != nil || !ok {
		return l.unreachable(fmt.Errorf("no web session (%v)", err))
	}
	_ = l.nc.SetDeadline(time.Time{})
	refused := &output{w: io.Discard} // the member's refusal, if it refuses the player
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(refused, errs)
	}()
	var res Result
	err = l.watch(func(<-chan struct{}) error {
		var err error
		res.Message, err = page(pageStream{out, in, l.nc})
		return err
	})
	l.close() // ends the copy, once it has read what came
	<-copied
	if msg := refused.message(); err != nil && msg != "" {
		res.Status, res.Message, err = 1, msg, nil
	}
	return res, err
}

// pageStream is a relayed page's stream: the session's output and input;
// closing it closes the connection.
type pageStream struct {
	io.Reader
	io.Writer
	io.Closer
}

// link is a relay's connection to a member, its player named, with a
// session opened.
type link struct {
	ctx    context.Context
	hop    string
	nc     net.Conn
	client *ssh.Client
	sess   *ssh.Session
	stop   func() bool // stops closing nc when ctx is done
}

// open connects to the member at hop and opens a session for player p,
// within dialWait: the deadline stays on the connection until its caller
// has started what it asks for.
func open(ctx context.Context, hop string, key ssh.Signer, p serve.HopPlayer) (*link, error) {
	l := &link{ctx: ctx, hop: hop}
	nc, err := (&net.Dialer{Timeout: dialWait}).DialContext(ctx, "tcp", hop)
	if err != nil {
		_, err = l.unreachable(err)
		return nil, err
	}
	l.nc = nc
	l.stop = context.AfterFunc(ctx, func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(dialWait))
	c, chans, reqs, err := ssh.NewClientConn(nc, hop, &ssh.ClientConfig{
		User:            p.User,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(key.PublicKey()),
	})
	if err != nil {
		l.close()
		_, err = l.unreachable(err)
		return nil, err
	}
	l.client = ssh.NewClient(c, chans, reqs)
	if l.sess, err = l.client.NewSession(); err == nil {
		var ok bool
		if ok, err = l.sess.SendRequest(serve.HopRequest, true, ssh.Marshal(p)); err == nil && !ok {
			err = errors.New("the player was refused")
		}
	}
	if err != nil {
		l.close()
		_, err = l.unreachable(err)
		return nil, err
	}
	return l, nil
}

// unreachable is the error of a relay whose member could not be reached
// or refused the session before it started.
func (l *link) unreachable(err error) (Result, error) {
	if l.ctx.Err() != nil {
		return Result{}, l.ctx.Err()
	}
	return Result{}, fmt.Errorf("%w: %s: %w", ErrUnreachable, l.hop, err)
}

// watch runs wait, the relayed session, while the member answers
// keepalives (see keepAlive): one that stops answering is gone, its
// connection closed. ended is closed once wait has returned.
func (l *link) watch(wait func(ended <-chan struct{}) error) error {
	ended := make(chan struct{})
	var dead atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		if keepAlive(l.client, ended) {
			dead.Store(true)
			l.nc.Close()
		}
	})
	err := wait(ended)
	close(ended)
	wg.Wait()
	_, exited := errors.AsType[*ssh.ExitError](err)
	switch {
	case err == nil || exited:
	case l.ctx.Err() != nil:
		return l.ctx.Err()
	case dead.Load():
		return fmt.Errorf("fleet: %s: no answer for %v", l.hop, deadAfter)
	}
	return err
}

// close ends the link.
func (l *link) close() {
	if l.sess != nil {
		l.sess.Close()
	}
	if l.client != nil {
		l.client.Close()
	}
	l.stop()
	l.nc.Close()
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
