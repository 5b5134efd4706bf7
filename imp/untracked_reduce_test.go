package imp

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUntrackedReducesAgree runs random reduces and scans whose parts
// read an input block (at offsets that may be out of bounds), branch and loop,
// alone and inside a kernel, some of them writing a block as well (which
// keeps their tracker, and may race): engine, small-step and rules agree
// (agreeAll: results, errors, heaps, environments, traces, rule counts),
// and so do the engine with and without the plans (Options.NoRaceFreePlans).
// The reduces that write nothing must run untracked, and some scans.
func TestUntrackedReducesAgree(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(51, 52))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var sexp func(leaves []string, d int) string
	sexp = func(leaves []string, d int) string {
		if d == 0 || rng.IntN(3) == 0 {
			return pick(leaves...)
		}
		return "(" + sexp(leaves, d-1) + " " + pick("+", "-", "*", "/", "%", "<", "==") + " " + sexp(leaves, d-1) + ")"
	}
	// part writes statements over leaves that read xs_mem and may branch,
	// loop or write out_mem; its result is r.
	part := func(ind string, leaves []string, write bool) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%svar w : int;\n%sw <- xs_mem[%s];\n", ind, ind, sexp(leaves, 1))
		leaves = append(leaves, "w")
		fmt.Fprintf(&b, "%svar r : int;\n", ind)
		switch rng.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "%svar c : int;\n%sc <- %s;\n", ind, ind, sexp(leaves, 1))
			fmt.Fprintf(&b, "%sif c then r <- w else r <- %s fi;\n", ind, sexp(leaves, 2))
		case 1:
			fmt.Fprintf(&b, "%sr <- %s;\n%sfor k <= 2 do r <- r + %s done;\n", ind, sexp(leaves, 1), ind, sexp(leaves, 1))
		default:
			fmt.Fprintf(&b, "%sr <- %s;\n", ind, sexp(leaves, 2))
		}
		if write {
			fmt.Fprintf(&b, "%sout_mem[%s] <- r;\n", ind, sexp(leaves, 1))
		}
		return b.String()
	}
	untracked, tracked, scans, failed := 0, 0, 0, 0
	const programs = 300
	for k := range programs {
		write := k%4 == 3
		var b strings.Builder
		b.WriteString("input n : int;\ninput m : int;\ninput xs : [n] @ xs_mem;\n")
		b.WriteString("var out_mem : mem;\nout_mem <- alloc 4;\n")
		b.WriteString("var res_mem : mem;\nres_mem <- alloc m;\n")
		b.WriteString("var sc_mem : mem;\nsc_mem <- alloc n + 1;\n")
		nested := k%3 == 0
		ind := ""
		if nested {
			b.WriteString("kernel j <= m do\n")
			ind = "  "
		}
		scan := k%5 == 4
		if scan {
			// Into a block of its own, or the one it reads (a race, or
			// in place), at offsets one-to-one in i or not.
			fmt.Fprintf(&b, "%svar s : int;\n%sscan %s[%s] <- %s for i <= %s do\n", ind, ind, pick("sc_mem", "sc_mem", "xs_mem"), pick("i - 1", "n - i", "i", "i * 0"), pick("0", "1", "-7"), pick("n", "m", "3"))
		} else {
			fmt.Fprintf(&b, "%svar s : int;\n%sreduce s <- %s for i <= %s do\n", ind, ind, pick("0", "1", "-7"), pick("n", "m", "3"))
		}
		b.WriteString(part(ind+"  ", []string{"i", "i - 1", "n", "1"}, write && rng.IntN(2) == 0))
		fmt.Fprintf(&b, "%s  yield r\n%scombine a, b do\n", ind, ind)
		b.WriteString(part(ind+"  ", []string{"a", "b", "0", "2"}, write))
		fmt.Fprintf(&b, "%s  yield r\n%sdone;\n", ind, ind)
		if nested {
			b.WriteString("  res_mem[j - 1] <- s;\ndone;\nreturn res_mem : [m]\n")
		} else {
			b.WriteString("return s\n")
		}
		src := b.String()
		p, err := ParseFile("reduce.imp", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		xs := make([]string, rng.IntN(5))
		for i := range xs {
			xs[i] = fmt.Sprint(rng.IntN(7) - 2)
		}
		args := map[string]string{"m": fmt.Sprint(rng.IntN(4)), "xs": "[" + strings.Join(xs, " ") + "]"}
		big := agreeAll(t, p, args)
		if t.Failed() {
			t.Fatalf("%v\n%s", args, src)
		}
		if big.err != nil {
			failed++
		}
		if c := countUntracked(p, args); scan {
			scans += c
		} else if write {
			tracked++
			if c > 0 {
				t.Fatalf("a reduce that writes ran untracked:\n%s", src)
			}
		} else {
			untracked += c
		}
	}
	t.Logf("%d reduces and %d scans ran untracked, %d programs write, %d of %d went wrong", untracked, scans, tracked, failed, programs)
	if untracked < programs/2 || scans < programs/20 || failed < programs/10 || programs-failed < programs/4 {
		t.Errorf("%d reduces ran untracked, %d of %d programs went wrong: too few to test both outcomes", untracked, failed, programs)
	}
}
