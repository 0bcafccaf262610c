package pool

// age sets the generation of every free slot to g, even, as if each had
// been reused g/2 times: the test-only way to reach the end of the
// generations without 2^31 loops.
func (p *Pool[T]) age(g uint32) {
	for i, x := range p.gen {
		if free(x) {
			p.gen[i] = g
		}
	}
}

// age is Pool.age for a Slab.
func (s *Slab[T]) age(g uint32) {
	for i := range s.slots {
		if free(s.slots[i].gen) {
			s.slots[i].gen = g
		}
	}
}
