package imp

import "testing"

// TestHoistedSums: sums of products in loop bodies whose invariant part is
// computed once per start of the loop (hoisted): invariant variables
// changed between starts by an outer loop, assigned in the body or a for
// inside it, a float or a block among the invariant or the varying
// terms, a scan's offset over its own index, undeclared variables, and
// overflowing offsets. Each must do what the small-step and the rules as written
// (EvalRules) do (results, errors, heaps, traces, rule counts).
func TestHoistedSums(t *testing.T) {
	head := "input n : int;\nvar m : mem;\nm <- alloc n * n + n;\nvar b : int;\nb <- 1;\nvar f : float;\nf <- 1.5;\n"
	for _, body := range []string{
		"kernel i <= n do kernel j <= n do m[i * n + j - n - 1] <- j done done",
		"kernel i <= n do kernel j <= n do var t : int; t <- m[i * n + j - n - 1]; m[j * n + i - n - 1] <- t done done",
		"for i <= n do b <- b + 1; kernel j <= n do m[b * 2 + i + j - 5] <- j done done",
		"for i <= n do kernel j <= n do m[b * i + j - 2] <- j done; b <- b + 1 done",
		"kernel i <= n do for j <= n do b <- b + j; m[b * 0 + i * n + j - n - 1] <- b done done",
		"kernel i <= n do for j <= n do m[b + i * n + j - n - 2] <- b; b <- j done done",
		"kernel i <= n do m[f * n + i - 1] <- 1 done",
		"kernel i <= n do kernel j <= n do m[f * i + j - 1] <- 1 done done",
		"kernel i <= n do m[m * 2 + i - 1] <- 1 done",
		"kernel i <= n do m[z * n + i - 1] <- 1 done",
		"kernel i <= n do var g : float; g <- 2.0; m[n * n + g - 1] <- 1 done",
		"kernel i <= n do m[n * 4611686018427387904 + 4611686018427387904 * n + i - 1] <- 1 done",
		"kernel i <= n do var c : int; c <- i; m[c * n + b - 1] <- c; m[n * b + c * 2] <- 1 done",
		"kernel i <= n do scan m[i * n + j - n - 1] <- 0 for j <= n do var y : int; y <- j * n + i - n yield y combine c, d do var e : int; e <- c + d * b - n yield e done done",
		"kernel i <= n do reduce b <- 0 for j <= n do var y : int; y <- m[i * n + j - n - 1] yield y combine c, d do var e : int; e <- c + d yield e done; m[i - 1] <- b done",
		"kernel i <= n do kernel j <= n - i do m[i * n + j * b - n - 1] <- j done done",
		"kernel i <= n do kernel j <= n do var x : int; x <- b * n; m[x * i + j - n - 2] <- j done done",
		"for i <= n do kernel j <= n do m[n * n + i * b - j - b] <- j done; f <- 2.5 done",
		// Copies whose write reuses the read's offset (sameOff).
		"kernel i <= n do kernel j <= n do var t : int; t <- m[i * n + j - n - 1]; m[i * n + j - n - 1] <- t + 1 done done",
		"var q : mem; q <- alloc 4; kernel i <= n do var t : int; t <- m[i * n - 1]; q[i * n - 1] <- t done",
		"kernel i <= n do var t : int; t <- m[i - 1]; z[i - 1] <- t done",
		"kernel i <= n do var t : int; t <- m[i - 1]; b[i - 1] <- t done",
		"kernel i <= n do var t : int; t <- m[n]; m[n] <- t done",
		"kernel i <= n do var t : int; t <- m[t + i]; m[t + i] <- t done",
		"kernel i <= n do var t : float; t <- m[i - 1]; m[i - 1] <- t done",
		"kernel i <= n do var t : int; t <- m[i - 1]; m[i - 1] <- f done",
		"kernel i <= n do var t : int; t <- m[i * n - n * n - 1]; m[i * n - n * n - 1] <- t done",
	} {
		src := head + body + ";\nreturn m : [n * n + n]\n"
		p, err := ParseFile("hoist.imp", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		big := agreeAll(t, p, map[string]string{"n": "3"})
		t.Logf("%s: %v", body, big.err)
		if t.Failed() {
			t.Fatalf("program:\n%s", src)
		}
	}
}
