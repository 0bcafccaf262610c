// Package outage tells an operator when something a server depends on
// over the network (the score database, the fleet's directory) stops
// answering and when it answers again: one log line as the outage starts,
// one as it ends with how long it lasted and how many attempts failed
// meanwhile, never one a failure. A server that retries every second
// through a long outage writes two lines, not thousands.
//
// A [Log] also keeps what metrics and a readiness check read: whether the
// dependency is down now, the failures ever and the last success.
package outage

import (
	"log/slog"
	"sync"
	"time"
)

// Log follows one dependency's outages. Make one with [New]; its methods
// are safe for concurrent use.
type Log struct {
	mu        sync.Mutex
	logger    *slog.Logger // nil: nothing is logged
	what      string
	meanwhile string
	down      bool
	since     time.Time // the outage's first failure
	failures  int       // in this outage
	total     uint64    // ever
	lastOK    time.Time
}

// New returns the Log of the dependency what ("score database"), whose
// outages the server rides out as meanwhile says ("saves are queued on
// disk"; "": not said). It logs nothing until [Log.SetLogger].
func New(what, meanwhile string) *Log { return &Log{what: what, meanwhile: meanwhile} }

// SetLogger sets the log the outages are written to.
func (l *Log) SetLogger(lg *slog.Logger) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.logger = lg
}

// SetMeanwhile sets what the server does while the dependency is down.
func (l *Log) SetMeanwhile(meanwhile string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.meanwhile = meanwhile
}

// Failed records a failed attempt; the first of an outage is logged, as a
// warning, with err.
func (l *Log) Failed(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total++
	l.failures++
	if l.down {
		return
	}
	l.down, l.since, l.failures = true, time.Now(), 1
	if l.logger != nil {
		attrs := []any{"err", err}
		if l.meanwhile != "" {
			attrs = append(attrs, "meanwhile", l.meanwhile)
		}
		l.logger.Warn(l.what+" unreachable", attrs...)
	}
}

// OK records a successful attempt; the first after an outage is logged
// with the outage's length, its failures and attrs.
func (l *Log) OK(attrs ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastOK = time.Now()
	if !l.down {
		return
	}
	l.down = false
	if l.logger != nil {
		l.logger.Info(l.what+" back", append([]any{"after", time.Since(l.since).Round(time.Millisecond), "failures", l.failures}, attrs...)...)
	}
}

// Down reports whether the last attempt failed.
func (l *Log) Down() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.down
}

// Failures returns how many attempts failed, ever.
func (l *Log) Failures() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

// LastOK returns when an attempt last succeeded; the zero Time if none
// has.
func (l *Log) LastOK() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastOK
}
