//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSpecialFiles: a named pipe given as a program, a CUDA file, a
// directory's file or a report is refused with one line naming it, where
// test, gpu-check and the REPL's :load waited forever for a writer
// (issue 32); so is /dev/zero, which was read until the watchdog fired.
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.fun")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	cu := filepath.Join(dir, "y.cu")
	if err := syscall.Mkfifo(cu, 0o644); err != nil {
		t.Fatal(err)
	}
	const why = ": a named pipe, not a regular file"
	for _, c := range []struct {
		args   []string
		status int
		out    string // on stdout or stderr
	}{
		{[]string{"run", fifo}, 2, fifo + why},
		{[]string{"check", fifo}, 2, fifo + why},
		{[]string{"compile", fifo, "--to", "cuda"}, 2, fifo + why},
		{[]string{"side-by-side", fifo}, 2, fifo + why},
		{[]string{"gpu-sim", cu}, 2, cu + why},
		{[]string{"test", dir}, 1, fifo + why},
		{[]string{"gpu-check", dir}, 2, why},
		{[]string{"prove", "--merge", fifo}, 2, fifo + why},
		{[]string{"run", "/dev/zero", "--lang", "fun"}, 2, "/dev/zero: a character device, not a regular file"},
	} {
		out, errs, status := run(t, c.args...)
		if status != c.status || !strings.Contains(out+errs, c.out) {
			t.Errorf("%v: status %d, want %d with %q\n%s%s", c.args, status, c.status, c.out, out, errs)
		}
	}
	saved := stdin
	defer func() { stdin = saved }()
	stdin = strings.NewReader(":load " + fifo + "\n")
	if out, errs, status := run(t, "repl"); status != 1 || !strings.Contains(out+errs, fifo+why) {
		t.Errorf("repl :load of a named pipe: status %d\n%s%s", status, out, errs)
	}
}
