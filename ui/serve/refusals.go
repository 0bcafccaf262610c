package serve

import (
	"log/slog"
	"net/netip"
	"sync"
	"time"
)

// refusals keeps a flood of refusals out of the log. The first refusal of a
// kind from an address is logged at once, with the connection's details;
// the ones that follow are counted and logged once a period as one line
// per kind and address, with their count. A kind and address quiet for a
// whole period is forgotten: its next refusal is logged at once again.
// The table holds at most maxTracked of them; beyond, refusals are counted
// per kind under addr=other.
type refusals struct {
	log   *slog.Logger
	every time.Duration
	obs   Observer // told of every refusal; nil: none

	mu    sync.Mutex
	m     map[refusalKey]int // refusals not logged yet
	timer *time.Timer        // the next summary; nil when the table is empty
}

type refusalKey struct {
	reason string
	addr   netip.Prefix // the zero Prefix: other addresses
}

func newRefusals(log *slog.Logger, every time.Duration) *refusals {
	return &refusals{log: log, every: every, m: make(map[refusalKey]int)}
}

// note records one refusal of reason from addr. The first is logged on log
// with attrs.
func (r *refusals) note(log *slog.Logger, addr netip.Prefix, reason string, attrs ...any) {
	if r.obs != nil {
		r.obs.Refused(reason)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k := refusalKey{reason, addr}
	n, seen := r.m[k]
	if !seen && len(r.m) >= maxTracked {
		k.addr = netip.Prefix{}
		n, seen = r.m[k]
	}
	if r.timer == nil {
		r.timer = time.AfterFunc(r.every, r.summarise)
	}
	if seen {
		r.m[k] = n + 1
		return
	}
	r.m[k] = 0
	log.Warn("rejected", append([]any{"reason", reason}, attrs...)...)
}

// summarise logs the refusals counted in the period that ends.
func (r *refusals) summarise() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flush()
	r.timer = nil
	if len(r.m) > 0 {
		r.timer = time.AfterFunc(r.every, r.summarise)
	}
}

func (r *refusals) flush() {
	for k, n := range r.m {
		if n == 0 {
			delete(r.m, k)
			continue
		}
		addr := "other"
		if k.addr.IsValid() {
			addr = k.addr.Addr().String()
		}
		r.log.Warn("rejected", "reason", k.reason, "addr", addr, "count", n, "period", r.every)
		r.m[k] = 0
	}
}

// stop logs what is counted and stops the summaries; a refusal after it
// starts them again.
func (r *refusals) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	r.flush()
	clear(r.m)
}

// refused records a refused request or channel: logged as a refusal when
// reason is set, and taken from the connection's allowance of
// Config.MaxRefused a minute, whose end closes the connection.
func (c *conn) refused(reason string, attrs ...any) {
	if reason != "" {
		c.srv.refusals.note(c.log, c.seat.k, reason, attrs...)
	}
	max := c.srv.cfg.MaxRefused
	if max < 0 {
		return
	}
	c.mu.Lock()
	ok := c.allowance.take(time.Now(), float64(max)/60, float64(max))
	c.mu.Unlock()
	if !ok {
		c.cancel(endRefused)
	}
}
