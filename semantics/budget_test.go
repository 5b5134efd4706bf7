package semantics

import (
	"strings"
	"sync"
	"testing"
)

// TestBudget: a budget allows its fuel's iterations and no more, says
// where and by which rule it ran out, gives back what a refused spend
// asked for, and counts spends from many goroutines exactly.
func TestBudget(t *testing.T) {
	pos := Pos{File: "p.fun", Line: 4, Col: 3}
	b := NewBudget(10)
	if err := b.Spend(7, pos, "E-KERNEL"); err != nil {
		t.Fatalf("7 of 10: %v", err)
	}
	err := b.Spend(4, pos, "E-KERNEL")
	if e, ok := err.(*Error); !ok || e.Kind != FuelError || e.Rule != "E-KERNEL" || e.Pos != pos ||
		!strings.Contains(e.Msg, "4 more iterations would take the run past its fuel of 10 iterations") {
		t.Fatalf("11 of 10: %v", err)
	}
	if b.Used() != 7 {
		t.Fatalf("a refused spend kept its iterations: used %d", b.Used())
	}
	for range 3 {
		if err := b.Spend(1, pos, "E-LOOP"); err != nil {
			t.Fatalf("up to 10: %v", err)
		}
	}
	if err := b.Spend(1, pos, "E-LOOP"); err == nil || !strings.Contains(err.Error(), "E-LOOP: out of fuel after 10 iterations") {
		t.Fatalf("the 11th: %v", err)
	}
	if NewBudget(0).Fuel() != DefaultBigFuel {
		t.Fatalf("fuel 0 is not the default")
	}
	var none *Budget
	if err := none.Spend(1<<62, pos, "E-LOOP"); err != nil {
		t.Fatalf("a nil budget refused: %v", err)
	}
	par := NewBudget(1000)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				_ = par.Spend(1, pos, "E-LOOP")
			}
		}()
	}
	wg.Wait()
	if par.Used() != 1000 {
		t.Fatalf("1600 spends of 1 against 1000: used %d", par.Used())
	}
}

// TestInterrupt: once the process is interrupted, a big-step's next
// spend and a small-step's next step stop with an InterruptError saying
// where and after how much (exit status 130); ResetInterrupt lets runs
// go on. Not parallel: the flag is the process's.
func TestInterrupt(t *testing.T) {
	pos := Pos{File: "p.fun", Line: 4, Col: 3}
	b := NewBudget(0)
	if err := b.Spend(41, pos, "E-KERNEL"); err != nil {
		t.Fatal(err)
	}
	Interrupt()
	defer ResetInterrupt()
	err := b.Spend(1, pos, "E-LOOP")
	if e, ok := err.(*Error); !ok || e.Kind != InterruptError || e.Kind.ExitStatus() != 130 || e.Error() != "p.fun:4:3: E-LOOP: interrupted after 41 iterations" {
		t.Errorf("big-step: %v", err)
	}
	_, steps, err := (&Driver[int]{Machine: countdown{}, Pos: pos}).Run(5)
	if e, ok := err.(*Error); !ok || e.Kind != InterruptError || steps != 0 || e.Error() != "p.fun:4:3: interrupted after 0 steps" {
		t.Errorf("small-step: %v after %d steps", err, steps)
	}
	ResetInterrupt()
	if err := b.Spend(1, pos, "E-LOOP"); err != nil {
		t.Errorf("after ResetInterrupt: %v", err)
	}
}
