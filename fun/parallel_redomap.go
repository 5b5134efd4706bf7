package fun

// A redomap's map bodies in parallel (parallel.go does kernels). The map
// bodies of different elements are independent, as a kernel's iterations
// are; the operator steps are not (each takes the accumulator the one
// before made). So a large plain run takes the elements a window at a
// time: the window's map bodies run on up to w goroutines, each with its
// own copy of the frame, into a buffer indexed by element; then the
// operator folds the buffer in order, on the caller's frame. When a map
// body goes wrong, the elements before it are folded first, and their
// operator steps' error, if any, is the one reported: E-REDOMAP's order,
// map i then op i, meets it first. The values and errors are the
// sequential run's.

// mapWindow is the number of elements per goroutine a window holds:
// enough to keep the goroutines busy between folds, few enough that the
// buffer of map values stays small.
const mapWindow = 4096

// parallelMap runs elements 1 … n of a redomap whose map body is body
// (index in slot iv of fr) on w goroutines, handing each element's map
// value to combine in order.
// The goroutines count into forks of m's cost counters.
func parallelMap(m *machine, w int, fr []val, iv int, n int64, body *bodyCode, e *RedomapExp, combine func(i int64, f val) error) error {
	window := int64(w) * mapWindow
	buf := make([]val, min(window, n))
	for lo := int64(1); lo <= n; lo += window {
		hi := min(lo+window-1, n)
		stop, err := mapRange(m, w, fr, iv, lo, hi, body, e, buf)
		for i := lo; i < stop; i++ {
			if err := combine(i, buf[i-lo]); err != nil {
				return err
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// mapRange runs the map bodies of elements lo … hi on up to w goroutines
// into buf (element i at i-lo). It returns the first element whose map
// body went wrong, with its error, or hi+1 and nil.
func mapRange(m *machine, w int, fr []val, iv int, lo, hi int64, body *bodyCode, e *RedomapExp, buf []val) (int64, error) {
	at, err := parallelBody(m, w, fr, iv, lo, hi-lo+1, body,
		func(results int) error { return mapArity(e, results) },
		func(_ int, j int64, v *val) { buf[j] = *v })
	return lo + at, err
}
