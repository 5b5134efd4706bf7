package cli

import (
	"bufio"
	"flag"
	"io"
	"strings"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics/datafile"
)

// cmdDataset is dataset -g TYPE... [-s SEED] [-b] [--TYPE-bounds=LO:HI]:
// random values of the types, in order, written to stdout as a data file
// (text, or Futhark's binary format with -b), as futhark dataset writes
// them; run --data reads it.
func cmdDataset(_ *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("dataset", flag.ContinueOnError)
	var types typeList
	fs.Var(&types, "g", "generate a value of `TYPE`: sizes in brackets, then one of i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64, bool ([10000000]i64, [3][4]f32, i64; repeatable, written in order)")
	seed := fs.Uint64("s", 1, "the random generator's `SEED`: the same seed, types and bounds write the same file")
	fs.Uint64Var(seed, "seed", 1, "the same as -s")
	bin := fs.Bool("b", false, "write Futhark's binary data format (default: text, Futhark's literals)")
	fs.BoolVar(bin, "binary", false, "the same as -b")
	bounds := datafile.Bounds{}
	for _, p := range datafile.Prims {
		if p.Kind == 'b' {
			continue
		}
		def := "its whole range"
		switch {
		case p.Kind == 'f':
			def = "0:1"
		case p.Name == "u64":
			def = "0:9223372036854775807, the ints this project holds"
		}
		fs.Func(p.Name+"-bounds", "draw "+p.Name+" elements from `LO:HI` (default "+def+")", func(s string) error {
			r, err := datafile.ParseRange(p, s)
			bounds[p.Name] = r
			return err
		})
	}
	if _, err := parse(fs, args, 0, "no FILE (it writes the data set to stdout)"); err != nil {
		return err
	}
	if len(types) == 0 {
		return usageError{"dataset: say what to generate, -g TYPE (e.g. -g '[1000]i64' -g f64)"}
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	if err := datafile.Generate(w, types, *seed, bounds, *bin); err != nil {
		return err
	}
	return w.Flush()
}

// typeList collects repeated -g TYPE flags.
type typeList []datafile.Type

// String lists the types (flag.Value).
func (t *typeList) String() string {
	var s []string
	for _, ty := range *t {
		s = append(s, ty.String())
	}
	return strings.Join(s, " ")
}

// Set reads one TYPE.
func (t *typeList) Set(s string) error {
	ty, err := datafile.ParseType(s)
	if err != nil {
		return err
	}
	*t = append(*t, ty)
	return nil
}
