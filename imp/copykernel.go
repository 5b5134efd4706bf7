package imp

import (
	"sync"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// A copy kernel is what FunMemToImp emits to copy an array into another
// (its COPY, and the program's result copies):
//
//	kernel i <= n do var t : τ; t <- y[e1]; x[e2] <- t done
//
// with offsets e1 and e2 affine in i (sums and products of ints in which
// i appears at most linearly). When such a kernel runs untracked, the
// compiled big-step runs it as one loop over the two blocks' words
// (copyWords), which is what its iterations do in order: word e2(i) of x
// gets word e1(i) of y, for i from 1 to n. Anything that would make an
// iteration differ from that (an offset out of its block, a variable
// that is not an int, a block undefined, a trace, cost counters) leaves
// the kernel to the rules, which give the error or the record.

// copyOf is the body of kernel s when it is a copy kernel (compiled as
// body), or nil.
func copyOf(s *Kernel, body []*cstmt) *cstmt {
	if len(s.Body) != 3 || len(body) != 1 {
		return nil
	}
	d, ok1 := s.Body[0].(*Decl)
	r, ok2 := s.Body[1].(*Read)
	w, ok3 := s.Body[2].(*Write)
	c := body[0]
	if !ok1 || !ok2 || !ok3 || c.next == nil || c.then == nil || c.next.selfRef {
		return nil
	}
	t, i := d.X.Name, s.X.Name
	if v, ok := w.Value.(fun.Var); !ok || v.Name != t || r.X.Name != t || t == i {
		return nil
	}
	if r.Y.Name == i || w.X.Name == i || w.X.Name == t || mentionsName(w.Index, t) {
		return nil
	}
	if !affineIn(r.Index, i) || !affineIn(w.Index, i) {
		return nil
	}
	return c
}

// affineIn says that e is a sum of products of ints and variables in
// which x appears at most linearly: its value over the iterations is
// e(1) + (i-1)·(e(2)-e(1)), in int64's wrapping arithmetic.
func affineIn(e fun.SExp, x string) bool {
	switch e := e.(type) {
	case *fun.Const, fun.Var:
		return true
	case *fun.UnOp:
		return e.Op == semantics.Neg && affineIn(e.X, x)
	case *fun.BinOp:
		switch e.Op {
		case semantics.Add, semantics.Sub:
			return affineIn(e.L, x) && affineIn(e.R, x)
		case semantics.Mul:
			if !affineIn(e.L, x) || !affineIn(e.R, x) {
				return false
			}
			return !mentionsName(e.L, x) || !mentionsName(e.R, x)
		}
	}
	return false
}

// copyWords runs copy kernel c (c.copy) of n iterations as one loop over
// the words, and says whether it did; when it did not, nothing has
// changed. The rules it stands for are counted as the iterations would
// count them: per iteration, the declaration's rule, E-IMP-SEQ twice,
// E-IMP-READ and E-IMP-WRITE.
func (m *machine) copyWords(c *cstmt, n int64) bool {
	b := c.copy
	if b == nil || n < 1 || m.opts.NoCopyKernels || m.stats != nil || len(m.logs) > 0 || !m.h.Plain() {
		return false
	}
	rd, wr := b.next, b.then
	y, x := &m.env[rd.y], &m.env[wr.x]
	if !y.ok || !y.v.Mem || !y.v.Defined || !x.ok || !x.v.Mem || !x.v.Defined {
		return false
	}
	src, dst := m.h.Block(y.v.L), m.h.Block(x.v.L)
	old := m.env[c.x]
	r1, w1, ok := m.copyOffsets(rd, wr, c.x, 1)
	r2, w2 := r1, w1
	if ok && n > 1 {
		r2, w2, ok = m.copyOffsets(rd, wr, c.x, 2)
	}
	m.env[c.x] = old
	rs, ws := r2-r1, w2-w1
	if !ok || !inBlock(r1, rs, n, len(src)) || !inBlock(w1, ws, n, len(dst)) {
		return false
	}
	if m.onCopy != nil {
		m.onCopy()
	}
	copyStrided(dst, src, w1, ws, r1, rs, n, m.opts.Jobs)
	if m.counter != nil {
		m.counter[b.rule] += int(n)
		m.counter[EImpSeq.Name] += 2 * int(n)
		m.counter[EImpRead.Name] += int(n)
		m.counter[EImpWrite.Name] += int(n)
	}
	return true
}

// copyStrided copies word r1 + i·rs of src to word w1 + i·ws of dst for
// i = 0 … n-1, on up to semantics.Jobs(jobs) goroutines when n is large
// (each a range of i). copyWords has proved the kernel race-free, so no
// word one iteration writes is read by another: the order is free.
func copyStrided(dst, src []int64, w1, ws, r1, rs, n int64, jobs int) {
	w := int64(1)
	if n >= semantics.MinParallelCopy {
		w = int64(semantics.Jobs(jobs))
	}
	if w <= 1 {
		for i := range n {
			dst[w1+i*ws] = src[r1+i*rs]
		}
		return
	}
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := n*k/w, n*(k+1)/w
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				dst[w1+i*ws] = src[r1+i*rs]
			}
		})
	}
	wg.Wait()
}

// copyOffsets are a copy's read and write offsets in iteration i (the
// index's slot set to i), where both are ints.
func (m *machine) copyOffsets(rd, wr *cstmt, ix int32, i int64) (int64, int64, bool) {
	m.env[ix].setNum(semantics.IntNum(i))
	r, ok1 := rd.a(m.env)
	w, ok2 := wr.a(m.env)
	if !ok1 || !ok2 || r.Elem != semantics.IntElem || w.Elem != semantics.IntElem {
		return 0, 0, false
	}
	return r.Bits, w.Bits, true
}

// inBlock says that the offsets a, a+s, …, a+(n-1)s all lie in a block
// of size size (without overflow: |(n-1)s| < size).
func inBlock(a, s, n int64, size int) bool {
	l := int64(size)
	if a < 0 || a >= l {
		return false
	}
	if s == 0 {
		return true
	}
	if abs := max(s, -s); abs < 0 || n-1 > l/abs {
		return false
	}
	last := a + (n-1)*s
	return last >= 0 && last < l
}
