package funmem

import (
	"fmt"
	"maps"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// TestCheckerReused checks every chunk of testdata/check.txt twice with
// Check, whose checkers come back from earlier checks (passing, failing,
// in paper mode or not), and once with a new checker: the three must
// give the same verdict, types, derivation and rule counts.
func TestCheckerReused(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "check.txt"), "--", func(c *golden.Chunk) error {
		p, err := ParseFile(c.File, c.Src)
		if err != nil {
			return fmt.Errorf("the chunk does not parse: %v", err)
		}
		run := func(check func(*CheckOptions) (*Info, error)) (string, semantics.Counter) {
			counter := semantics.Counter{}
			info, err := check(&CheckOptions{Paper: c.Paper, Derive: true, Counter: counter})
			if err != nil {
				return "error " + err.Error() + "\n" + fmt.Sprint(semantics.PartialDerivation(err)), counter
			}
			return info.ResultString() + "\n" + info.Derivation.String(), counter
		}
		fresh, freshCount := run(func(o *CheckOptions) (*Info, error) { return newChecker().check(p, o) })
		for i := range 2 {
			got, count := run(func(o *CheckOptions) (*Info, error) { return Check(p, o) })
			if got != fresh {
				return fmt.Errorf("check %d with a reused checker gives\n%s\na new one\n%s", i+1, got, fresh)
			}
			if !maps.Equal(count, freshCount) {
				return fmt.Errorf("check %d with a reused checker counts %v, a new one %v", i+1, count, freshCount)
			}
		}
		return nil
	})
}
