package semantics

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxSourceBytes bounds the size of a file arraysem reads as a program
// (or a CUDA file, a report): 64 MiB, hundreds of times the largest
// program written or emitted here, and little beside --max-memory's
// default. Past it, reading and parsing would take the memory of a run.
const MaxSourceBytes = 64 << 20

// ReadSource reads a file a command was given as a program, a CUDA file
// or a report: a regular file (a symbolic link to one included) of at
// most MaxSourceBytes. Anything else is refused with a message naming
// the file and what it is: a named pipe would block the command until
// something writes to it, and /dev/zero or /dev/urandom would be read
// until memory runs out.
func ReadSource(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // as reading the file always said
		}
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %s, not a regular file", path, fileKind(info.Mode()))
	}
	if info.Size() > MaxSourceBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d (%s) a source file may have", path, info.Size(), MaxSourceBytes, Bytes(MaxSourceBytes))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The size is read again as it grows: a file may change between the
	// stat and the read (and /proc's files say they have none).
	b, err := io.ReadAll(io.LimitReader(f, MaxSourceBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSourceBytes {
		return nil, fmt.Errorf("%s: more than the %d bytes (%s) a source file may have", path, MaxSourceBytes, Bytes(MaxSourceBytes))
	}
	return b, nil
}

// fileKind names what a file that is not regular is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "a special file"
}
