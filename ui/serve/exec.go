package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"poolroids/game/daily"
)

// Two commands need no terminal: post, whose input is a daily game's
// replay to prove and rank (ssh host post < game.prpl), and scores, which
// prints a board. The server takes each as a session that is no game (it
// counts against MaxSessions and MaxSessionsPerAddress, never
// MaxPerAddress), hands it to [Config.Exec], writes the answer and ends
// it: exit status 0, or 1 with the reason of a refusal.
//
// A post is bounded before Exec sees it: at most PostBurst posts from a
// key, then PostsPerHour an hour, and twice both from an address (its
// keys' and keyless ones together); at most daily.MaxBytes of input (one
// byte more and it is refused, the rest unread), which must end within
// postTime. Each refusal names its limit, and when to try again.

// ExecFunc answers a command that needs no terminal ([Verb].Terminal is
// false) for the session s: in is the input of a post, nil for scores.
// It returns the answer, lines of text; a *[RefusedError] is told
// instead, with exit status 1, and any other error is logged and the
// client told of an internal error. ctx ends when the connection does.
// The session's SetPlaying and SetWatching do nothing; a panic ends this
// session only.
type ExecFunc func(ctx context.Context, s Session, in []byte) (answer string, err error)

const (
	// postTime bounds a post's upload: a daily replay is some KiB, and
	// daily.MaxBytes takes 30 s at 140 KB/s.
	postTime = 30 * time.Second
	// The posts a key may make: a burst, then so many an hour.
	defaultPostBurst    = 4
	defaultPostsPerHour = 12
)

// Refusals of a post, the log's reasons.
const (
	reasonPostKey  = "post rate per key"
	reasonPostAddr = "post rate per address"
	reasonPostSize = "post too large"
	reasonPostSlow = "post too slow"
)

// postLimits are the rate limits of posts.
type postLimits struct {
	perHour, burst int
	keys           *limiter[string]
	addrs          *limiter[netip.Prefix]
}

func newPostLimits(perHour, burst int) *postLimits {
	rate := float64(perHour) / 3600
	return &postLimits{
		perHour: perHour, burst: burst,
		keys:  newLimiter[string](rate, burst, maxTracked),
		addrs: newLimiter[netip.Prefix](2*rate, 2*burst, maxTracked),
	}
}

// allow takes a post from the address k with the key fp ("": none) at
// now, or tells why not: a refused post counts against the address.
func (p *postLimits) allow(k netip.Prefix, fp string, now time.Time) *ending {
	if ok, wait := p.addrs.take(k, now); !ok {
		return &ending{reason: reasonPostAddr, message: fmt.Sprintf("too many posts from your address (%d at once, then %d an hour): try again in %v",
			2*p.burst, 2*p.perHour, roundUp(wait))}
	}
	if fp == "" {
		return nil
	}
	if ok, wait := p.keys.take(fp, now); !ok {
		return &ending{reason: reasonPostKey, message: fmt.Sprintf("too many posts from your key (%d at once, then %d an hour): try again in %v",
			p.burst, p.perHour, roundUp(wait))}
	}
	return nil
}

// roundUp rounds a wait up to the second.
func roundUp(d time.Duration) time.Duration { return (d + time.Second - 1).Truncate(time.Second) }

// endNoExec refuses post and scores on a server that answers neither, and
// on a relay's connection, which plays only.
var endNoExec = &ending{reason: "exec refused", message: "this server answers no post or scores: connect with a terminal, e.g. ssh -t"}

// exec runs the command cmd, which needs no terminal, on the session's
// channel; tty says the client asked for one, and takes CR LF line ends.
func (c *conn) exec(ch ssh.Channel, cmd Command, tty bool) {
	defer c.wg.Done()
	nl := "\n"
	if tty {
		nl = "\r\n"
	}
	refuse := func(e *ending) {
		c.srv.refusals.note(c.log, c.seat.k, e.reason)
		_, _ = io.WriteString(ch.Stderr(), "poolroids: "+e.message+nl)
		c.finish(ch, ch.Stderr(), &ending{reason: e.reason}, 1)
	}
	if c.srv.cfg.Exec == nil || c.hop {
		refuse(endNoExec)
		return
	}
	if e := c.seat.play(); e != nil {
		refuse(e)
		return
	}
	defer c.seat.leave()
	sess := Session{
		Name:        CleanName(c.sc.User()),
		Fingerprint: c.sc.Permissions.Extensions[permFingerprint],
		RemoteAddr:  c.sc.RemoteAddr(),
		Command:     cmd,
		spawn:       c.spawn,
	}
	var in []byte
	if cmd.Verb == VerbPost {
		if p := c.srv.posts; p != nil {
			if e := p.allow(c.seat.k, sess.Fingerprint, time.Now()); e != nil {
				refuse(e)
				return
			}
		}
		var e *ending
		if in, e = c.upload(ch); e != nil {
			refuse(e)
			return
		}
	}
	answer, err := c.runExec(sess, in)
	if r, ok := errors.AsType[*RefusedError](err); ok {
		refuse(&ending{reason: cmd.Verb.String() + " refused", message: r.Message})
		return
	}
	if err != nil {
		e, _ := context.Cause(c.ctx).(*ending) // the connection ends: why
		switch {
		case errors.Is(err, ErrPanic):
			c.log.Error("panic", "err", err)
			e = endPanic
		case e == nil:
			c.log.Error(cmd.Verb.String()+" failed", "err", err)
			e = endError
		}
		if e.message != "" {
			_, _ = io.WriteString(ch.Stderr(), "poolroids: "+e.message+nl)
		}
		c.finish(ch, ch, &ending{reason: e.reason}, 1)
		return
	}
	if answer != "" && !strings.HasSuffix(answer, "\n") {
		answer += "\n"
	}
	_, _ = io.WriteString(ch, strings.ReplaceAll(answer, "\n", nl))
	c.finish(ch, ch, &ending{reason: cmd.Verb.String()}, 0)
}

// upload reads a post's input: at most daily.MaxBytes, within postTime.
func (c *conn) upload(ch ssh.Channel) ([]byte, *ending) {
	type read struct {
		data []byte
		err  error
	}
	got := make(chan read, 1)
	c.wg.Add(1)
	go func() { // ends when the channel closes, if not before
		defer c.wg.Done()
		data, err := io.ReadAll(io.LimitReader(ch, daily.MaxBytes+1))
		got <- read{data, err}
	}()
	t := time.NewTimer(postTime)
	defer t.Stop()
	select {
	case r := <-got:
		switch {
		case len(r.data) > daily.MaxBytes:
			return nil, &ending{reason: reasonPostSize, message: fmt.Sprintf("refused, %s: over %d bytes, the most a daily replay may take", daily.TooLarge, daily.MaxBytes)}
		case r.err != nil:
			return nil, &ending{reason: "disconnect", message: "the upload failed: " + r.err.Error()}
		}
		return r.data, nil
	case <-t.C:
		return nil, &ending{reason: reasonPostSlow, message: fmt.Sprintf("the upload took over %v: send the file as input, ending it (ssh host post < game.prpl)", postTime)}
	case <-c.ctx.Done():
		e, _ := context.Cause(c.ctx).(*ending)
		if e == nil {
			e = endDisconnect
		}
		return nil, e
	}
}

// runExec calls Exec, turning a panic into an error wrapping ErrPanic.
func (c *conn) runExec(s Session, in []byte) (answer string, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w: %v\n%s", ErrPanic, v, debug.Stack())
		}
	}()
	return c.srv.cfg.Exec(c.ctx, s, in)
}
