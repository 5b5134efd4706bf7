package gpusim

import (
	"errors"
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/semantics"
)

// Simulator is gpu-sim as the CUDA level runs its programs
// (cuda.NewLanguage): it reads emitted files back and runs them in order.
var Simulator cuda.Simulator = simulator{}

type simulator struct{}

func (simulator) Read(file, src string) (cuda.Simulated, error) {
	p, err := Parse(file, src)
	return readBack(file, p, err)
}

// ReadParts is Read of the file head + cuda.Prelude + rest
// (cuda.PartsReader).
func (simulator) ReadParts(file, head, rest string) (cuda.Simulated, error) {
	p, err := ParseParts(file, head, rest)
	return readBack(file, p, err)
}

// readBack is what Read and ReadParts give for what they parsed.
func readBack(file string, p *Program, err error) (cuda.Simulated, error) {
	if err != nil {
		// Under the source's name (the driver adopting an emitted
		// file), a line of the .cu file is said as one.
		var e *Error
		if errors.As(err, &e) && !strings.HasSuffix(file, ".cu") && e.Pos.Line != 0 {
			e.Source = semantics.Pos{File: file}
			e.Msg += fmt.Sprintf(" (at line %d of the emitted CUDA)", e.Pos.Line)
		}
		return nil, toSemantics(err)
	}
	return simulated{p}, nil
}

// simulated is a parsed program as the CUDA level runs it.
type simulated struct{ p *Program }

func (s simulated) Name() string       { return s.p.Name }
func (s simulated) Text() string       { return s.p.Text() }
func (s simulated) Tables() *cuda.File { return s.p.File }
func (s simulated) Program() *Program  { return s.p }
func (s simulated) Run(args []string, stats *semantics.Stats, fuel int) ([]string, error) {
	f := int64(fuel)
	if f <= 0 { // every run is bounded
		f = semantics.DefaultBigFuel
	}
	out, st, err := Run(s.p, args, Options{MaxElems: semantics.MaxHeap, Stats: stats != nil, Fuel: f})
	if stats != nil && st != nil {
		*stats = st.Costs
	}
	if err != nil {
		return nil, toSemantics(err)
	}
	if out == "" {
		return nil, nil
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n"), nil
}

// toSemantics gives a simulator error the kind the driver compares: a
// race, a stuck state, an overflow, running out of fuel, bad input or an
// unsupported file; it prints as gpu-sim prints it.
func toSemantics(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	return e.semantics()
}
