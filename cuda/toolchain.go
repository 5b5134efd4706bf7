package cuda

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/arraysem/arraysem/semantics/datafile"
)

// The commands the project fixes (docs/cuda.md) for checking an emitted file without a GPU,
// and nvcc's for a GPU. Each takes the .cu file and the output path last.
var (
	// PTXCommand compiles the device code to PTX with clang, without the SDK.
	PTXCommand = []string{"clang-14", "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_80", "-DARRAYSEM_NO_CUDA_SDK", "-S", "-o"}
	// HostCommand builds the whole program for the CPU, with the sanitizers.
	HostCommand = []string{"clang++-14", "-x", "c++", "-std=c++17", "-DARRAYSEM_HOST", "-fsanitize=address,undefined", "-pthread", "-o"}
	// NvccCommand builds the program for a GPU.
	NvccCommand = []string{"nvcc", "-std=c++17", "-O2", "-o"}
)

// Build writes src to dir/name.cu and runs cmd (one of the commands above)
// on it, producing dir/name plus ext; it returns the output's path, or the
// compiler's messages as the error.
func Build(cmd []string, src, dir, name, ext string) (string, error) {
	cu := filepath.Join(dir, name+".cu")
	if err := os.WriteFile(cu, []byte(src), 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(dir, name+ext)
	args := append(append(append([]string(nil), cmd[1:]...), out), cu)
	var msg bytes.Buffer
	c := exec.Command(cmd[0], args...)
	c.Stdout, c.Stderr = &msg, &msg
	if err := c.Run(); err != nil {
		return "", fmt.Errorf("%s: %v\n%s", strings.Join(append(cmd[:1:1], args...), " "), err, msg.String())
	}
	return out, nil
}

// Outcome is what a built program did: its output, its messages and its
// exit status (-1 when it did not finish in time).
type Outcome struct {
	Stdout, Stderr string
	Status         int
	Time           time.Duration
}

// Argv is the command line an emitted program takes for inputs held as
// --arg values are (lang.RunOptions.Args: NAME → VALUE or @FILE, and
// datafile.DataArg → the file of --data): --data FILE first, then the
// NAME=VALUE arguments, sorted.
func Argv(args map[string]string) []string {
	var out []string
	for k, v := range args {
		if k != datafile.DataArg {
			out = append(out, k+"="+v)
		}
	}
	sort.Strings(out)
	if file, ok := args[datafile.DataArg]; ok {
		out = append([]string{datafile.DataArg, file}, out...)
	}
	return out
}

// Exec runs a built program with its arguments (Argv).
func Exec(bin string, args []string, timeout time.Duration) Outcome {
	return ExecEnv(bin, args, nil, timeout)
}

// ExecEnv is Exec with env (NAME=VALUE entries, such as ARRAYSEM_BLOCK=2)
// added to the environment the program inherits.
func ExecEnv(bin string, args, env []string, timeout time.Duration) Outcome {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	if len(env) > 0 {
		c.Env = append(os.Environ(), env...)
	}
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	start := time.Now()
	err := c.Run()
	o := Outcome{Stdout: out.String(), Stderr: errb.String(), Time: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		o.Status = -1
	case errors.As(err, &ee):
		o.Status = ee.ExitCode()
	default:
		o.Status = -1
		o.Stderr += err.Error()
	}
	return o
}
