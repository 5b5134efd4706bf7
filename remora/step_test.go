package remora

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// checkedExprs parses and checks a program and returns its expressions,
// elaborated, with their types.
func checkedExprs(t *testing.T, src string) ([]Expr, []*Arr) {
	t.Helper()
	p, _, err := ParseFile("step.remora", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	info, err := Check(p, nil)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	return p.Exprs, info.Types
}

// checkedExpr is checkedExprs of a program with one result.
func checkedExpr(t *testing.T, src string) (Expr, *Arr) {
	t.Helper()
	es, ts := checkedExprs(t, src)
	if len(es) != 1 {
		t.Fatalf("want one result, got %d", len(es))
	}
	return es[0], ts[0]
}

// runBoth runs e by the small-step (counting its rules) and the
// big-step semantics.
func runBoth(e Expr) (small *Value, rules semantics.Counter, serr error, big *Value, berr error) {
	rules = semantics.Counter{}
	small, _, serr = RunSmall(e, &semantics.RunOptions{Counter: rules})
	big, berr = EvalExpr(e, nil)
	return
}

// TestStepRules is one case (or more) per small-step rule of Fig 6: the
// small-step must apply the rule, and both semantics must give the value
// the paper's rules do.
func TestStepRules(t *testing.T) {
	for _, tc := range []struct {
		rule, src, want string
	}{
		// lift: the lower-ranked frames' cells are replicated.
		{"lift", "(+ [1 2] [[3 4 5] [6 7 8]])", "[[4 5 6] [8 9 10]]"},
		{"lift", "(* 2 [1 2 3])", "[2 4 6]"},
		{"lift", "([+ -] [[1 2] [3 4]] 1)", "[[2 3] [2 3]]"},
		{"lift", "((fn ([x [int 3]]) (reduce{int | 2 [] []} + x)) [[1 2 3] [4 5 6]])", "[6 15]"},
		// map: a frame of applications to cells.
		{"map", "(+ [1 2 3] [10 20 30])", "[11 22 33]"},
		{"map", "([(fn ([x int]) x) (fn ([y int]) (+ y 1))] [10 20])", "[10 21]"},
		{"map", "(+ (frame [0] int) 1)", "[]"},
		{"map", "((frame [0] (-> (int) int)) 5)", "[]"},
		{"map", "((frame [2 0] (-> ([int 3]) int)) [1 2 3])", "[[] []]"},
		{"map", "(not [#t #f])", "[#f #t]"},
		// β: a λ applied to its cells.
		{"β", "((fn ([x int]) (+ x 1)) 41)", "42"},
		{"β", "((fn ([x [int 3]] [y int]) (* x y)) [1 2 3] 2)", "[2 4 6]"},
		{"β", "(let [x 5] (let [y [1 2]] (+ x y)))", "[6 7]"},
		{"β", "(define (f [x int]) (define y (* x x)) (+ y 1))\n(f [1 2 3])", "[2 5 10]"},
		// δ: primitives on cells, and the reduce family unfolding.
		{"δ", "(+ 1 2)", "3"},
		{"δ", "(/. 1. [0. -0. 4.])", "[+inf.0 -inf.0 0.25]"},
		{"δ", "(reduce{int | 2 [] []} - [10 2 3])", "5"},
		{"δ", "(fold-right{int int | 3 [] []} - 0 [1 2 3])", "2"},
		{"δ", "(scan-init{int | 2 [2] []} + 0 [[1 2] [3 4]])", "[[0 0] [1 2] [4 6]]"},
		{"δ", "(reduce{int | 2 [] [2]} (fn ([a [int 2]] [b [int 2]]) (+ a b)) [[1 2] [3 4] [5 6]])", "[9 12]"},
		{"δ", "iota{ | [2 3]}", "[[0 1 2] [3 4 5]]"},
		{"δ", "(reify-shape [2 3])", "[2 3]"},
		{"δ", "(reshape [3 2] [[1 2 3] [4 5 6]])", "[[1 2] [3 4] [5 6]]"},
		{"δ", "(append{char | 2 3 []} \"ab\" \"cde\")", `"abcde"`},
		{"δ", "(if{float | } (< [1 2 3] 2) [1.5 2. 3.] 0.)", "[1.5 0.0 0.0]"},
		// collapse: a frame of arrays becomes one array.
		{"collapse", "[[1 2] (+ [1 2] 1)]", "[[1 2] [2 3]]"},
		{"collapse", "(frame [2 2] [1 2] [3 4] [5 6] (+ [7 8] 0))", "[[[1 2] [3 4]] [[5 6] [7 8]]]"},
		{"collapse", "(tail{int | 2 []} [[1 2 3] [4 5 6]])", "[[2 3] [5 6]]"},
		// Tβ: a type abstraction or a primitive instantiated.
		{"Tβ", "((t-app (t-fn (a) (fn ([x a]) x)) int) 5)", "5"},
		{"Tβ", "((t-app (t-fn (a) (fn ([x [a 2]]) (reverse{a | 2 []} x))) char) \"ab\")", `"ba"`},
		{"Tβ", "(if{int | } [#t #f] [1 2] [3 4])", "[1 4]"},
		// Iβ: an index abstraction or a primitive instantiated.
		{"Iβ", "((i-app (i-fn (d) (fn ([x [int d]]) (reify-dimension d))) 3) [[1 2 3] [4 5 6]])", "[3 3]"},
		{"Iβ", "(length{int | 3 [2]} [[1 2] [3 4] [5 6]])", "3"},
		{"Iβ", "(define (sum{ | d @c} [x [int d @c]]) (reduce-init{int | d @c []} + 0 x))\n(sum{ | 2 [3]} [[1 2 3] [4 5 6]])", "[5 7 9]"},
		// proj: a box opened.
		{"proj", "(unbox (box (3) (Sigma (d) [int d]) [1 2 3]) (x d) (length{int | d []} x))", "3"},
		{"proj", "(unbox (boxes (d) [int d] [2] ((1) [5]) ((2) [6 7])) (x d) (reduce-init{int | d [] []} + 0 x))", "[5 13]"},
		{"proj", "(unbox (filter{int | 3 []} [1 2 3] [#t #f #t]) (x d) (reduce-init{int | d [] []} + 0 x))", "4"},
		{"proj", "(unbox (box ([2 2]) (Sigma (@s) [int @s]) [[1 2] [3 4]]) (x @s) (box (@s) (Sigma (@t) [int @t]) (+ x 1)))", "(box ([2 2]) [[2 3] [4 5]])"},
		// lift-dim: a run-time int as a dimension.
		{"lift-dim", "(lift [n 3] iota{ | [n]})", "(box (3) [0 1 2])"},
		{"lift-dim", "(lift [n [0 2]] iota{ | [n]})", "[(box (0) []) (box (2) [0 1])]"},
		{"lift-dim", "(unbox (lift [n (+ 1 2)] iota{ | [n 2]}) (x d) (reduce-init{int | d [2] []} + 0 x))", "[6 9]"},
	} {
		t.Run(tc.rule+"/"+tc.src, func(t *testing.T) {
			e, _ := checkedExpr(t, tc.src)
			small, rules, serr, big, berr := runBoth(e)
			if serr != nil || berr != nil {
				t.Fatalf("small-step: %v; big-step: %v", serr, berr)
			}
			if rules[tc.rule] == 0 {
				t.Errorf("the small-step did not apply %s (it applied %v)", tc.rule, rules)
			}
			if got := small.String(); got != tc.want {
				t.Errorf("small-step: %s, want %s", got, tc.want)
			}
			if got := big.String(); got != tc.want {
				t.Errorf("big-step: %s, want %s", got, tc.want)
			}
			if !small.Equal(big) {
				t.Errorf("the semantics disagree: small-step %s, big-step %s", small, big)
			}
		})
	}
}

// TestBigStepCounts checks that the big-step counts the rules of Fig 6
// its flat-array evaluation stands for.
func TestBigStepCounts(t *testing.T) {
	for _, tc := range []struct{ src, rules string }{
		{"(+ [1 2] [[3 4 5] [6 7 8]])", "lift map δ"},
		{"((fn ([x int]) (+ x 1)) 41)", "β δ"},
		{"((t-app (t-fn (a) (fn ([x a]) x)) int) 5)", "Tβ β"},
		{"(length{int | 3 []} [1 2 3])", "Iβ Tβ δ"},
		{"(unbox (box (3) (Sigma (d) [int d]) [1 2 3]) (x d) (length{int | d []} x))", "proj"},
		{"(lift [n 3] iota{ | [n]})", "lift-dim"},
		{"((fn ([x [int 2]]) x) [[1 2] [3 4]])", "map collapse β"},
	} {
		e, _ := checkedExpr(t, tc.src)
		c := semantics.Counter{}
		if _, err := EvalExpr(e, &EvalOptions{Counter: c}); err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		for _, r := range strings.Fields(tc.rules) {
			if c[r] == 0 {
				t.Errorf("%s: the big-step did not count %s (it counted %v)", tc.src, r, c)
			}
		}
	}
}

// TestStepStuck checks the ways a well-typed program may go wrong (a
// partial primitive outside its domain, δ; a negative dimension,
// lift-dim): both semantics stop with the same error, of the same rule, at
// the same place.
func TestStepStuck(t *testing.T) {
	for _, tc := range []struct{ rule, src, msg string }{
		{"δ", "(/ 1 0)", "division by zero"},
		{"δ", "(% 7 0)", "by zero"},
		{"δ", "(/ [1 2] [1 0])", "division by zero"},
		{"δ", "((fn ([x int]) (+ 1 (/ 10 x))) [5 0])", "division by zero"},
		{"δ", "(float->int +nan.0)", "float->int: +nan.0 is not in the range of int"},
		{"δ", "(float->int 1e300)", "integer overflow: float->int(1e+300) does not fit in 64 bits"},
		{"δ", "(+! 9223372036854775807 1)", "integer overflow: 9223372036854775807 + 1 does not fit in 64 bits"},
		{"δ", "(reduce{int | 2 [] []} *! [4294967296 4294967296 1])", "integer overflow: 4294967296 * 4294967296 does not fit"},
		{"δ", "(abs! -9223372036854775808)", "integer overflow: -9223372036854775808 * -1 does not fit"},
		{"δ", "(sqrt! -4.)", "sqrt!: -4.0 has no real result"},
		{"δ", "(subvector{int | 5 2 []} [1 2 3 4 5] 4)", "subvector: 2 items from position 4 of 5"},
		// Issue 32's campaign: offset + length wrapped, and the slice panicked.
		{"δ", "(subvector{int | 5 9223372036854775807 []} [1 2 3 4 5] 3)", "subvector: 9223372036854775807 items from position 3 of 5"},
		{"δ", "(scatter{int | 2 9223372036854775807 []} [1 2] [0 1])", "scatter: an array of shape [9223372036854775807] exceeds --max-memory"},
		{"δ", "(index{int | [2 3] [] 2} iota{ | [2 3]} [2 2])", "index: position [2 2] is outside the shape [2 3]"},
		{"δ", "(scatter{int | 3 2 []} [7 8 9] [0 1 2])", "scatter: item 2 goes to position 2"},
		{"δ", "(reduce{int | 2 [] []} / [1 0 3])", "division by zero"},
		{"δ", "(unbox (box (2) (Sigma (d) [int d]) [1 2]) (x d) (reduce-init{int | d [] []} / 100 (- x 1)))", "division by zero"},
		{"lift-dim", "(lift [n -1] 5)", "a dimension cannot be negative, got -1"},
		{"lift-dim", "(lift [n [1 -2]] 5)", "a dimension cannot be negative, got -2"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			e, _ := checkedExpr(t, tc.src)
			_, _, serr, _, berr := runBoth(e)
			var s, b *semantics.Error
			if !errors.As(serr, &s) || !errors.As(berr, &b) {
				t.Fatalf("want stuck errors, got small-step %v, big-step %v", serr, berr)
			}
			kind := semantics.StuckError
			if strings.HasPrefix(tc.msg, "integer overflow") {
				kind = semantics.OverflowError // a checked operator's refusal
			}
			for _, x := range []*semantics.Error{s, b} {
				if x.Kind != kind || x.Rule != tc.rule || !strings.Contains(x.Msg, tc.msg) || !x.Pos.IsValid() {
					t.Errorf("want stuck in %s: …%s…, got %s %s: %v", tc.rule, tc.msg, x.Kind, x.Rule, x)
				}
			}
			if s.Error() != b.Error() {
				t.Errorf("the semantics disagree: small-step %v, big-step %v", s, b)
			}
		})
	}
}

// TestStepFuel checks that the small-step stops when its fuel runs out.
func TestStepFuel(t *testing.T) {
	e, _ := checkedExpr(t, "(+ [1 2 3] [4 5 6])")
	_, n, err := RunSmall(e, &semantics.RunOptions{Fuel: 2})
	var se *semantics.Error
	if !errors.As(err, &se) || se.Kind != semantics.FuelError {
		t.Fatalf("want out of fuel, got %v after %d steps", err, n)
	}
	v, n, err := RunSmall(e, &semantics.RunOptions{Fuel: 100})
	if err != nil || v.String() != "[5 7 9]" || n != 5 {
		t.Fatalf("want [5 7 9] in 5 steps (lift, map, δ, δ, δ), got %v in %d: %v", v, n, err)
	}
}

// trace runs e by the small-step and returns each step's rule and term.
func trace(e Expr) ([]string, []Expr, *Value, error) {
	var rules []string
	var terms []Expr
	v, _, err := RunSmall(e, &semantics.RunOptions{OnStep: func(rule string, state any) {
		x := state.(Expr)
		rules = append(rules, rule)
		terms = append(terms, x)
	}})
	return rules, terms, v, err
}

// preserved checks Theorem 1 on a run: every intermediate term prints to a
// text that reads back, and both the term itself and what its text reads
// back to check at a type ≅ the program's. It returns the first failure.
func preserved(e Expr, want *Arr) error {
	rules, terms, _, err := trace(e)
	if err != nil {
		return err
	}
	for i, x := range terms {
		text := ExprString(x)
		where := fmt.Sprintf("after step %d (%s): %s", i+1, rules[i], text)
		if _, xt, _, err := CheckExpr(x, nil); err != nil {
			return fmt.Errorf("%s\ndoes not check: %v", where, err)
		} else if !Equal(xt, want) {
			return fmt.Errorf("%s\nhas type %s, the program %s", where, TypeString(xt), TypeString(want))
		}
		y, err := ParseExpr("step", text)
		if err != nil {
			return fmt.Errorf("%s\ndoes not read back: %v", where, err)
		}
		if _, yt, _, err := CheckExpr(y, nil); err != nil {
			return fmt.Errorf("%s\nreads back to a term that does not check: %v", where, err)
		} else if !Equal(yt, want) {
			return fmt.Errorf("%s\nreads back to a term of type %s, the program %s", where, TypeString(yt), TypeString(want))
		}
	}
	return nil
}

// TestStepPreservation checks Theorem 1's preservation on whole runs,
// and that the small-step's output reads back (arraysem step prints it).
func TestStepPreservation(t *testing.T) {
	for _, src := range []string{
		"(+ [1 2] [[3 4 5] [6 7 8]])",
		"((fn ([x [int 3]]) (reduce{int | 2 [] []} + x)) [[1 2 3] [4 5 6]])",
		"(define (f [x (Arr [int 3] [2])]) (+ x 1))\n(f (reshape [2 2 3] iota{ | [12]}))",
		"([(fn ([x int]) x) (fn ([y int]) (+ y 1))] [[10 20] [30 40]])",
		"(define (sum{ | d @c} [x [int d @c]]) (reduce-init{int | d @c []} + 0 x))\n(sum{ | 2 [3]} [[1 2 3] [4 5 6]])",
		"(scan-init{int | 2 [2] []} + 0 [[1 2] [3 4]])",
		"(trace-right{int int | 2 [] [2]} (fn ([x int] [acc [int 2]]) (- x acc)) [0 10] [1 2])",
		"(reduce{(-> (int) int) | 1 [] []} (fn ([f (-> (int) int)] [g (-> (int) int)]) f) [(fn ([x int]) x) (fn ([x int]) (+ x 1))])",
		"(unbox (boxes (d) [int d] [2] ((1) [5]) ((2) [6 7])) (x d) (reduce-init{int | d [] []} + 0 x))",
		"(unbox (filter{int | 3 []} [1 2 3] [#t #f #t]) (x d) (box (d) (Sigma (e) [int e]) (* x 2)))",
		"(lift [n [0 2]] iota{ | [n]})",
		"(unbox (lift [n (+ 1 2)] iota{ | [n 2]}) (x d) (reduce-init{int | d [2] []} + 0 x))",
		"((t-app (t-fn (a) (fn ([x [a 2]]) (reverse{a | 2 []} x))) char) [\"ab\" \"cd\"])",
		"(let [xs [[1 2] [3 4]]] (frame [2] (reshape [4] xs) (append{int | 2 2 []} [0 0] [1 1])))",
		"(if{bool | } [#t #f] (not [#t #t]) #t)",
		"(((fn ([n int]) (fn ([x int]) (+ x n))) [1 2]) [10 20])",
		"(define (compose{a b c | } [f (-> (b) c)] [g (-> (a) b)]) (fn ([x a]) (f (g x))))\n((compose{int int bool | } (fn ([x int]) (> x 2)) (fn ([x int]) (* x 2))) [1 2 3])",
		"(define f (i-fn (@s) (fn ([x [int @s]] [y [int @s 2]]) (+ x y))))\n((i-app f [3]) [1 2 3] [[1 1] [2 2] [3 3]])",
		"((fn ([x [float 0]]) x) (frame [2 0] float))",
	} {
		t.Run(src, func(t *testing.T) {
			e, ty := checkedExpr(t, src)
			if err := preserved(e, ty); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestStepPreservationEdges checks preservation (and that every step reads
// back) on runs that once broke it: a box of empty contents, binders that
// shadow variables of Γ's types (renamed apart by the checker), and empty
// arrays of functions and boxes made by a step (empty frames keep their
// atom type).
func TestStepPreservationEdges(t *testing.T) {
	for _, src := range []string{
		"(unbox (filter{int | 3 []} [1 2 3] [#f #f #f]) (x d) (length{int | d []} x))",
		"(define f (t-fn (a) (fn ([y a]) (t-app (t-fn (a) (fn ([z a]) y)) int))))\n(((t-app f bool) #t) 5)",
		"(define f (i-fn (d) (fn ([y [int d]]) (i-app (i-fn (d) (fn ([z [int d]]) y)) 3))))\n(((i-app f 2) [1 2]) [7 8 9])",
		"((frame [2 0] (-> ([int 3]) int)) [1 2 3])",
		"(frame [0] (Sigma (d) [int d]))",
		"(+ (frame [2 0] int) [1 2])",
		"(+ (frame [0] int) 1)",
	} {
		t.Run(src, func(t *testing.T) {
			e, ty := checkedExpr(t, src)
			if err := preserved(e, ty); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestShadowedIndexRejected: unbox's hidden d is a new variable, renamed
// apart from the d of y's type, so using it as y's length is a type error
// (it once captured the outer d and went wrong at run time).
func TestShadowedIndexRejected(t *testing.T) {
	p, _, err := ParseFile("shadow.remora", "(define f (i-fn (d) (fn ([y [int d]]) (unbox (box (3) (Sigma (e) [int e]) [1 2 3]) (x d) (length{int | d []} y)))))\n((i-app f 2) [10 20])")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Check(p, nil); err == nil || !strings.Contains(err.Error(), "T-APP") {
		t.Errorf("want a T-APP error, got %v", err)
	}
}

// TestStepOutputReadsBack checks, on a whole trace, that the printed
// terms are those arraysem step shows: the first is the program's first
// redex contracted, the last the value.
func TestStepOutputReadsBack(t *testing.T) {
	e, _ := checkedExpr(t, "(+ [1 2] [[3 4 5] [6 7 8]])")
	rules, terms, v, err := trace(e)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ rule, term string }{
		{"lift", "([[+ + +] [+ + +]] [[1 1 1] [2 2 2]] [[3 4 5] [6 7 8]])"},
		{"map", "[[(+ 1 3) (+ 1 4) (+ 1 5)] [(+ 2 6) (+ 2 7) (+ 2 8)]]"},
		{"δ", "[[4 (+ 1 4) (+ 1 5)] [(+ 2 6) (+ 2 7) (+ 2 8)]]"},
	}
	for i, w := range want {
		if i >= len(terms) || rules[i] != w.rule || ExprString(terms[i]) != w.term {
			t.Fatalf("step %d: want %s %s, got %s %s", i+1, w.rule, w.term, rules[i], ExprString(terms[i]))
		}
	}
	if last := ExprString(terms[len(terms)-1]); last != "[[4 5 6] [8 9 10]]" || v.String() != last {
		t.Errorf("last term %s, value %s; want [[4 5 6] [8 9 10]]", last, v)
	}
	if len(terms) != 8 {
		t.Errorf("want 8 steps (lift, map, 6 δ), got %d: %v", len(terms), rules)
	}
}

// TestBigSmallAgree runs programs by both semantics and compares the
// printed values, including values that are functions (closures too) and
// boxes.
func TestBigSmallAgree(t *testing.T) {
	for _, src := range []string{
		"(reduce-init{int | 2 [2] [2]} (fn ([a [int 2]] [b [int 2]]) (* a b)) [1 1] [[[1 2] [3 4]] [[5 6] [7 8]]])",
		"(rotate{int | 3 []} [1 2 3] [1 -1])",
		"(scatter{int | 3 4 []} [7 8 9] [3 0 1])",
		"(replicate{int | [2] [3]} [1 2 3])",
		"(filter{int | 2 [2]} [[1 2] [3 4]] [#f #t])",
		"(iscan{float | 2 [] []} *. [1.5 2. 3.])",
		"(trace{int int | 3 [] []} - 0 [1 2 3])",
		"[(fn ([x int]) x) (fn ([y int]) (+ y 1))]",
		"(reduce{(-> (int) int) | 1 [] []} (fn ([f (-> (int) int)] [g (-> (int) int)]) g) [(fn ([x int]) x) (fn ([x int]) (+ x 1))])",
		"reduce{int | 2 [] []}",
		"(t-app reduce{ | 2 [] []} int)",
		"(boxes (d) [int d] [2] ((1) [5]) ((2) [6 7]))",
		"(sqrt [4. 2.])",
		"(reshape [2 2] \"abcd\")",
		// Closures print with their environment under both.
		"(let [y 5] (fn ([x int]) (+ x y)))",
		"(t-app (t-fn (a) (fn ([x [a 2]]) (reverse{a | 2 []} x))) char)",
		"(i-app (i-fn (d) (fn ([x [int d]]) x)) 3)",
		"(let [y 5] [(fn ([x int]) (+ x y)) (fn ([x int]) x)])",
	} {
		t.Run(src, func(t *testing.T) {
			e, _ := checkedExpr(t, src)
			small, _, serr, big, berr := runBoth(e)
			if serr != nil || berr != nil {
				t.Fatalf("small-step: %v; big-step: %v", serr, berr)
			}
			if small.String() != big.String() || !small.Equal(big) {
				t.Errorf("the semantics disagree: small-step %s, big-step %s", small, big)
			}
		})
	}
}

// TestSmallStepCollapsesFrames checks that a frame whose cells are frames
// (a λ with vector results mapped over a frame) ends with collapse, and
// that collapsing empty arrays of functions keeps their type.
func TestSmallStepCollapsesFrames(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"((fn ([x [int 2]]) (+ x 1)) [[1 2] [3 4]])", "[[2 3] [4 5]]"},
		{"((fn ([x [int 2]]) (frame [0] (-> (int) int))) [[1 2] [3 4]])", "[[] []]"},
	} {
		e, typ := checkedExpr(t, tc.src)
		last := ""
		v, _, err := RunSmall(e, &semantics.RunOptions{Fuel: 1000, OnStep: func(rule string, state any) {
			c := state.(Expr)
			last = rule
			if _, nt, _, err := CheckExpr(c, nil); err != nil || !Equal(nt, typ) {
				t.Errorf("%s: after %s the configuration %s does not keep the type %s: %v", tc.src, rule, ExprString(c), TypeString(typ), err)
			}
		}})
		if err != nil || v.String() != tc.want || last != "collapse" {
			t.Errorf("%s: %v %v, last rule %s; want %s after collapse", tc.src, v, err, last, tc.want)
		}
	}
}

// TestStepMapAffordsItsFrame: the small-step's map makes a term per cell
// of its frame; a frame the run cannot afford is stuck in map, past
// --max-memory, before its cells are made (side-by-side of a reduce over
// iota of 10^8 made 12 GiB of terms and the whole table was stopped),
// while the big-step, which makes no terms, runs it.
func TestStepMapAffordsItsFrame(t *testing.T) {
	defer semantics.SetMaxMemory(semantics.MaxMemory())
	semantics.SetMaxMemory(1 << 20)
	e, _ := checkedExpr(t, "(reduce-init{int | 100000 [] []} + 0 (+ 1 iota{ | [100000]}))")
	_, _, serr, bv, berr := runBoth(e)
	var s *semantics.Error
	if !errors.As(serr, &s) || s.Rule != RuleMap.Name || !semantics.PastMaxMemory(serr) || !strings.Contains(s.Msg, "a frame of 100000 applications") {
		t.Errorf("small-step: want stuck in map past --max-memory, got %v", serr)
	}
	if berr != nil || bv == nil || bv.String() != "5000050000" {
		t.Errorf("big-step: %v, %v", bv, berr)
	}
	semantics.SetMaxMemory(semantics.DefaultMaxMemory)
	if _, _, serr, _, _ := runBoth(e); serr != nil {
		t.Errorf("under the default limit: %v", serr)
	}
}

// TestFoldAffordsItsItems: a fold cut into a Value (and, for the
// small-step, a term) per item is stuck in δ past --max-memory before the
// items are made (side-by-side of a reduce over iota of 10^8 stopped the
// whole table at 10 GiB), in the small-step, the rules as written and
// the engine's general path (a λ operator: the engine's scalar loop takes
// only primitives, and makes no items).
func TestFoldAffordsItsItems(t *testing.T) {
	defer semantics.SetMaxMemory(semantics.MaxMemory())
	semantics.SetMaxMemory(1 << 20)
	for _, src := range []string{
		"(reduce-init{int | 100000 [] []} + 0 iota{ | [100000]})",
		"(reduce{int | 99999 [] []} (fn ([a int] [b int]) (+ a b)) iota{ | [100000]})",
	} {
		e, _ := checkedExpr(t, src)
		_, _, serr, _, berr := runBoth(e)
		_, _, rerr := EvalRulesExpr(e, nil)
		for _, run := range []struct {
			sem string
			err error
		}{{"small", serr}, {"rules", rerr}} {
			var s *semantics.Error
			if !errors.As(run.err, &s) || s.Rule != RuleDelta.Name || !semantics.PastMaxMemory(run.err) || !strings.Contains(s.Msg, "the 100000 items of a fold") {
				t.Errorf("%s, %s: want stuck in δ past --max-memory, got %v", src, run.sem, run.err)
			}
		}
		if strings.Contains(src, "fn") && (berr == nil || !semantics.PastMaxMemory(berr)) {
			t.Errorf("%s, big: want stuck past --max-memory, got %v", src, berr)
		}
	}
}
