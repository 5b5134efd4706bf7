package cuda

import (
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
)

// LanguageName is the CUDA level's name (compile --to cuda).
const LanguageName = "cuda"

// EmitPass is Emit as the registry's pass from IMP into CUDA; --arg
// values are compiled in as the program's defaults.
var EmitPass = lang.Pass{Name: "EmitCUDA", From: imp.Language.Name(), To: LanguageName,
	Doc:     "IMP → CUDA: a __global__ function per top-level kernel, one thread per iteration; host code that allocates, launches, checks and prints (package cuda)",
	Options: []lang.Option{{Name: "arg", Kind: lang.MapOption, Help: "an input's value NAME=VALUE compiled in as a default, where the level can hold one (CUDA; repeatable); NAME=@FILE compiles in the value a data file holds"}},
	Run: func(p any, o lang.Options) (any, []string, error) {
		f, err := Emit(p.(*imp.Program), Options{Defaults: o.Map("arg")})
		return f, nil, err
	}}
