package fun

import "github.com/arraysem/arraysem/semantics"

// eRedomap is E-REDOMAP and E-SCANOMAP compiled (compile.go): for i = 1,
// …, E(n), the map body with i in its slot, then the operator body with
// a the accumulator and b the map's value; a scanomap stacks each
// accumulator into one flat buffer of z's shape. The start and checks are
// the small-step's (eval_redomap.go). Each element's two derivations are
// premises of the form's node, map first.
//
// A large plain run computes the map bodies of a window of elements on
// several goroutines (parallelMap) before folding them in order: the
// values are the sequential ones, and so is the error, since a map body
// that goes wrong is reported only after the operator steps before it ran
// (E-REDOMAP's order).
func (c *compiler) eRedomap(sc *scope, s *Stm, e *RedomapExp, out []int) (code, int) {
	rule := redomapRule(e)
	iv := c.newSlot()
	lmap := c.lazy(sc.bind(e.Var.Name, iv), e.Map)
	a, x, lop := c.fold(sc, e.Params, e.Op)
	step := c.intStep(e.Params, e.Op) // compile_scalar.go
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		n, z, err := redomapStart(slotVars{fr, sc}, e)
		if err == nil {
			err = m.spend(n, e, rule)
		}
		if err != nil {
			return nil, err
		}
		acc := valOf(z)
		var st *stacker
		mis := noMisfit()
		if e.Scan {
			st = newStacker(z.Elem, n, z.Shape)
		}
		words := n * elems(z.Shape) // a scanomap's array
		if m.stats != nil {
			launch(m.stats, m.depth)
			if e.Scan {
				m.stats.Alloc(words)
			}
			m.depth++
		}
		var prem []*semantics.Derivation
		fast := step != nil && st == nil && m.plain && m.stats == nil
		// The bodies are compiled when first needed: the map's at a
		// start with elements, the operator's when its int step gives up.
		var mapBody, op *bodyCode
		if n > 0 {
			mapBody = lmap.get(n)
		}
		// combine is element i's operator step on its map value f.
		combine := func(i int64, f val) error {
			if fast && acc.isInt() && len(f.shape) == 0 && f.elem == semantics.IntElem {
				if k, ok := step(acc.bits, f.bits); ok {
					acc = intVal(k)
					return nil
				}
			}
			if op == nil {
				op = lop.get(n)
			}
			fr[a], fr[x] = acc, f
			d, err := op.run(m, fr)
			if err != nil {
				return err
			}
			if err := foldArity(rule, e.Op, len(op.results)); err != nil {
				return err
			}
			next := fr[op.results[0]]
			if st != nil {
				if item := scanItem(acc, next); !st.put(i-1, &item) {
					mis.note(i-1, &item)
				}
			}
			acc = next
			if m.derive {
				prem = append(prem, d)
			}
			return nil
		}
		if w := m.workers(n, lmap.weight); w > 1 {
			err = parallelMap(m, w, fr, iv, n, mapBody, e, combine)
		} else {
			for i := int64(1); i <= n && err == nil; i++ {
				fr[iv] = intVal(i)
				var d *semantics.Derivation
				if d, err = mapBody.run(m, fr); err == nil {
					err = mapArity(e, len(mapBody.results))
				}
				if err == nil {
					if m.derive {
						prem = append(prem, d)
					}
					err = combine(i, fr[mapBody.results[0]])
				}
			}
		}
		if err != nil {
			return nil, err
		}
		if m.stats != nil {
			if e.Scan { // its rows written
				m.stats.Ops += words
			}
			m.depth--
		}
		if st != nil {
			v, err := st.finish(&mis)
			if err != nil {
				return nil, rowsStuck(s, rule, err)
			}
			fr[out[0]] = v
		} else {
			fr[out[0]] = acc
		}
		if m.plain {
			return nil, nil
		}
		return m.node(rule, conclusion(s, fr, out), prem...), nil
	}, lmap.weight + lop.weight
}
