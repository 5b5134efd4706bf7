package gpusim_test

import (
	"math/rand"
	"slices"
	"testing"
	"time"

	gpusim "github.com/arraysem/arraysem/gpu-sim"
)

// TestMutatedFiles: 500 random mutations of the planted programs (a byte
// deleted, replaced by a token character or copied from elsewhere, near
// the program's end) neither panic gpu-sim nor run for long under fuel.
func TestMutatedFiles(t *testing.T) {
	planted := plantedAll(t)
	var names []string
	for n := range planted {
		names = append(names, n)
	}
	// Sorted, so that the seeded choices pick the same programs each run.
	slices.Sort(names)
	r := rand.New(rand.NewSource(1))
	for k := 0; k < 500; k++ {
		src := []byte(planted[names[r.Intn(len(names))]])
		for m := 0; m < 1+r.Intn(3); m++ {
			i := len(src) - 1 - r.Intn(3000)
			switch r.Intn(3) {
			case 0:
				src = append(src[:i], src[i+1:]...)
			case 1:
				src[i] = "0123456789(){};=-+*&!<>abc \n"[r.Intn(28)]
			case 2:
				j := len(src) - 1 - r.Intn(3000)
				src[i] = src[j]
			}
		}
		done := make(chan bool, 1)
		go func() {
			prog, err := gpusim.Parse("fuzz.cu", string(src))
			if err == nil {
				gpusim.Run(prog, []string{"n=3", "m=2"}, gpusim.Options{Block: 4, Fuel: 100000, MaxElems: 1 << 16})
			}
			done <- true
		}()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("mutant %d runs for more than 3s:\n%s", k, src[len(src)-3000:])
		}
	}
}
