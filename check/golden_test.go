package check

import (
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics/datafile"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // cases rendered, or an error substring
	}{
		{"outputs", "-- ==\n-- input { n=3 xs=[1 2 3] }\n-- output { 3 [1 2 3] }\nin (x)",
			"line 2 n=3 xs=[1 2 3] -> 3 [1 2 3] all"},
		{"no input", "-- ==\n-- output { [[1 2] [3 4]] }\nin (x)", "line 2 -> [[1 2] [3 4]] all"},
		{"error and semantics", "-- ==\n-- semantics: heap small\n-- input { n=0 }\n-- error: E-MEM-INDEX: index 1\n",
			"line 3 n=0 -> error E-MEM-INDEX: index 1 [heap small]"},
		{"block over lines", "-- ==\n-- input { a=[[1 2]\n--          [3 4]] }\n-- output { 1 }\n",
			"line 2 a=[[1 2] [3 4]] -> 1 all"},
		{"remora comments", ";; ==\n;; input { n=2 }\n;; output { [4 5 6] }\n(+ 1 2)", "line 2 n=2 -> [4 5 6] all"},
		{"load error", "-- ==\n-- error: T-SLICE: size variable q\nlet …", "load error T-SLICE: size variable q"},
		{"comment lines before", "-- a program\n-- that does things\n-- ==\n-- output { 1 }\nin (x)", "line 4 -> 1 all"},
		{"stops at code", "-- ==\n-- output { 1 }\nlet (x : int) = 1\n-- output { 2 }\n", "line 2 -> 1 all"},
		{"dangling input", "-- ==\n-- input { n=1 }\nin (x)", "input block without output or error"},
		{"unknown line", "-- ==\n-- expect { 1 }\n", "expected input, output, error: or semantics:"},
		{"bad regexp", "-- ==\n-- error: (\n", "missing closing )"},
		{"bad value", "-- ==\n-- output { [1 [2]] }\n", "irregular"},
		{"input from a data file", "-- ==\n-- input @ data/xs.in\n-- output { 6 }\n-- input { xs=@xs.bin }\n-- output { 7 }\n", "line 2 --data=data/xs.in -> 6 all; line 4 xs=@xs.bin -> 7 all"},
		{"input @ without a file", "-- ==\n-- input @\n-- output { 6 }\n", "line 2: input @ wants a data FILE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			comment := "--" // FUN's, or Remora's
			if strings.HasPrefix(tc.src, ";") {
				comment = ";"
			}
			spec, err := ParseSpec(tc.src, comment)
			var got string
			if err != nil {
				got = err.Error()
			} else {
				var parts []string
				if spec.LoadError != nil {
					parts = append(parts, "load error "+spec.LoadError.String())
				}
				for _, c := range spec.Cases {
					var args []string
					for _, k := range []string{datafile.DataArg, "n", "xs", "a"} {
						if v, ok := c.Args[k]; ok {
							args = append(args, k+"="+v)
						}
					}
					s := "line " + strconv.Itoa(c.Line) + " " + strings.Join(args, " ")
					if c.Error != nil {
						s += " -> error " + c.Error.String()
					} else {
						s += " -> " + strings.Join(c.Output, " ")
					}
					if c.Semantics == nil {
						s += " all"
					} else {
						s += " [" + strings.Join(c.Semantics, " ") + "]"
					}
					parts = append(parts, strings.Join(strings.Fields(s), " "))
				}
				got = strings.Join(parts, "; ")
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("ParseSpec:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
