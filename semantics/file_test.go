package semantics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadSource: a regular file is read; a directory, a device and a
// file past MaxSourceBytes are refused with a message naming them
// (issue 32; internal/cli's TestSpecialFiles has named pipes).
func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.fun")
	if err := os.WriteFile(ok, []byte("in ()"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadSource(ok); err != nil || string(b) != "in ()" {
		t.Errorf("ReadSource of a regular file: %q, %v", b, err)
	}
	// A sparse file one byte past the bound takes no disk.
	big := filepath.Join(dir, "big.fun")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSourceBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cases := map[string]string{
		dir: "a directory, not a regular file",
		big: "big.fun: 67108865 bytes, more than the 67108864 (64.0 MiB) a source file may have",
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases["/dev/zero"] = "/dev/zero: a character device, not a regular file"
	}
	for path, want := range cases {
		if _, err := ReadSource(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadSource(%s): %v, want %q", path, err, want)
		}
	}
	if _, err := ReadSource(filepath.Join(dir, "none.fun")); err == nil {
		t.Error("ReadSource of no file succeeded")
	}
}
