package gpusim

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/imp"
)

// TestParseParts: reading an emitted file from the text around its
// prelude (ParseParts, as the CUDA level adopts a file) gives what Parse
// gives for its whole text: the same tables and functions, the same
// text, and the same errors at the same lines, of a file changed after
// the prelude or before it.
func TestParseParts(t *testing.T) {
	files, err := filepath.Glob("../examples/imp/*.imp")
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := imp.ParseFile(name, string(src))
		if err != nil || imp.Check(p, nil) != nil {
			continue // the examples of errors
		}
		f, err := cuda.Emit(p, cuda.Options{})
		if err != nil {
			continue
		}
		head, rest := f.Parts()
		whole := f.String()
		if head+cuda.Prelude+rest != whole {
			t.Fatalf("%s: the parts are not the file's text", name)
		}
		for _, c := range []struct{ head, rest string }{
			{head, rest},
			{head, rest + "\nint64_t x;\n"},
			{head, strings.Replace(rest, "{", "{ while", 3)},
			{head + "int x;\n", rest},
		} {
			want, werr := Parse("f.cu", c.head+cuda.Prelude+c.rest)
			got, gerr := ParseParts("f.cu", c.head, c.rest)
			switch {
			case (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error():
				t.Fatalf("%s: ParseParts gives the error %v, Parse %v", name, gerr, werr)
			case werr != nil:
				continue
			case !reflect.DeepEqual(got.File, want.File) || got.Text() != want.Text() || got.Text() != whole:
				t.Fatalf("%s: ParseParts reads another program than Parse", name)
			}
			read++
		}
	}
	if read < 10 {
		t.Errorf("%d files read: too few", read)
	}
}
