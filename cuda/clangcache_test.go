package cuda_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arraysem/arraysem/cuda"
)

// The clang builds of the bundles are cached by content, for repeated
// local runs: a build is the same file whenever the command, the
// compiler's version and the source text are, so cachedBuild keeps each
// output under the SHA-256 of the three and hands it out again instead of
// compiling. A failed build is not kept (its messages always come from a
// fresh run). The cache lives in the user's cache directory
// (os.UserCacheDir()/arraysem/clang), outside the repository; it is off in
// CI (the CI variable set), where every build compiles, and
// ARRAYSEM_CLANG_CACHE=off turns it off, or names another directory. Entries
// unused for a week go, and the oldest go first past 2 GiB.
//
// A clean clone, as CI runs it, has no cache, so the suite's budget does
// not count on it.

const (
	clangCacheMaxAge   = 7 * 24 * time.Hour
	clangCacheMaxBytes = 2 << 30
)

// clangCacheDir is the cache's directory, or "" when it is off.
func clangCacheDir() string {
	switch v := os.Getenv("ARRAYSEM_CLANG_CACHE"); {
	case v == "off":
		return ""
	case v != "":
		return v
	case os.Getenv("CI") != "":
		return ""
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "arraysem", "clang")
}

var compilerVersions sync.Map // command → its --version output

// compilerVersion is what the compiler says to --version: a new compiler
// makes new keys.
func compilerVersion(compiler string) (string, error) {
	if v, ok := compilerVersions.Load(compiler); ok {
		return v.(string), nil
	}
	out, err := exec.Command(compiler, "--version").Output()
	if err != nil {
		return "", err
	}
	compilerVersions.Store(compiler, string(out))
	return string(out), nil
}

// clangCacheKey is the key of a build: the command, the output's
// extension, the compiler's version and the source.
func clangCacheKey(cmd []string, ext, version, src string) string {
	h := sha256.New()
	fmt.Fprintf(h, "arraysem clang cache 1\x00%s\x00%s\x00%s\x00", strings.Join(cmd, "\x00"), ext, version)
	h.Write([]byte(src))
	return hex.EncodeToString(h.Sum(nil))
}

// cachedBuild is cuda.Build(cmd, src, dir, name, ext) through the cache in
// cache ("" for none): the output's path, in the cache on a hit.
func cachedBuild(cache string, cmd []string, src, dir, name, ext string) (string, error) {
	if cache == "" {
		return cuda.Build(cmd, src, dir, name, ext)
	}
	version, err := compilerVersion(cmd[0])
	if err != nil {
		return cuda.Build(cmd, src, dir, name, ext)
	}
	entry := filepath.Join(cache, clangCacheKey(cmd, ext, version, src)+ext)
	if _, err := os.Stat(entry); err == nil {
		now := time.Now()
		os.Chtimes(entry, now, now) // used: the last to go
		return entry, nil
	}
	out, err := cuda.Build(cmd, src, dir, name, ext)
	if err != nil {
		return "", err
	}
	if storeInCache(cache, out, entry) {
		return entry, nil
	}
	return out, nil
}

// storeInCache copies a build's output to entry (by a rename, so that a
// reader never sees half a file) and trims the cache; false when it
// cannot, which leaves the cache as it was.
func storeInCache(cache, out, entry string) bool {
	data, err := os.ReadFile(out)
	if err != nil || os.MkdirAll(cache, 0o755) != nil {
		return false
	}
	info, err := os.Stat(out)
	if err != nil {
		return false
	}
	tmp, err := os.CreateTemp(cache, "tmp-*")
	if err != nil {
		return false
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Chmod(tmp.Name(), info.Mode().Perm()) != nil || os.Rename(tmp.Name(), entry) != nil {
		os.Remove(tmp.Name())
		return false
	}
	trimCache(cache, entry)
	return true
}

// trimCache removes the entries unused for clangCacheMaxAge, then the
// oldest while the cache holds more than clangCacheMaxBytes, keeping keep
// (and leftover temporary files younger than a day, which another test
// process may be writing).
func trimCache(cache, keep string) {
	des, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	type file struct {
		path string
		mod  time.Time
		size int64
	}
	var files []file
	var total int64
	for _, de := range des {
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		f := file{filepath.Join(cache, de.Name()), info.ModTime(), info.Size()}
		age := time.Since(f.mod)
		if strings.HasPrefix(de.Name(), "tmp-") {
			if age > 24*time.Hour {
				os.Remove(f.path)
			}
			continue
		}
		if age > clangCacheMaxAge && f.path != keep {
			os.Remove(f.path)
			continue
		}
		files = append(files, f)
		total += f.size
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	for _, f := range files {
		if total <= clangCacheMaxBytes {
			break
		}
		if f.path != keep && os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}

// TestClangCache: a build is compiled once and then taken from the cache,
// a change to the source or to the command compiles again, a failed build
// is not kept, and entries unused for a week go. The compiler is a script
// that copies its input and counts its runs.
func TestClangCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	fake := filepath.Join(dir, "fakecc")
	script := `#!/bin/sh
if [ "$1" = --version ]; then echo "fakecc 1"; exit 0; fi
echo run >> ` + runs + `
while [ $# -gt 2 ]; do shift; done
if grep -q FAIL "$2"; then echo "$2: error: FAIL" >&2; exit 1; fi
cp "$2" "$1"
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		data, _ := os.ReadFile(runs)
		return strings.Count(string(data), "run")
	}
	cache := filepath.Join(dir, "cache")
	cmd := []string{fake, "-o"}
	build := func(cmd []string, src string) (string, error) {
		return cachedBuild(cache, cmd, src, t.TempDir(), "p", ".out")
	}
	for i, step := range []struct {
		cmd  []string
		src  string
		runs int
		err  bool
	}{
		{cmd, "one", 1, false},
		{cmd, "one", 1, false},                         // a hit
		{cmd, "two", 2, false},                         // another source
		{[]string{fake, "-DX", "-o"}, "one", 3, false}, // another command
		{cmd, "FAIL", 4, true},
		{cmd, "FAIL", 5, true}, // not kept
		{cmd, "one", 5, false},
	} {
		out, err := build(step.cmd, step.src)
		if (err != nil) != step.err {
			t.Fatalf("step %d: error %v", i, err)
		}
		if !step.err {
			if got, _ := os.ReadFile(out); string(got) != step.src {
				t.Errorf("step %d: the output holds %q, want %q", i, got, step.src)
			}
		}
		if count() != step.runs {
			t.Errorf("step %d: %d compiler runs, want %d", i, count(), step.runs)
		}
	}
	des, _ := os.ReadDir(cache)
	if len(des) != 3 {
		t.Fatalf("%d entries, want 3", len(des))
	}
	old := time.Now().Add(-2 * clangCacheMaxAge)
	for _, de := range des {
		os.Chtimes(filepath.Join(cache, de.Name()), old, old)
	}
	if _, err := build(cmd, "three"); err != nil {
		t.Fatal(err)
	}
	if des, _ := os.ReadDir(cache); len(des) != 1 {
		t.Errorf("%d entries after a week unused, want only the new one", len(des))
	}
}
