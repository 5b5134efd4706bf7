package proofstests

import (
	"testing"

	"github.com/arraysem/arraysem/remora/dynamic"
)

func TestRemoraDynamicKnownBugs(t *testing.T) {
	t.Parallel()
	for _, b := range dynamicKnownBugs {
		e, err := dynamic.ParseExpr("bug.remora", b.src, nil)
		if err != nil {
			t.Errorf("%s: %s does not parse: %v", b.constant, b.src, err)
			continue
		}
		got := ""
		bv, berr := dynamic.EvalExpr(e, nil)
		sv, serr := runSmall(e, nil)
		for _, o := range []string{outcomeString(bv, berr), outcomeString(sv, serr)} {
			if o != b.expect {
				got = o
			}
		}
		knownBugVerdict(t, b.constant, b.set, b.src, b.expect, got)
	}
}

func TestRemoraErasure(t *testing.T) {
	t.Parallel()
	for _, x := range remoraErasures {
		c := &RemoraCase{Src: x.typed}
		_, e, _, msg := remoraProgram(c)
		if msg != "" {
			t.Errorf("%s: %s", x.typed, msg)
			continue
		}
		got, err := EraseRemora(e, &EraseOptions{RestoreEmpty: x.restore})
		if x.refused != "" {
			if err == nil || err.Error() != x.refused {
				t.Errorf("%s\n  erases to %q (error %v)\n  want the error %q", x.typed, got, err, x.refused)
			}
			continue
		}
		if err != nil || got != x.erased {
			t.Errorf("%s\n  erases to %q (error %v)\n  want %q", x.typed, got, err, x.erased)
			continue
		}
		st := NewDialectStats()
		if msg := PropDialectsAgree(c, st); msg != "" || st.Erased != 1 {
			t.Errorf("%s: the property fails: %s\n%s", x.typed, msg, st.Report())
		}
	}
}

// The erasure on written programs: one per rule of erase.go, with what it
// writes (or why it refuses), and the property on each.
var remoraErasures = []struct {
	typed, erased, refused string
	restore                bool // erase with RestoreEmpty
}{
	{typed: "(+ [1 2 3] 10)", erased: "(+ [1 2 3] 10)"},
	{typed: "(let [x [1. 2.]] (*. x x))", erased: "(let ((x [1.0 2.0])) (*. x x))"},
	{typed: "((fn ([v [int 3]]) (reduce{int | 2 [] []} + v)) [[1 2 3] [4 5 6]])",
		erased: "((λ ((v 1)) ((λ ((a1 0) (a2 1)) (head (reverse (iscan a1 a2)))) + v)) [[1 2 3] [4 5 6]])"},
	{typed: "(append{int | 2 1 [2]} [[1 2] [3 4]] [[5 6]])",
		erased: "((λ ((a1 2) (a2 2)) (append a1 a2)) [[1 2] [3 4]] [[5 6]])"},
	{typed: "(reduce-init{int | 2 [3] []} + 0 [[1 2 3] [4 5 6]])",
		erased: "((λ ((a1 0) (a2 0) (a3 2)) (head (reverse (scan a1 a2 a3)))) + 0 [[1 2 3] [4 5 6]])"},
	{typed: "iota{ | [2 3]}", erased: "(iota [2 3])"},
	{typed: "(if{int | } [#t #f] 1 [2 3])", erased: "(if [#t #f] 1 [2 3])"},
	{typed: "(index{int | [2] [] 1} [[1 2] [3 4]] [1])",
		erased: "((λ ((a1 1) (a2 1)) (index a1 a2)) [[1 2] [3 4]] [1])"},
	{typed: "(subvector{int | 4 2 []} [1 2 3 4] 1)",
		erased: "((λ ((a1 1) (a2 0)) (subvector a1 a2 2)) [1 2 3 4] 1)"},
	{typed: "(reshape [2 2] [1 2 3 4])", erased: "(reshape [2 2] [1 2 3 4])"},
	{typed: "(frame [0] [float 3])", erased: "(array [0 3])"},
	{typed: "(frame [0] [float 3])", restore: true, erased: "(reshape [0 3] (behead [0.]))"},
	{typed: "(let [length 5] (+ length 1))", erased: "(let ((length_1 5)) (+ length_1 1))"},
	{typed: "(let [lambda 2] (* lambda 3))", erased: "(let ((lambda_1 2)) (* lambda_1 3))"},
	{typed: "(unbox (filter{int | 4 []} [1 2 3 4] [#t #f #t #t]) (x k) (+ (reify-dimension k) (length{int | k []} x)))",
		erased: "(unbox x ((λ ((a1 1) (a2 1)) (box (filter a2 a1))) [1 2 3 4] [#t #f #t #t]) (let ((k_1 (index (shape-of x) [0]))) (+ k_1 ((λ ((a1 1)) (length a1)) x))))"},
	{typed: "(unbox [(box (2) (Sigma (d) [int d]) [1 2]) (box (1) (Sigma (d) [int d]) [3])] (x d) (reduce-init{int | d [] []} + 0 x))",
		erased: "((λ ((box_1_1 0)) (unbox x box_1_1 ((λ ((a1 0) (a2 0) (a3 1)) (head (reverse (scan a1 a2 a3)))) + 0 x))) [(box [1 2]) (box [3])])"},
	{typed: "(define (f{ | n} [x [int n 2]]) (replicate{int | [n] []} 7)) (f{ | 3} [[1 2] [3 4] [5 6]])",
		erased: "(let ((f (λ ((x 2)) (let ((n_1 (index (shape-of x) [0]))) ((λ ((a1 0)) (replicate [n_1] a1)) 7))))) (f [[1 2] [3 4] [5 6]]))"},
	{typed: "(lift [d 3] iota{ | [d]})",
		erased: "(let ((d_1 3)) (let ((ok_2 (reshape [d_1 0] (array [0])))) (box (iota [d_1]))))"},
	{typed: "(define (f{ | n} [x int]) (replicate{int | [n] []} x)) (f{ | 2} 5)",
		refused: "not erasable: index variable needed as a number — replicate at n (n has no term)"},
	{typed: "(define (f{ | @s} [x [int @s]]) x) (f{ | [2]} [1 2])",
		refused: "not erasable: parameter with a Shape variable — [x [int @s]] has no static rank"},
	{typed: "(let [g reverse] (g{int | 2 []} [1 2]))",
		refused: "not erasable: polymorphic primitive used bare — reverse : (Pi (l @c) (Forall (t) (-> ([t l @c]) [t l @c])))"},
	{typed: "(let [f (i-fn (n) (reify-dimension n))] f{ | 3})",
		refused: "not erasable: abstraction over a non-value — (reify-dimension n)"},
}
