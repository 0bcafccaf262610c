package stress

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"poolroids/pool"
)

// confidence is how sure the noise interval of a median is to hold the
// median the strategy would show over endless runs (see noise).
const confidence = 0.85

// searchProbes is the slots examined per acquire (Stats.Probes over
// Stats.Acquires, acquire and release searches together) from which a
// strategy counts as searching.
const searchProbes = 4

// noise returns the interval around the median of runs that holds the
// true median with at least [confidence]: the sign test's, which assumes
// nothing of how the runs scatter. It drops the d lowest and d highest
// runs, d as large as the confidence allows: 1 of 7, 2 of 10; below
// seven runs it is their whole range (which holds the median with 75%
// confidence for three runs, 97% for six).
func noise(runs []float64) (lo, hi float64) {
	v := slices.Clone(runs)
	slices.Sort(v)
	d := drop(len(v))
	return v[d], v[len(v)-1-d]
}

// drop returns how many runs noise drops at each end of n sorted runs:
// the interval from the (d+1)-th to the (n−d)-th holds the median with
// probability 1 − 2·P(B ≤ d), B the count of n fair coin flips that land
// heads.
func drop(n int) int {
	d := 0
	for 2*(d+1) < n && 1-2*binomialCDF(n, d+1) >= confidence {
		d++
	}
	return d
}

// binomialCDF returns P(B ≤ k) for B the heads of n fair coin flips.
func binomialCDF(n, k int) float64 {
	term, sum := 1.0, 0.0 // term is C(n, i)
	for i := 0; i <= k; i++ {
		sum += term
		term = term * float64(n-i) / float64(i+1)
	}
	for range n {
		sum /= 2
	}
	return sum
}

// rank orders the runs by pool time per step, marks as tied the
// strategies within noise of the fastest of their group, orders each
// group by what does not depend on the clock, sets the ratios and writes
// the verdict.
//
// A group starts with the fastest strategy not yet placed; every slower
// one whose noise interval reaches into that strategy's joins it. Within a
// group the order is: no items from the heap first, then fewer slots
// probed per acquire, then less bookkeeping, then pool.Strategies' order:
// the same in every session that forms the same groups.
func (r *Report) rank() {
	order := func(s pool.Strategy) int { return slices.Index(pool.Strategies(), s) }
	slices.SortStableFunc(r.Runs, func(a, b Result) int {
		return cmp.Or(cmp.Compare(a.PoolNs, b.PoolNs), cmp.Compare(order(a.Strategy), order(b.Strategy)))
	})
	start := 0
	for i := 1; i <= len(r.Runs); i++ {
		if i < len(r.Runs) && r.Runs[i].PoolNsLow <= r.Runs[start].PoolNsHigh {
			continue
		}
		group := r.Runs[start:i]
		slices.SortStableFunc(group, func(a, b Result) int {
			return cmp.Or(
				cmp.Compare(min(a.HeapItems, 1), min(b.HeapItems, 1)),
				cmp.Compare(a.ProbesPerAcquire, b.ProbesPerAcquire),
				cmp.Compare(a.Overhead, b.Overhead),
				cmp.Compare(order(a.Strategy), order(b.Strategy)))
		})
		for k := range group {
			group[k].Rank = start + 1
		}
		start = i
	}
	bestPool, bestStep := r.Runs[0].PoolNs, r.Runs[0].StepNsMedian
	for _, x := range r.Runs {
		bestPool, bestStep = min(bestPool, x.PoolNs), min(bestStep, x.StepNsMedian)
	}
	for i := range r.Runs {
		x := &r.Runs[i]
		x.PoolRatio, x.Ratio = 1, 1
		if bestPool > 0 {
			x.PoolRatio = x.PoolNs / bestPool
		}
		if bestStep > 0 {
			x.Ratio = x.StepNsMedian / bestStep
		}
	}
	r.verdict()
}

// verdict fills in TieRule, Use, WithinNoise, Avoid and Verdict from the
// ranked runs. Its text holds no timing, only names and the game's own
// counts, so that two sessions that form the same groups say the same.
// A strategy is to avoid when it searches or allocates and takes, beyond
// the noise, twice the pool time of the one to use or more.
func (r *Report) verdict() {
	d := drop(r.Repeat)
	switch {
	case r.Repeat < 2:
		r.TieRule = "one run per strategy measures no noise: only equal pool times tie (--repeat 7 decides ties)"
	default:
		r.TieRule = fmt.Sprintf("strategies tie when their pool times per step overlap within the middle %d of their %d runs, "+
			"an interval that holds the median with %.1f%% confidence (sign test)", r.Repeat-2*d, r.Repeat, 100*(1-2*binomialCDF(r.Repeat, d)))
	}
	r.Use, r.WithinNoise, r.Avoid = r.Runs[0].Strategy, nil, nil
	var reasons, others []string
	for _, x := range r.Runs[1:] {
		if x.Rank == 1 {
			r.WithinNoise = append(r.WithinNoise, x.Strategy)
		}
	}
	// Those below the leaders, in pool.Strategies' order: a slower group's
	// order could move with the noise, this one cannot.
	for _, s := range pool.Strategies() {
		i := slices.IndexFunc(r.Runs, func(x Result) bool { return x.Strategy == s })
		if i < 0 || r.Runs[i].Rank == 1 {
			continue
		}
		if why := avoidReason(&r.Runs[i]); why != "" && r.Runs[i].PoolNsLow >= 2*r.Runs[0].PoolNsHigh {
			r.Avoid = append(r.Avoid, s)
			reasons = append(reasons, fmt.Sprintf("%s (%s)", s, why))
		} else {
			others = append(others, string(s))
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "For this workload (level set %q, bullets %d and debris %d, %.0f%% and %.0f%% full on average): ",
		r.LevelSet, r.BulletCap, r.DebrisCap, r.BulletOccupancy, r.DebrisOccupancy)
	switch {
	case !r.ChecksumsEqual:
		b.Reset()
		b.WriteString("No verdict: the runs did not play the same game, so their figures cannot be compared.")
		r.Verdict = b.String()
		return
	case len(r.Runs) == 1:
		fmt.Fprintf(&b, "only %s ran, so there is nothing to compare it with.", r.Use)
		r.Verdict = b.String()
		return
	}
	fmt.Fprintf(&b, "use %s", r.Use)
	if len(r.WithinNoise) > 0 {
		fmt.Fprintf(&b, "; %s %s within noise of it", list(names(r.WithinNoise)), plural(len(r.WithinNoise), "is", "are"))
	}
	b.WriteString(".")
	if len(reasons) > 0 {
		fmt.Fprintf(&b, " Avoid, at twice its pool time or more, %s.", list(reasons))
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, " The rest cost more: %s.", list(others))
	}
	if r.Repeat == 1 {
		b.WriteString(" One run per strategy tells nothing of the noise: run with --repeat 5 or more before you choose.")
	}
	r.Verdict = b.String()
}

// avoidReason says why a strategy ranked below the leaders should be
// avoided, or "" when it only costs more: it searches its slots, or takes
// every other item or more from the heap. These are the game's own counts
// (pool.Stats), the same in every session.
func avoidReason(x *Result) string {
	switch {
	case x.ProbesPerAcquire >= searchProbes:
		return fmt.Sprintf("its searches examine %s slots per acquire", num(x.ProbesPerAcquire))
	case x.Acquires > 0 && 2*x.HeapItems >= x.Acquires:
		return "it allocates the items it hands out"
	}
	return ""
}

func names(s []pool.Strategy) []string {
	v := make([]string, len(s))
	for i := range s {
		v[i] = string(s[i])
	}
	return v
}

// list joins words as in "a, b and c".
func list(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
