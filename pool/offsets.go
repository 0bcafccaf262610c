// Strategy offsets: seed 002's offset table.
//
// Seed 002 ("Object pooling without all the ins and outs") keeps beside the
// pool an Int8Array offset table: entry i holds i while item i is free and
// -1 while it is taken. Getting an item scans the table for an entry that is
// not -1, unrolled by four — each pass looks at cnt, cnt+len/4, cnt+len/2
// and cnt+3len/4 — and the main loop walks the table the same way, running
// the items whose entry is -1. Here the entries are int32, so the capacity
// is not capped at 127 as the seed's Int8Array was, and a capacity that is
// not a multiple of four is padded with entries that stay -1 forever.
//
// Cost: Acquire O(capacity) in the worst case — every entry examined counts
// in Stats.Probes; Release O(1) — write the offset back; iteration
// O(capacity), four entries a pass. Memory: one int32 per slot (rounded up
// to a multiple of four).
//
// Trade-off: no arrays are "slapped around" (the seed's words), so nothing
// moves and nothing allocates, but both acquire and iteration scan the
// whole table however few items are live.

package pool

type offsetSlots struct {
	table []int32 // slot number while free, -1 while taken (or padding)
	slots int     // real slots; the table may be longer
}

func (s *offsetSlots) init(gen []uint32) {
	n := len(gen)
	s.slots = n
	s.table = reuse(s.table, (n+3)&^3)
	for i := range s.table {
		s.table[i] = -1
		if i < n && free(gen[i]) {
			s.table[i] = int32(i)
		}
	}
}

func (s *offsetSlots) acquire() (int32, uint64) {
	t := s.table
	q := len(t) / 4
	for cnt := range q {
		if o := t[cnt]; o != -1 {
			t[cnt] = -1
			return o, uint64(4*cnt + 1)
		}
		if o := t[cnt+q]; o != -1 {
			t[cnt+q] = -1
			return o, uint64(4*cnt + 2)
		}
		if o := t[cnt+2*q]; o != -1 {
			t[cnt+2*q] = -1
			return o, uint64(4*cnt + 3)
		}
		if o := t[cnt+3*q]; o != -1 {
			t[cnt+3*q] = -1
			return o, uint64(4*cnt + 4)
		}
	}
	panic("pool: offsets: no free entry in a pool that is not full")
}

func (s *offsetSlots) release(i int32) { s.table[i] = i }

// fill walks the table in the seed's unrolled order; pos counts passes.
func (s *offsetSlots) fill(c *cursor) {
	t := s.table
	q := len(t) / 4
	n, cnt := 0, c.pos
	for ; cnt < q && n <= batch-4; cnt++ {
		for _, k := range [4]int{cnt, cnt + q, cnt + 2*q, cnt + 3*q} {
			if t[k] == -1 && k < s.slots {
				c.buf[n] = int32(k)
				n++
			}
		}
	}
	c.n, c.pos, c.done = n, cnt, cnt == q
}

func (s *offsetSlots) overhead() int { return int32s(s.table) }
