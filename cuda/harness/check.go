package harness

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/semantics"
)

// The backends gpu-check runs the programs on.
const (
	Sim  = "sim"  // gpu-sim
	Host = "host" // clang++-14 for the host, with the sanitizers (after clang's PTX compile)
	Nvcc = "nvcc" // nvcc, on a GPU
)

// Row is one line of gpu-check's report: a program on one input (or its
// build), the backend, the verdict ("ok", "DISAGREE", "BUILD FAILED",
// "skip") and what it was about.
type Row struct {
	File, Input, Backend, Verdict, Detail string
	Time                                  time.Duration
}

// Check runs every program on every input of its test block with the
// backend, building in dir, and judges each run against the IMP
// interpreter (Interpret): gpu-sim's by SimVerdict, a built program's by
// CompareWithin. Floats agree within semantics.FloatReassociationBound
// where a program re-associates a float fold, unless exactFloats. bad
// counts the rows that disagree or failed to build.
func Check(ps []*Program, backend, dir string, exactFloats bool) (rows []Row, bad int) {
	for i, p := range ps {
		var bin string
		var prog *gpusim.Program
		var buildErr error
		start := time.Now()
		switch backend {
		case Sim:
			prog, buildErr = gpusim.Parse(p.Name+".cu", p.CUDA)
		case Host:
			if _, buildErr = cuda.Build(cuda.PTXCommand, p.CUDA, dir, fmt.Sprint("p", i), ".ptx"); buildErr == nil {
				bin, buildErr = cuda.Build(cuda.HostCommand, p.CUDA, dir, fmt.Sprint("p", i), "")
			}
		case Nvcc:
			bin, buildErr = cuda.Build(cuda.NvccCommand, p.CUDA, dir, fmt.Sprint("p", i), "")
		default:
			buildErr = fmt.Errorf("no backend %q (%s, %s or %s)", backend, Sim, Host, Nvcc)
		}
		if buildErr != nil {
			bad++
			rows = append(rows, Row{File: p.Name, Backend: backend, Verdict: "BUILD FAILED", Time: time.Since(start), Detail: firstLine(buildErr.Error())})
			continue
		}
		for _, a := range p.Cases {
			args := Args(a)
			want := Interpret(p.Imp, a)
			row := Row{File: p.Name, Input: strings.Join(args, " "), Backend: backend}
			start := time.Now()
			switch {
			case backend == Sim:
				out, _, err := gpusim.Run(prog, args, gpusim.Options{Fuel: semantics.DefaultBigFuel}) // every run is bounded
				row.Verdict, row.Detail = SimVerdict(want, out, err, p.Reassociates && !exactFloats)
			case want.Race:
				row.Verdict, row.Detail = "skip", "a race: only gpu-sim checks races"
			default:
				row.Verdict, row.Detail = CompareWithin(want, cuda.Exec(bin, args, 5*time.Minute), p.Reassociates && !exactFloats)
			}
			row.Time = time.Since(start)
			if row.Verdict == "DISAGREE" {
				bad++
			}
			rows = append(rows, row)
		}
	}
	return rows, bad
}

// SimVerdict judges a gpu-sim run against the interpreter's: "ok" (and
// "race found" when both find one, or gpu-sim's message when both go
// wrong, as a built program's row shows its own), Reassociated when
// reassoc and the floats differ within the bound only, or "DISAGREE"
// with what differs.
func SimVerdict(want Expect, out string, err error, reassoc bool) (verdict, detail string) {
	var se *gpusim.Error
	switch {
	case want.Race:
		if !errors.As(err, &se) || se.Kind != "race" {
			return "DISAGREE", fmt.Sprintf("the interpreter finds a race; gpu-sim: %v", err)
		}
		return "ok", "race found"
	case want.Status != 0:
		if !errors.As(err, &se) || se.ExitStatus() != want.Status {
			return "DISAGREE", fmt.Sprintf("the interpreter: %s; gpu-sim: %q %v", want.Err, out, err)
		}
		return "ok", se.Error()
	case err == nil && out != strings.Join(want.Lines, "\n")+"\n" && reassoc && semantics.CloseLines(want.Lines, strings.Split(strings.TrimSuffix(out, "\n"), "\n")):
		return Reassociated, semantics.FloatReassociationWithin
	case err != nil || out != strings.Join(want.Lines, "\n")+"\n":
		return "DISAGREE", fmt.Sprintf("the interpreter: %q; gpu-sim: %q %v", want.Lines, out, err)
	}
	return "ok", ""
}
