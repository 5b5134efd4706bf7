package cuda

import (
	"fmt"

	"github.com/arraysem/arraysem/imp"
)

// The parallel reduce and scan (a fold on the host), as a GPU library
// folds (NVIDIA CUB's device-wide reduce and scan, Mark Harris's
// "Optimizing Parallel Reduction in CUDA"), but keeping the elements'
// order everywhere, so that only the associativity of the combine is
// assumed (the interpreter's documentation allows no more), not its
// commutativity.
//
// A block folds a contiguous range of the elements, and each of its B
// threads a contiguous part of that range, per × items elements (items
// ≤ 8: arraysem_fold_items), in per rounds of items elements:
//
//  1. in each round the block evaluates the round's B × items elements
//     into a __shared__ tile in the striped arrangement (thread t
//     evaluates tile slots t, t + B, t + 2B, …, slot p being element
//     p mod items of thread p / items's round), so that consecutive
//     threads evaluate consecutive elements in runs of items and their
//     loads coalesce (items ≥ 4 words is a whole 32-byte sector);
//  2. then each thread combines its own items elements, in order, into
//     its running accumulator: the combines happen where the elements
//     are, in registers and shared memory, before any tree;
//  3. at the end the threads' accumulators are combined in a tree by
//     sequential addressing (at the level of stride s, thread t < s
//     combines slots t and t + s, so the active threads are a prefix and
//     a level's reads and writes never meet): thread r's accumulator
//     sits in slot bitreverse(r), which makes each level combine
//     neighbouring ranges, left with right, so the tree is the in-order
//     fold, left in slot 0.
//
// A reduce launches blocks that each fold their range, writing one
// partial each (at most B × items blocks, so that one block folds their
// partials in one round: arraysem_fold_tiles gives per), then
// one block folds the partials the same way and combines the neutral
// element once, on the left: ne ⊕ (y1 ⊕ … ⊕ yn), which associativity
// makes the left fold. Only the threads there is work for are launched: a
// fold of few elements runs blocks of fewer threads (arraysem_fold_block,
// a multiple of a warp).
//
// A scan is reduce-then-scan: the blocks' partials as for a reduce; one
// block scans them into the blocks' carries (ne ⊕ the partials before);
// then each block goes over its range again: its threads' totals (steps
// 1 and 2), an exclusive scan of them (Blelloch's up-sweep and
// down-sweep, work-efficient: O(B) combines, the missing neutral element
// stood in for by a flag) from the block's carry, and a second pass of
// rounds in which each thread turns its elements in the tile into their
// prefixes, which the block then writes striped (coalesced) at the
// scan's address. The elements are evaluated again in the later passes
// when their part only reads (no write, allocation or scan in it: doing
// it again is not observable), and otherwise kept in a scratch array by
// the first, so that an element part that writes runs once, as in the
// interpreter.
//
// A thread that gets stuck in a part records it (arraysem_trap), clears
// its flag in a __shared__ array and returns from the part; it skips the
// rest of its work but keeps every barrier, so the barriers never
// diverge. A slot of the tile says whether its element was made (valid),
// so that no thread reads what a stuck thread did not write; the stuck
// state is then the program's result (the host reads the record after
// the launch).

// tileWords is the size of a fold kernel's __shared__ tile (and of its
// valid flags): B × items ≤ 1024 (arraysem_fold_items).
const tileWords = 1024

// blockKernel is a kernel of a parallel fold being built: its shared
// arrays and the thread's index in its block.
type blockKernel struct {
	*foldFn
	e                          *emitter
	tile, valid, part, has, ok string // the __shared__ arrays
	t, b                       string // threadIdx.x, blockDim.x
	comb                       string // the combine's __device__ function
	combArgs                   []slot
	levels, size, slot, pad    string // the tree: levels, P = 2^levels ≥ B, this thread's slots
	// A cooperative fold in a kernel's body (coop.go) emits into out,
	// and its parts take the frame's variables.
	out *[]Stmt
	fr  *frame
}

// newBlockKernel starts a fold kernel: its shared arrays, t and B, its
// flag set.
func (e *emitter) newBlockKernel(name, comb string, combArgs []slot) *blockKernel {
	k := &blockKernel{foldFn: e.newFoldFn(name, true), e: e, comb: comb, combArgs: combArgs}
	g := k.g
	k.tile, k.valid, k.part, k.has, k.ok = g.fresh("tile"), g.fresh("valid"), g.fresh("partial"), g.fresh("has"), g.fresh("flag")
	k.t, k.b = g.fresh("t"), g.fresh("b")
	k.f.Body = []Stmt{
		&Shared{Name: k.tile, Size: tileWords},
		&Shared{Name: k.valid, Size: tileWords},
		&Shared{Name: k.part, Size: 1024},
		&Shared{Name: k.has, Size: 1024},
		&Shared{Name: k.ok, Size: 1024},
		&Decl{Type: "int64_t", Name: k.t, Init: &Cast{Type: "int64_t", X: &Field{X: id("threadIdx"), Name: "x"}}},
		&Decl{Type: "int64_t", Name: k.b, Init: &Cast{Type: "int64_t", X: &Field{X: id("blockDim"), Name: "x"}}},
		set(&Index{X: id(k.ok), I: id(k.t)}, num(1)),
	}
	return k
}

// add appends statements to the kernel's body, or to out when a
// cooperative fold inside a kernel's body is being emitted.
func (k *blockKernel) add(ss ...Stmt) {
	if k.out != nil {
		*k.out = append(*k.out, ss...)
		return
	}
	k.f.Body = append(k.f.Body, ss...)
}

// flag is the thread's flag, not 0 while it is not stuck.
func (k *blockKernel) flag() Expr { return &Index{X: id(k.ok), I: id(k.t)} }

// call is a call of a part: the record, the thread's flag, the bound
// values, the captured names.
func (k *blockKernel) call(name string, bound []Expr, captured []slot) Expr {
	a := append([]Expr{id(k.g.err), bin("+", id(k.ok), id(k.t))}, bound...)
	fr := k.vars
	if k.fr != nil {
		fr = k.fr
	}
	return call(name, append(a, args(fr, captured)...)...)
}

// combine is a ⊕ b.
func (k *blockKernel) combine(a, b Expr) Expr { return k.call(k.comb, []Expr{a, b}, k.combArgs) }

// decl declares a fresh int64_t.
func (k *blockKernel) decl(base string, init Expr) string {
	x := k.g.fresh(base)
	k.add(&Decl{Type: "int64_t", Name: x, Init: init})
	return x
}

// loop is for (v = 1; v <= bound; v++) { body(v) } with a fresh v.
func (k *blockKernel) loop(bound Expr, body func(v string) []Stmt) Stmt {
	v := k.g.fresh("k")
	return &For{Var: v, From: num(1), Bound: bound, Body: body(v)}
}

// barrier is __syncthreads();.
func barrier() Stmt { return do(call("__syncthreads")) }

// accumulate is `if has: x = x ⊕ v, else x = v, has = 1`.
func (k *blockKernel) accumulate(x, xHas string, v Expr) Stmt {
	return &If{Cond: bin("==", id(xHas), num(0)), Then: []Stmt{set(id(x), v), set(id(xHas), num(1))},
		Else: []Stmt{set(id(x), k.combine(id(x), v))}}
}

// tree declares the tree's shape: levels, P = 2^levels ≥ B, and for
// sequential addressing (bitReversed) the slot of the thread's run and,
// for threads t < P − B, the slot of the missing run B + t (pad).
func (k *blockKernel) tree(bitReversed bool) {
	k.levels = k.decl("levels", call("arraysem_tree_levels", id(k.b)))
	k.size = k.decl("size", num(1))
	k.add(k.loop(id(k.levels), func(string) []Stmt {
		return []Stmt{set(id(k.size), call("i64_mul", id(k.size), num(2)))}
	}))
	rev := func(of Expr) string {
		r, v := k.decl("slot", num(0)), k.decl("v", of)
		k.add(k.loop(id(k.levels), func(string) []Stmt {
			return []Stmt{
				set(id(r), call("i64_add", call("i64_mul", id(r), num(2)), call("i64_mod", id(v), num(2)))),
				set(id(v), call("i64_div", id(v), num(2))),
			}
		}))
		return r
	}
	if bitReversed {
		k.slot = rev(id(k.t))
		k.pad = rev(call("i64_add", id(k.b), id(k.t)))
	} else {
		k.slot, k.pad = k.t, k.decl("pad", call("i64_add", id(k.b), id(k.t)))
	}
}

// rounds is the per rounds of a block's range first … end − 1 (one when
// per is ""). Staged (the elements read memory), each round loads its
// elements into the tile striped (elem gives element e's statements and
// word), waits, and runs use(j, e, v) for the thread's own elements in
// order (element e, counting from 0, in slot j of the tile, v its word;
// those before end that were made); direct (the elements read nothing,
// so there are no loads to coalesce), each thread evaluates its own
// elements in order and runs use(j, e, v) on each. When after is given,
// the round then waits and runs after(r) (which reads the tile striped).
func (k *blockKernel) rounds(first, end, per, items string, staged bool, elem func(e string) ([]Stmt, Expr), use func(j, e string, v Expr) []Stmt, after func(r string) []Stmt) []Stmt {
	g := k.g
	round := func(r string) []Stmt {
		var out []Stmt
		if staged {
			out = append(out, k.loop(id(items), func(kk string) []Stmt {
				p, e, y := g.fresh("p"), g.fresh("e"), g.fresh("y")
				pre, ye := elem(e)
				return []Stmt{
					&Decl{Type: "int64_t", Name: p, Init: call("i64_add", call("i64_mul", call("i64_sub", id(kk), num(1)), id(k.b)), id(k.t))},
					&Decl{Type: "int64_t", Name: e, Init: k.at(first, per, items, call("i64_div", id(p), id(items)), id(r), call("i64_mod", id(p), id(items)))},
					&If{Cond: bin("<", id(e), id(end)), Then: []Stmt{
						&If{Cond: bin("!=", k.flag(), num(0)), Then: append(pre,
							&Decl{Type: "int64_t", Name: y, Init: ye},
							&If{Cond: bin("!=", k.flag(), num(0)),
								Then: []Stmt{set(&Index{X: id(k.tile), I: id(p)}, id(y)), set(&Index{X: id(k.valid), I: id(p)}, num(1))},
								Else: []Stmt{set(&Index{X: id(k.valid), I: id(p)}, num(0))}}),
							Else: []Stmt{set(&Index{X: id(k.valid), I: id(p)}, num(0))}},
					}},
				}
			}), barrier())
		}
		// The thread's own elements of the round, rbase … rlast, in its
		// slots j of the tile.
		rbase, rlast, j, e := g.fresh("rbase"), g.fresh("rlast"), g.fresh("j"), g.fresh("e")
		out = append(out,
			&Decl{Type: "int64_t", Name: rbase, Init: k.at(first, per, items, id(k.t), id(r), num(0))},
			&Decl{Type: "int64_t", Name: rlast, Init: call("i64_sub", call("i64_add", id(rbase), id(items)), num(1))},
			&If{Cond: bin(">=", id(rlast), id(end)), Then: []Stmt{set(id(rlast), call("i64_sub", id(end), num(1)))}},
			&Decl{Type: "int64_t", Name: j, Init: call("i64_mul", id(k.t), id(items))})
		var body []Stmt
		if staged {
			body = []Stmt{&If{Cond: bin("!=", &Index{X: id(k.valid), I: id(j)}, num(0)), Then: []Stmt{
				&If{Cond: bin("!=", k.flag(), num(0)), Then: use(j, e, &Index{X: id(k.tile), I: id(j)})},
			}}}
		} else {
			y := g.fresh("y")
			pre, ye := elem(e)
			if after != nil {
				// The slot says whether use made it (after reads it).
				body = append(body, set(&Index{X: id(k.valid), I: id(j)}, num(0)))
			}
			body = append(body, &If{Cond: bin("!=", k.flag(), num(0)), Then: append(pre,
				&Decl{Type: "int64_t", Name: y, Init: ye},
				&If{Cond: bin("!=", k.flag(), num(0)), Then: use(j, e, id(y))})})
		}
		out = append(out, &For{Var: e, From: id(rbase), Bound: id(rlast), Body: append(body, set(id(j), call("i64_add", id(j), num(1))))})
		if after != nil {
			out = append(out, barrier())
			out = append(out, after(r)...)
			if !staged && per != "" {
				// The next round's threads write the slots after read.
				out = append(out, barrier())
			}
		} else if staged && per != "" {
			// The next round's loads write the slots the threads read.
			out = append(out, barrier())
		}
		return out
	}
	if per == "" {
		// One round (the block folding the blocks' partials, which are
		// at most B × items).
		one := g.fresh("r")
		return append([]Stmt{&Decl{Type: "int64_t", Name: one, Init: num(1)}}, round(one)...)
	}
	return []Stmt{k.loop(id(per), round)}
}

// at is element q of thread o's round r (counting r from 1): first +
// o·per·items + (r − 1)·items + q (per "" is one round).
func (k *blockKernel) at(first, per, items string, o, r, q Expr) Expr {
	var run Expr = id(items)
	if per != "" {
		run = call("i64_mul", id(per), id(items))
	}
	return call("i64_add", id(first), call("i64_add", call("i64_mul", o, run),
		call("i64_add", call("i64_mul", call("i64_sub", r, num(1)), id(items)), q)))
}

// slotted stores the thread's accumulator at its slot and clears the
// missing thread's slot (threads t < P − B), then waits.
func (k *blockKernel) slotted(run, runHas string) []Stmt {
	return []Stmt{
		set(&Index{X: id(k.part), I: id(k.slot)}, id(run)),
		set(&Index{X: id(k.has), I: id(k.slot)}, id(runHas)),
		&If{Cond: bin("<", id(k.t), call("i64_sub", id(k.size), id(k.b))), Then: []Stmt{set(&Index{X: id(k.has), I: id(k.pad)}, num(0))}},
		barrier(),
	}
}

// reduceTree is step 3: sequential addressing over the bit-reversed
// slots, leaving the fold in slot 0.
func (k *blockKernel) reduceTree() []Stmt {
	g := k.g
	s := g.fresh("stride")
	return []Stmt{
		&Decl{Type: "int64_t", Name: s, Init: id(k.size)},
		k.loop(id(k.levels), func(string) []Stmt {
			right := call("i64_add", id(k.t), id(s))
			part := func(x Expr) Expr { return &Index{X: id(k.part), I: x} }
			has := func(x Expr) Expr { return &Index{X: id(k.has), I: x} }
			return []Stmt{
				set(id(s), call("i64_div", id(s), num(2))),
				&If{Cond: bin("<", id(k.t), id(s)), Then: []Stmt{
					&If{Cond: bin("!=", has(right), num(0)), Then: []Stmt{
						&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{
							&If{Cond: bin("!=", has(id(k.t)), num(0)),
								Then: []Stmt{set(part(id(k.t)), k.combine(part(id(k.t)), part(right)))},
								Else: []Stmt{set(part(id(k.t)), part(right)), set(has(id(k.t)), num(1))}},
						}},
					}},
				}},
				barrier(),
			}
		}),
	}
}

// end declares first + count.
func (k *blockKernel) end(first, count string) string {
	return k.decl("end", call("i64_add", id(first), id(count)))
}

// blockFold is steps 1 to 3 over the elements first … first + count − 1
// (count ≤ B × per × items; per "" is one round): thread 0's total and
// its flag (has any element) then hold their in-order fold.
func (k *blockKernel) blockFold(first, count, per, items string, staged bool, elem func(e string) ([]Stmt, Expr)) (string, string) {
	k.tree(true)
	end := k.end(first, count)
	acc, accHas := k.decl("acc", num(0)), k.decl("acc_has", num(0))
	k.add(k.rounds(first, end, per, items, staged, elem, func(j, _ string, v Expr) []Stmt {
		return []Stmt{k.accumulate(acc, accHas, v)}
	}, nil)...)
	k.add(k.slotted(acc, accHas)...)
	k.add(k.reduceTree()...)
	total, totalHas := k.decl("total", num(0)), k.decl("total_has", num(0))
	k.add(&If{Cond: bin("==", id(k.t), num(0)), Then: []Stmt{
		set(id(totalHas), &Index{X: id(k.has), I: num(0)}),
		&If{Cond: bin("!=", id(totalHas), num(0)), Then: []Stmt{set(id(total), &Index{X: id(k.part), I: num(0)})}},
	}})
	return total, totalHas
}

// blockScan scans the elements first … first + count − 1 (count ≤ B ×
// per × items) from carry, the fold of everything before them (the same
// in every thread): write(e, v) stores element e's inclusive prefix v,
// each thread writing the elements it evaluated (striped).
//
// also, when given, runs in the thread that makes element e's prefix,
// with it, after it is made (a reduce fused into the scan's writing pass
// folds it there: scanReduce).
func (k *blockKernel) blockScan(first, count, per, items string, staged bool, carry Expr, elem func(e string) ([]Stmt, Expr), write func(e string, v Expr) []Stmt, also func(e string, prefix Expr) []Stmt) {
	g := k.g
	k.tree(false)
	end := k.end(first, count)
	part := func(x Expr) Expr { return &Index{X: id(k.part), I: x} }
	has := func(x Expr) Expr { return &Index{X: id(k.has), I: x} }
	// The threads' totals.
	acc, accHas := k.decl("acc", num(0)), k.decl("acc_has", num(0))
	k.add(k.rounds(first, end, per, items, staged, elem, func(j, _ string, v Expr) []Stmt {
		return []Stmt{k.accumulate(acc, accHas, v)}
	}, nil)...)
	k.add(k.slotted(acc, accHas)...)
	// The pairs of a sweep's level: thread t combines slots left and idx,
	// idx = (t + 1)·2·stride − 1, when idx < P.
	level := func(stride string, body func(left, idx string) []Stmt) []Stmt {
		left, idx := g.fresh("left"), g.fresh("idx")
		return []Stmt{
			&Decl{Type: "int64_t", Name: idx, Init: call("i64_sub", call("i64_mul", call("i64_add", id(k.t), num(1)), call("i64_mul", id(stride), num(2))), num(1))},
			&If{Cond: bin("<", id(idx), id(k.size)), Then: append([]Stmt{
				&Decl{Type: "int64_t", Name: left, Init: call("i64_sub", id(idx), id(stride))},
			}, body(left, idx)...)},
			barrier(),
		}
	}
	// Up-sweep: slot idx takes (left) ⊕ (idx), the total of its subtree.
	up := k.decl("stride", num(1))
	k.add(k.loop(id(k.levels), func(string) []Stmt {
		return append(level(up, func(left, idx string) []Stmt {
			return []Stmt{&If{Cond: bin("!=", has(id(left)), num(0)), Then: []Stmt{
				&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{
					&If{Cond: bin("!=", has(id(idx)), num(0)),
						Then: []Stmt{set(part(id(idx)), k.combine(part(id(left)), part(id(idx))))},
						Else: []Stmt{set(part(id(idx)), part(id(left))), set(has(id(idx)), num(1))}},
				}},
			}}}
		}), set(id(up), call("i64_mul", id(up), num(2))))
	}))
	// Down-sweep: the root has nothing before it; at each level the left
	// child takes its parent's prefix, the right one the parent's prefix
	// ⊕ the left subtree's total. (Thread 0 made the root in the
	// up-sweep's last level and takes it in the down-sweep's first: no
	// barrier between.)
	down := k.decl("stride", id(k.size))
	k.add(&If{Cond: bin("==", id(k.t), num(0)), Then: []Stmt{set(has(call("i64_sub", id(k.size), num(1))), num(0))}},
		k.loop(id(k.levels), func(string) []Stmt {
			return append([]Stmt{set(id(down), call("i64_div", id(down), num(2)))}, level(down, func(left, idx string) []Stmt {
				lv, lh, pv, ph := g.fresh("lv"), g.fresh("lh"), g.fresh("pv"), g.fresh("ph")
				return []Stmt{
					&Decl{Type: "int64_t", Name: lh, Init: has(id(left))},
					&Decl{Type: "int64_t", Name: lv, Init: num(0)},
					&If{Cond: bin("!=", id(lh), num(0)), Then: []Stmt{set(id(lv), part(id(left)))}},
					&Decl{Type: "int64_t", Name: ph, Init: has(id(idx))},
					&Decl{Type: "int64_t", Name: pv, Init: num(0)},
					&If{Cond: bin("!=", id(ph), num(0)), Then: []Stmt{set(id(pv), part(id(idx))), set(part(id(left)), id(pv))}},
					set(has(id(left)), id(ph)),
					&If{Cond: bin("!=", id(lh), num(0)), Then: []Stmt{
						&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{
							&If{Cond: bin("!=", id(ph), num(0)),
								Then: []Stmt{set(part(id(idx)), k.combine(id(pv), id(lv)))},
								Else: []Stmt{set(part(id(idx)), id(lv)), set(has(id(idx)), num(1))}},
						}},
					}},
				}
			})...)
		}))
	// The thread's prefix: the carry ⊕ the totals of the threads before.
	run := k.decl("run", carry)
	k.add(&If{Cond: bin("!=", has(id(k.t)), num(0)), Then: []Stmt{
		&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{set(id(run), k.combine(id(run), part(id(k.t))))}},
	}})
	// Again, each thread turning its elements in the tile into their
	// prefixes, then the block writing the round's prefixes striped
	// (each thread the slots it loaded, so the next round's loads need
	// no barrier before them).
	k.add(k.rounds(first, end, per, items, staged, elem, func(j, e string, v Expr) []Stmt {
		out := []Stmt{
			set(id(run), k.combine(id(run), v)),
			set(&Index{X: id(k.tile), I: id(j)}, id(run)),
			// (A write: the slot's reader is then the one after.)
			set(&Index{X: id(k.valid), I: id(j)}, k.flag()),
		}
		if also != nil {
			out = append(out, &If{Cond: bin("!=", k.flag(), num(0)), Then: also(e, id(run))})
		}
		return out
	}, func(r string) []Stmt {
		return []Stmt{k.loop(id(items), func(kk string) []Stmt {
			p, e := g.fresh("p"), g.fresh("e")
			return []Stmt{
				&Decl{Type: "int64_t", Name: p, Init: call("i64_add", call("i64_mul", call("i64_sub", id(kk), num(1)), id(k.b)), id(k.t))},
				&Decl{Type: "int64_t", Name: e, Init: k.at(first, per, items, call("i64_div", id(p), id(items)), id(r), call("i64_mod", id(p), id(items)))},
				&If{Cond: bin("<", id(e), id(end)), Then: []Stmt{
					&If{Cond: bin("!=", &Index{X: id(k.valid), I: id(p)}, num(0)), Then: []Stmt{
						&If{Cond: bin("!=", k.flag(), num(0)), Then: write(e, &Index{X: id(k.tile), I: id(p)})},
					}},
				}},
			}
		})}
	})...)
}

// pure reports whether statements only read: no write, allocation or
// scan, at any depth (a kernel writes its array). Running them twice is
// not observable.
func pure(ss []imp.Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *imp.Write, *imp.Alloc, *imp.Scan, *imp.Kernel:
			return false
		case *imp.If:
			if !pure(s.Then) || !pure(s.Else) {
				return false
			}
		case *imp.For:
			if !pure(s.Body) {
				return false
			}
		case *imp.Reduce:
			if !pure(s.Body) || !pure(s.Combine) {
				return false
			}
		}
	}
	return true
}

// reads reports whether statements read memory, at any depth.
func reads(ss []imp.Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *imp.Read:
			return true
		case *imp.If:
			if reads(s.Then) || reads(s.Else) {
				return true
			}
		case *imp.For:
			if reads(s.Body) {
				return true
			}
		case *imp.Kernel:
			if reads(s.Body) {
				return true
			}
		case *imp.Reduce:
			if reads(s.Body) || reads(s.Combine) {
				return true
			}
		case *imp.Scan:
			if reads(s.Body) || reads(s.Combine) {
				return true
			}
		}
	}
	return false
}

// storeFn is a scan's write of one element's prefix (I-SCAN's checks,
// then the store) as a __device__ function of the index and the word, so
// that a thread stuck in it only clears its flag and keeps the barriers.
func (e *emitter) storeFn(name string, ty scope, captured []slot, sc *imp.Scan) (*Func, []slot) {
	k := e.newFoldFn(name, false)
	fd := &sc.Fold
	x := slot{fd.X.Name, imp.Int}
	cx := k.g.cname(x.name)
	w := k.g.fresh("word")
	k.f.Params = append(k.f.Params, Param{Type: "int64_t", Name: cx}, Param{Type: "int64_t", Name: w})
	used := e.capture(k, captured, map[slot]bool{x: true})
	k.vars.vars[x] = cx
	at := &frame{parent: k.vars, vars: map[slot]string{}, ty: ty.with(x), loop: true}
	k.f.Body = append(e.scanWrite(k.g, at, sc, id(w)), &Return{Value: num(0)})
	return k.f, used
}

// parFold is a reduce or a scan on the host: the parallel fold described
// at the top of this file.
func (e *emitter) parFold(h *fn, fr *frame, s imp.Stmt, fd *imp.Fold) []Stmt {
	rule, kw := ruleOf(s)
	out, ne, n := e.foldStart(h, fr, s, fd)
	sc, isScan := s.(*imp.Scan)
	// The names the parts (and a scan's address) mention that the host
	// has: every function of the fold takes them.
	t := accType(fr.ty, s)
	captured := foldCaptures(fr, s, fd)
	e.folds++
	base := fmt.Sprintf("arraysem_%s_%d", kw, e.folds)
	elem, elemArgs := e.partFn(base+"_element", fr.ty, captured, []slot{{fd.X.Name, imp.Int}}, false, t, fd.Body, fd.Yield)
	comb, combArgs := e.partFn(base+"_combine", fr.ty, captured, []slot{{fd.A.Name, t}, {fd.B.Name, t}}, true, t, fd.Combine, fd.Result)
	e.kernels = append(e.kernels, elem, comb)
	var store *Func
	var storeArgs []slot
	// A reduce of what the scan writes, which its writing pass folds
	// (scanreduce.go).
	var sr *scanReduce
	var more3 []Expr
	if r := e.fuse[s]; r != nil {
		var decls []Stmt
		sr, decls = e.startScanReduce(h, fr, r)
		e.fused[r] = sr
		out = append(out, decls...)
	}
	if isScan {
		store, storeArgs = e.storeFn(base+"_store", fr.ty, captured, sc)
		e.kernels = append(e.kernels, store)
	}
	// A scan whose element part writes keeps its elements' words from the
	// first pass for the last.
	scratch := isScan && !pure(fd.Body)
	// Elements that read memory are evaluated striped, so that their
	// loads coalesce; others each thread evaluates where it folds them.
	staged := reads(fd.Body) || scratch
	where := s.Pos().String() + ": " + kw
	blockIdx := &Cast{Type: "int64_t", X: &Field{X: id("blockIdx"), Name: "x"}}

	// The blocks' ranges: per tiles each (the last may have fewer).
	rangeOf := func(k *blockKernel, count, per, items string) (string, string) {
		span := call("i64_mul", call("i64_mul", id(per), id(k.b)), id(items))
		first := k.decl("first", call("i64_mul", blockIdx, span))
		cnt := k.decl("count", call("i64_sub", id(count), id(first)))
		k.add(&If{Cond: bin(">", id(cnt), span), Then: []Stmt{set(id(cnt), span)}})
		return first, cnt
	}
	elemOf := func(k *blockKernel, ys string) func(e string) ([]Stmt, Expr) {
		return func(el string) ([]Stmt, Expr) {
			y := k.g.fresh("element")
			pre := []Stmt{&Decl{Type: "int64_t", Name: y, Init: k.call(elem.Name, []Expr{call("i64_add", id(el), num(1))}, elemArgs)}}
			if ys != "" {
				pre = append(pre, &If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{set(&Index{X: id(ys), I: id(el)}, id(y))}})
			}
			return pre, id(y)
		}
	}
	loadOf := func(a string) func(e string) ([]Stmt, Expr) {
		return func(el string) ([]Stmt, Expr) { return nil, &Index{X: id(a), I: id(el)} }
	}

	// The blocks' partials.
	k1 := e.newBlockKernel(base+"_blocks", comb.Name, combArgs)
	count1, per1, items1, partials1 := k1.param("int64_t", "count"), k1.param("int64_t", "per"), k1.param("int64_t", "items"), k1.param("int64_t *", "partials")
	ys1 := ""
	if scratch {
		ys1 = k1.param("int64_t *", "ys")
	}
	k1Args := e.capture(k1.foldFn, captured, nil)
	first1, cnt1 := rangeOf(k1, count1, per1, items1)
	acc1, _ := k1.blockFold(first1, cnt1, per1, items1, staged, elemOf(k1, ys1))
	k1.add(&If{Cond: bin("==", id(k1.t), num(0)), Then: []Stmt{set(&Index{X: id(partials1), I: blockIdx}, id(acc1))}})
	e.kernels = append(e.kernels, k1.f)

	// One block over the partials: the total (reduce), or the blocks'
	// carries (scan).
	var k2, k3 *blockKernel
	var k2Args, k3Args []slot
	if !isScan {
		k2, k2Args = e.totalKernel(base, comb, combArgs, captured)
	} else {
		k2 = e.newBlockKernel(base+"_carries", comb.Name, combArgs)
		count2, items2, partials2, carries2, ne2 := k2.param("int64_t", "count"), k2.param("int64_t", "items"), k2.param("int64_t *", "partials"), k2.param("int64_t *", "carries"), k2.param("int64_t", "neutral")
		k2Args = e.capture(k2.foldFn, captured, nil)
		k2.add(&If{Cond: bin("==", id(k2.t), num(0)), Then: []Stmt{set(&Index{X: id(carries2), I: num(0)}, id(ne2))}})
		zero := k2.decl("first", num(0))
		k2.blockScan(zero, count2, "", items2, true, id(ne2), loadOf(partials2), func(el string, v Expr) []Stmt {
			return []Stmt{set(&Index{X: id(carries2), I: call("i64_add", id(el), num(1))}, v)}
		}, nil)
		e.kernels = append(e.kernels, k2.f)

		// Each block's tiles again, from its carry, writing.
		k3 = e.newBlockKernel(base+"_write", comb.Name, combArgs)
		count3, per3, items3, carries3 := k3.param("int64_t", "count"), k3.param("int64_t", "per"), k3.param("int64_t", "items"), k3.param("int64_t *", "carries")
		ys3 := ""
		if scratch {
			ys3 = k3.param("int64_t *", "ys")
		}
		k3Args = e.capture(k3.foldFn, captured, nil)
		first3, cnt3 := rangeOf(k3, count3, per3, items3)
		el3 := elemOf(k3, "")
		if scratch {
			el3 = loadOf(ys3)
		}
		var also func(el string, v Expr) []Stmt
		finish := func() {}
		if sr != nil {
			also, finish, more3 = sr.fold(e, fr, k3)
		}
		k3.blockScan(first3, cnt3, per3, items3, staged || scratch, &Index{X: id(carries3), I: blockIdx}, el3, func(el string, v Expr) []Stmt {
			return []Stmt{do(k3.call(store.Name, []Expr{call("i64_add", id(el), num(1)), v}, storeArgs))}
		}, also)
		finish()
		e.kernels = append(e.kernels, k3.f)
	}

	// The host: sizes, scratch memory, the launches, each checked.
	items, fb, per, blocks, partials := h.fresh("items"), h.fresh("fold_block"), h.fresh("per"), h.fresh("blocks"), h.fresh("partials")
	fb2 := h.fresh("fold_block")
	launch := func(k *blockKernel, grid, block Expr, own []Expr, capt []slot, more ...Expr) []Stmt {
		return []Stmt{
			&Launch{Sync: true, Kernel: k.f.Name, Grid: grid, Block: block, Args: append(append(append([]Expr{id(h.err)}, own...), args(fr, capt)...), more...)},
			do(call("arraysem_sync", id(h.err), str(where))),
		}
	}
	scratchOf := func(p string, size Expr) []Stmt {
		return []Stmt{
			&Decl{Type: "int64_t *", Name: p, Init: id("nullptr")},
			cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(p)}}, call("arraysem_alloc_bytes", size))),
		}
	}
	body := []Stmt{
		&Decl{Type: "int64_t", Name: items, Init: call("arraysem_fold_items")},
		&Decl{Type: "int64_t", Name: fb, Init: call("arraysem_fold_block", id(n))},
		&Decl{Type: "int64_t", Name: per, Init: call("arraysem_fold_tiles", id(n), id(fb))},
		&Decl{Type: "int64_t", Name: blocks, Init: call("arraysem_ceil_div", call("arraysem_ceil_div", id(n), call("i64_mul", id(fb), id(items))), id(per))},
		&Decl{Type: "int64_t", Name: fb2, Init: call("arraysem_fold_block", id(blocks))},
	}
	body = append(body, scratchOf(partials, call("i64_add", id(blocks), num(1)))...)
	ys := ""
	if scratch {
		// The yields' scratch array: a scan of more elements than the
		// interpreter's heap holds cannot write them all.
		big := e.site(s.Pos(), rule, "a scan of %lld elements exceeds the interpreter's heap limit of %lld")
		body = append(body, &If{Cond: bin(">", id(n), id("arraysem_max_block")), Then: h.fail(big, id(n), id("arraysem_max_block"))})
		ys = h.fresh("ys")
		body = append(body, scratchOf(ys, id(n))...)
	}
	own1 := []Expr{id(n), id(per), id(items), id(partials)}
	if scratch {
		own1 = append(own1, id(ys))
	}
	body = append(body, launch(k1, id(blocks), id(fb), own1, k1Args)...)
	if isScan {
		carries := h.fresh("carries")
		body = append(body, scratchOf(carries, call("i64_add", id(blocks), num(1)))...)
		body = append(body, launch(k2, num(1), id(fb2), []Expr{id(blocks), id(items), id(partials), id(carries), word(t, id(ne))}, k2Args)...)
		own3 := []Expr{id(n), id(per), id(items), id(carries)}
		if scratch {
			own3 = append(own3, id(ys))
		}
		if sr != nil {
			body = append(body, sr.hostScratch(blocks)...)
		}
		body = append(body, launch(k3, id(blocks), id(fb), own3, k3Args, more3...)...)
		body = append(body, cudaCall("cudaFree", call("cudaFree", id(carries))))
		if scratch {
			body = append(body, cudaCall("cudaFree", call("cudaFree", id(ys))))
		}
	} else {
		body = append(body, launch(k2, num(1), id(fb2), []Expr{id(blocks), id(items), id(partials), word(t, id(ne))}, k2Args)...)
		x := fr.lookup(s.(*imp.Reduce).Target.Name)
		dst := x
		if t == imp.Float {
			dst = h.fresh("word")
			body = append(body, &Decl{Type: "int64_t", Name: dst, Init: num(0)})
		}
		body = append(body, cudaCall("cudaMemcpy", call("cudaMemcpy", &Unary{Op: "&", X: id(dst)}, bin("+", id(partials), id(blocks)), &Sizeof{Type: "int64_t"}, id("cudaMemcpyDeviceToHost"))))
		if t == imp.Float {
			body = append(body, set(id(x), fromWord(t, id(dst))))
		}
	}
	body = append(body, cudaCall("cudaFree", call("cudaFree", id(partials))))
	var none []Stmt
	if !isScan {
		x := fr.lookup(s.(*imp.Reduce).Target.Name)
		none = []Stmt{set(id(x), id(ne))}
	}
	return append(out, &If{Cond: bin(">", id(n), num(0)), Then: body, Else: none})
}

// totalKernel is a reduce's kernel of one block folding the blocks'
// partials, count of them, then combining the neutral element on the
// left, into the word after them.
func (e *emitter) totalKernel(base string, comb *Func, combArgs, captured []slot) (*blockKernel, []slot) {
	k2 := e.newBlockKernel(base+"_total", comb.Name, combArgs)
	count2, items2, partials2, ne2 := k2.param("int64_t", "count"), k2.param("int64_t", "items"), k2.param("int64_t *", "partials"), k2.param("int64_t", "neutral")
	k2Args := e.capture(k2.foldFn, captured, nil)
	zero := k2.decl("first", num(0))
	acc2, _ := k2.blockFold(zero, count2, "", items2, true, func(el string) ([]Stmt, Expr) { return nil, &Index{X: id(partials2), I: id(el)} })
	k2.add(&If{Cond: bin("==", id(k2.t), num(0)), Then: []Stmt{
		&If{Cond: bin("!=", k2.flag(), num(0)), Then: []Stmt{
			set(&Index{X: id(partials2), I: id(count2)}, k2.combine(id(ne2), id(acc2))),
		}},
	}})
	e.kernels = append(e.kernels, k2.f)
	return k2, k2Args
}

// foldCaptures are the names a fold's parts (and a scan's address)
// mention that the host has: every function of the fold takes them.
func foldCaptures(fr *frame, s imp.Stmt, fd *imp.Fold) []slot {
	r := newRefs()
	r.fold(fr.ty, s, fd)
	var captured []slot
	for _, x := range r.acc {
		if _, ok := fr.find(x); ok {
			captured = append(captured, x)
		}
	}
	return captured
}
