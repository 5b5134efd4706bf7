package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
)

// The CUDA backend's commands: compile --to cuda, gpu-sim and gpu-check.

// impOf is a loaded program in IMP: an IMP file as it is, a FUN or FUNMEM
// file through the compile path (FUN → FUNMEM → [MemoryExpand] → IMP).
func impOf(l *check.Loaded, expand bool, layout funmem.Layout) (*imp.Program, error) {
	if l.Imp != nil {
		return l.Imp, nil
	}
	st, err := check.Compile(l, check.CompileOptions{To: "imp", Expand: expand, Layout: layout})
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return st[len(st)-1].Imp, nil
}

// cudaText is an IMP program as one self-contained CUDA file.
func cudaText(p *imp.Program, defaults map[string]string) (string, error) {
	f, err := cuda.Emit(p, cuda.Options{Defaults: defaults})
	if err != nil {
		return "", err
	}
	return f.String(), nil
}

// toCuda tells whether compile's arguments ask for --to cuda.
func toCuda(args []string) bool {
	for i, a := range args {
		switch {
		case a == "--to=cuda" || a == "-to=cuda":
			return true
		case (a == "--to" || a == "-to") && i+1 < len(args) && args[i+1] == "cuda":
			return true
		}
	}
	return false
}

// cmdCompileCuda is compile FILE --to cuda [--expand] [--layout gpu|cpu]
// [--arg NAME=VALUE]...: the --arg values are compiled in as defaults.
func cmdCompileCuda(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	fs.String("to", "", "cuda")
	expand := fs.Bool("expand", false, "run MemoryExpand")
	layout := fs.String("layout", "gpu", "MemoryExpand's layout: gpu (coalesced) or cpu (a row per thread)")
	lang := fs.String("lang", "", "language")
	vals := argList{}
	fs.Var(vals, "arg", "an input's default NAME=VALUE (repeatable)")
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	lay, err := funmem.ParseLayout(*layout)
	if err != nil {
		return usageError{"compile: " + err.Error()}
	}
	l, err := load(pos[0], *lang, check.Options{})
	if err != nil {
		return err
	}
	p, err := impOf(l, *expand, lay)
	if err != nil {
		return err
	}
	text, err := cudaText(p, vals)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(stdout, text)
	return err
}

var _ = strings.TrimSpace
