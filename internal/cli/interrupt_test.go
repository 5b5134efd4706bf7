package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterrupt runs the arraysem command (this test binary, as a helper
// process running Command) on a loop of 10^18 iterations and sends it
// Ctrl-C: each semantics stops where it is with one line saying where and
// after how much (a small-step at the construct it would reduce next),
// and exit status 130; side-by-side stops its table so; gpu-sim stops at
// the statement it runs, named in the source.
func TestInterrupt(t *testing.T) {
	if args := os.Getenv("ARRAYSEM_INTERRUPT_HELPER"); args != "" {
		os.Exit(Command(strings.Split(args, "\x1f")))
	}
	if testing.Short() {
		t.Skip("starts processes and waits for them")
	}
	const src = "input (n : int)\nlet (z : int) = 0\nlet (s : int) = loop (x : int) = (z) for i <= n do\n    let (y : int) = x + i\n    in (y)\nin (s)\n"
	path := writeFile(t, "loop.fun", src)
	cu, _, status := run(t, "compile", "--to", "cuda", path)
	if status != 0 {
		t.Fatalf("compile: status %d", status)
	}
	cuPath := writeFile(t, "loop.cu", cu)
	forever := []string{"--arg", "n=1000000000000000000"}
	for _, tc := range []struct {
		args []string
		want string // a pattern of the one line on stderr, after the file's directory
	}{
		{[]string{"run", path, "--semantics", "big"}, `^loop\.fun:3:17: E-LOOP: interrupted after \d+ iterations$`},
		{[]string{"run", path, "--semantics", "small"}, `^loop\.fun:\d+:\d+: E-[A-Z-]+: interrupted after \d+ steps$`},
		{[]string{"side-by-side", path}, `^loop\.fun:3:17: E-LOOP: interrupted after \d+ iterations$`},
		{[]string{"gpu-sim", cuPath}, `^loop\.(fun|cu):\d+:\d+: gpu-sim interrupted: after \d+ steps$`},
	} {
		t.Run(tc.args[0]+strings.Join(tc.args[2:], ""), func(t *testing.T) {
			errs, status := interrupted(t, append(tc.args, forever...))
			errs = strings.ReplaceAll(errs, filepath.Dir(path)+string(filepath.Separator), "")
			if status != 130 || strings.Count(errs, "\n") != 1 || !regexp.MustCompile(tc.want).MatchString(strings.TrimSuffix(errs, "\n")) {
				t.Errorf("status %d, stderr %q; want 130 and one line like %s", status, errs, tc.want)
			}
		})
	}
}

// interrupted runs the command in a helper process, sends it SIGINT once
// it runs, and returns its stderr and exit status. A process that the
// signal ends before the command took it over (a busy machine) is run
// again with a longer wait.
func interrupted(t *testing.T, args []string) (string, int) {
	for _, wait := range []time.Duration{time.Second, 4 * time.Second} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestInterrupt$")
		cmd.Env = append(os.Environ(), "ARRAYSEM_INTERRUPT_HELPER="+strings.Join(args, "\x1f"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(wait)
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			continue
		}
		return stderr.String(), cmd.ProcessState.ExitCode()
	}
	t.Fatalf("arraysem %v: ended by the signal itself twice", args)
	return "", 0
}
