package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestMemoryWatchdog: many arrays, each under --max-memory, that add up
// past it stop the process with exit 1 and a message (not an operating
// system's kill). The watchdog exits the process, so the test runs this
// test binary again as the arraysem command.
func TestMemoryWatchdog(t *testing.T) {
	if os.Getenv("ARRAYSEM_AS_COMMAND") != "" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		go watchMemory(os.Stderr)
		os.Exit(Main(args, os.Stdout, os.Stderr))
	}
	var src strings.Builder
	src.WriteString("input (n : int)\n")
	var names []string
	for i := range 40 {
		name := "a" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		src.WriteString("let (" + name + " : [n]) = iota n\n")
		names = append(names, name)
	}
	src.WriteString("in (" + strings.Join(names, ", ") + ")\n")
	file := filepath.Join(t.TempDir(), "many.fun")
	if err := os.WriteFile(file, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// 40 arrays of 2^20 words (8 MiB each, 320 MiB in all) under a 64 MiB
	// limit with 64 MiB of slack.
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryWatchdog$", "--", "run", file, "--arg", "n=1048576", "--max-memory", "64MiB")
	cmd.Env = append(os.Environ(), "ARRAYSEM_AS_COMMAND=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "past --max-memory 64.0 MiB; its largest allocation is an array of shape [1048576] (8.0 MiB): stopped") {
		t.Errorf("err %v, output:\n%s", err, out)
	}
}

// TestMaxMemoryFlag: every command that runs or compiles programs takes
// --max-memory (compile, gpu-sim, gpu-check and prove had none), and a
// size that wrapped to a negative limit (2^63 bytes) or was taken as 0
// (0.000001B) is refused (issue 32).
func TestMaxMemoryFlag(t *testing.T) {
	prog := writeFile(t, "p.fun", "input (n : int)\nlet (a : [n]) = iota n\nin (a)")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", prog, "--arg", "n=3", "--max-memory", "9223372036854775808"}, "is more than 4 EiB (2^62 bytes)"},
		{[]string{"run", prog, "--arg", "n=3", "--max-memory", "8EiB"}, "is more than 4 EiB"},
		{[]string{"run", prog, "--arg", "n=3", "--max-memory", "0.000001B"}, "is less than a byte"},
		{[]string{"compile", prog, "--to", "imp", "--max-memory", "0"}, "--max-memory: want a size"},
		{[]string{"gpu-sim", "x.cu", "--max-memory", "0"}, "--max-memory: want a size"},
		{[]string{"gpu-check", t.TempDir(), "--max-memory", "0"}, "--max-memory: want a size"},
		{[]string{"prove", "--n", "1", "--max-memory", "0"}, "--max-memory: want a size"},
	} {
		if _, errs, status := run(t, c.args...); status != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: status %d, %s", c.args, status, errs)
		}
	}
	defer setMemory(semantics.Bytes(semantics.DefaultMaxMemory))
	if out, errs, status := run(t, "compile", prog, "--to", "imp", "--max-memory", "64MiB"); status != 0 || !strings.Contains(out, "return") {
		t.Errorf("compile --max-memory 64MiB: status %d\n%s%s", status, out, errs)
	}
}
