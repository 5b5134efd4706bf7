package dynamic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
)

// stepRun parses a program of one result and runs it by the small-step
// semantics with the relift guard of golden_test.go, returning the rules
// applied, the terms after each step, and the value printed.
func stepRun(t *testing.T, src string) (*smallRun, string, error) {
	t.Helper()
	p, _, err := ParseFile("step.remora", src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if len(p.Exprs) != 1 {
		t.Fatalf("%s: want one result, got %d", src, len(p.Exprs))
	}
	v, run, err := runSmall(p.Exprs[len(p.Exprs)-1], 10000, nil)
	if err != nil {
		return run, "", err
	}
	if run.printErr != nil {
		return run, "", run.printErr
	}
	return run, v.String(), nil
}

// TestStepRules checks the exact sequence of rules the small-step applies
// to the examples of §2 of "The semantics of rank polymorphism" (Figs 1-4)
// and to the binding and folding forms. A define is a let, so a program
// with definitions starts with one β per definition.
func TestStepRules(t *testing.T) {
	for _, tc := range []struct {
		name, src, rules, value string
	}{
		// Fig 1: lift replicates the cells (and the function), map makes
		// a frame of applications, δ computes each; scalar results of one
		// kind are a value, with no collapse.
		{"fig1 scalar", "(* [1 2 3] 10)", "lift map δ δ δ", "[10 20 30]"},
		{"fig1 column", "(+ [10 20 30] [[1 2] [3 4] [5 6]])", "lift map δ δ δ δ δ δ", "[[11 12] [23 24] [35 36]]"},
		{"fig1 dot", "(define (dot (xs 1) (ys 1)) (reduce + 0 (* xs ys)))\n(dot [10 20 30] [[1 2 3] [4 5 6]])",
			"β lift map " + // bind dot; replicate the vector; two applications
				"β lift map δ δ δ δ δ δ " + // first row: * lifted, reduce unfolded into a tree and summed
				"β lift map δ δ δ δ δ δ", // second row
			"[140 320]"},
		// Fig 2: the function-producing application is lifted (two β make
		// the two closures), then the function array maps pointwise.
		{"fig2 curry-add", "(define (curry-add (x 0)) (λ ((y 0)) (+ x y)))\n((curry-add [1 2]) [20 30])",
			"β lift map β β map β δ β δ", "[21 32]"},
		{"fig2 sum and length", "(define (sum (v 1)) (reduce + 0 v))\n(define (len (v 1)) (length v))\n([sum len] [8 9 6])",
			"β β lift map β δ δ δ β δ", "[23 3]"},
		// Fig 3: the reranked + takes vector cells; each row's sum is a
		// vector, so the frame of rows collapses.
		{"fig3 rerank", "((λ ((n 1) (m 1)) (+ n m)) [10 20] [[1 2] [3 4] [5 6]])",
			"lift map β lift map δ δ β lift map δ δ β lift map δ δ collapse", "[[11 22] [13 24] [15 26]]"},
		// Fig 4: the outer product: three rows of four products, collapsed.
		{"fig4 outer product", "((λ ((n 0) (m 1)) (* n m)) [1 10 100] [1 2 3 4])",
			"lift map β lift map δ δ δ δ β lift map δ δ δ δ β lift map δ δ δ δ collapse",
			"[[1 2 3 4] [10 20 30 40] [100 200 300 400]]"},
		// Frames of equal shape: the function alone is replicated.
		{"equal frames", "(+ [1 2] [10 20])", "lift map δ δ", "[11 22]"},
		{"scalar frame", "(+ 1 2)", "δ", "3"},
		{"let", "(let ((x [1 2])) (+ x 1))", "β lift map δ δ", "[2 3]"},
		{"let in order", "(let ((x 1) (y (+ x 1))) (* x y))", "β δ β δ", "2"},
		// unbox: the two box applications are δ; on the frame [2] of
		// boxes, map, then unbox each box and apply length.
		{"unbox over a frame", "(unbox v [(box [1 2]) (box [3 4 5])] (length v))", "δ δ map unbox δ unbox δ", "[2 3]"},
		{"unbox one box", "(unbox v (box [1 2]) (reverse v))", "δ unbox δ", "[2 1]"},
		// reduce unfolds in one δ into the tree (+ (+ 1 2) 3); the base
		// is not used, the array having items.
		{"reduce unfolding", "(reduce + 0 [1 2 3])", "δ δ δ", "6"},
		{"reduce tree", "(reduce + 0 [1 2 3 4 5])", "δ δ δ δ δ", "15"},
		{"reduce empty", "(reduce + 7 (array [0]))", "δ", "7"},
		// The rows are added, the + lifted.
		{"reduce rows", "(reduce + 0 [[1 2] [3 4]])", "δ lift map δ δ", "[4 6]"},
		// scan unfolds into a chain of links, one per application, each
		// computing its accumulator from the previous one (δ op, δ box, δ
		// append, β); the boxes of the trace open at the end (map, unbox
		// per accumulator).
		{"scan unfolding", "(scan + 0 [1 2])", "δ δ δ β δ δ δ β δ δ map unbox unbox unbox", "[0 1 3]"},
		{"fold with a λ", "(fold (λ ((a 0) (x 0)) (- a x)) 0 [1 2])", "δ β δ β δ", "-3"},
		{"frame collapse", "[(iota [2]) (iota [2])]", "δ δ collapse", "[[0 1] [0 1]]"},
		{"empty frame", "(+ (array [0]) 1)", "lift map", "[]"},
		{"empty map", "((λ ((x 0)) [x x]) (array [0]))", "lift map", "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, value, err := stepRun(t, tc.src)
			if err != nil {
				t.Fatalf("%v\nrules so far: %v", err, run.rules)
			}
			if got := strings.Join(run.rules, " "); got != tc.rules {
				t.Errorf("rules\n  %s\nwant\n  %s\nterms:\n  %s", got, tc.rules, strings.Join(run.terms, "\n  "))
			}
			if value != tc.value {
				t.Errorf("value %s, want %s", value, tc.value)
			}
		})
	}
}

// TestStepFigureTerms checks the terms the figures of §2 show after their
// lift and map steps: the lower-ranked frames replicated (Fig 1's
// underlined copies, Fig 2's replicated vector, Fig 4's three copies of
// the 4-vector), then the frame of applications. The function is
// replicated along with the arguments.
func TestStepFigureTerms(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      map[int]string // step number (from 1) → the term after it
	}{
		{"fig1 scalar", "(* [1 2 3] 10)", map[int]string{
			1: "([* * *] [1 2 3] [10 10 10])",
			2: "[(* 1 10) (* 2 10) (* 3 10)]",
		}},
		{"fig1 column", "(+ [10 20 30] [[1 2] [3 4] [5 6]])", map[int]string{
			1: "([[+ +] [+ +] [+ +]] [[10 10] [20 20] [30 30]] [[1 2] [3 4] [5 6]])",
			2: "[[(+ 10 1) (+ 10 2)] [(+ 20 3) (+ 20 4)] [(+ 30 5) (+ 30 6)]]",
		}},
		{"fig1 dot", "((λ ((xs 1) (ys 1)) (reduce + 0 (* xs ys))) [10 20 30] [[1 2 3] [4 5 6]])", map[int]string{
			1: "([(λ ((xs 1) (ys 1)) (reduce + 0 (* xs ys))) (λ ((xs 1) (ys 1)) (reduce + 0 (* xs ys)))] [[10 20 30] [10 20 30]] [[1 2 3] [4 5 6]])",
			2: "[((λ ((xs 1) (ys 1)) (reduce + 0 (* xs ys))) [10 20 30] [1 2 3]) ((λ ((xs 1) (ys 1)) (reduce + 0 (* xs ys))) [10 20 30] [4 5 6])]",
		}},
		{"fig2 curry-add", "(((λ ((x 0)) (λ ((y 0)) (+ x y))) [1 2]) [20 30])", map[int]string{
			4: "([(λ ((y 0)) (+ 1 y)) (λ ((y 0)) (+ 2 y))] [20 30])",
			5: "[((λ ((y 0)) (+ 1 y)) 20) ((λ ((y 0)) (+ 2 y)) 30)]",
		}},
		{"fig2 sum and length", "([(λ ((v 1)) (reduce + 0 v)) (λ ((v 1)) (length v))] [8 9 6])", map[int]string{
			1: "([(λ ((v 1)) (reduce + 0 v)) (λ ((v 1)) (length v))] [[8 9 6] [8 9 6]])",
			2: "[((λ ((v 1)) (reduce + 0 v)) [8 9 6]) ((λ ((v 1)) (length v)) [8 9 6])]",
		}},
		{"fig4 outer product", "((λ ((n 0) (m 1)) (* n m)) [1 10 100] [1 2 3 4])", map[int]string{
			1: "([(λ ((n 0) (m 1)) (* n m)) (λ ((n 0) (m 1)) (* n m)) (λ ((n 0) (m 1)) (* n m))] [1 10 100] [[1 2 3 4] [1 2 3 4] [1 2 3 4]])",
			2: "[((λ ((n 0) (m 1)) (* n m)) 1 [1 2 3 4]) ((λ ((n 0) (m 1)) (* n m)) 10 [1 2 3 4]) ((λ ((n 0) (m 1)) (* n m)) 100 [1 2 3 4])]",
			3: "[(* 1 [1 2 3 4]) ((λ ((n 0) (m 1)) (* n m)) 10 [1 2 3 4]) ((λ ((n 0) (m 1)) (* n m)) 100 [1 2 3 4])]",
			4: "[([* * * *] [1 1 1 1] [1 2 3 4]) ((λ ((n 0) (m 1)) (* n m)) 10 [1 2 3 4]) ((λ ((n 0) (m 1)) (* n m)) 100 [1 2 3 4])]",
		}},
		{"reduce unfolding", "(reduce + 0 [1 2 3])", map[int]string{
			1: "(+ (+ 1 2) 3)",
		}},
		{"reduce tree", "(reduce - 0 [1 2 3 4 5])", map[int]string{
			1: "(- (- (- 1 2) (- 3 4)) 5)",
		}},
		{"unbox over a frame", "(unbox v [(box [1 2]) (box [3 4 5])] (length v))", map[int]string{
			3: "[(unbox v (box [1 2]) (length v)) (unbox v (box [3 4 5]) (length v))]",
			4: "[(length [1 2]) (unbox v (box [3 4 5]) (length v))]",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, _, err := stepRun(t, tc.src)
			if err != nil {
				t.Fatal(err)
			}
			for n, want := range tc.want {
				if n > len(run.terms) {
					t.Errorf("step %d: the run has only %d steps", n, len(run.terms))
					continue
				}
				if got := run.terms[n-1]; got != want {
					t.Errorf("after step %d (%s):\n  %s\nwant\n  %s", n, run.rules[n-1], got, want)
				}
			}
		})
	}
}

// TestStepAgreesWithBigStep checks that the small-step reaches the value
// the big-step computes when a function of cell rank all is lifted over
// the frames of the other arguments: the argument is one whole cell,
// which lift does not replicate (its copies would be one bigger cell) and
// map hands whole to every cell. (A regression test: lift used to
// replicate such an argument again and again, forever or into wrong
// cells; an argument of rank below its cell rank, which did the same, is
// now an error, ERRATA R14.)
func TestStepAgreesWithBigStep(t *testing.T) {
	for _, tc := range []struct{ src, bug string }{
		{"(rotate [1 2 3] [0 1])", ""},
		{"(index [[1 2] [3 4]] [[0 1] [1 0]])", ""},
		{"(subvector [1 2 3 4] [0 1 2] 2)", ""},
		{"(reduce [+ *] 0 [1 2 3])", ""},
		{"((λ ((x all) (y 0)) (+ x y)) 5 [1 2])", ""},
		// A rank-all argument with no other frame, and a replicated
		// argument whose rank matches its parameter's.
		{"(rotate [1 2 3] 1)", ""},
		{"((λ ((x 1) (y 0)) (+ x y)) [5 6] [1 2])", ""},
		{"((λ ((m 2) (y 0)) (* m y)) [[1 2] [3 4]] [1 10])", ""},
	} {
		t.Run(tc.src, func(t *testing.T) {
			p, _, err := ParseFile("agree.remora", tc.src)
			if err != nil {
				t.Fatal(err)
			}
			big, err := EvalExpr(p.Exprs[0], nil)
			if err != nil {
				t.Fatalf("big-step: %v", err)
			}
			_, small, err := stepRun(t, tc.src)
			if err == nil && small != big.String() {
				err = fmt.Errorf("small-step gives %s, big-step %s", small, big)
			}
			golden.Verdict(t, tc.bug, tc.src, err)
		})
	}
}
