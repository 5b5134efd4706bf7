package semantics

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// The interpreters bound the memory a run may take, so that a program too
// large for the machine stops with a message naming what it tried to
// allocate (exit 1) instead of being killed by the operating system. Every
// element of every language is one 8-byte word.

// DefaultMaxMemory is --max-memory's default: 4 GiB, well below the
// machines arraysem is run on (the project's have 24 GiB).
const DefaultMaxMemory = 4 << 30

// maxMemory is the limit in force, in bytes; SetMaxMemory changes it.
var maxMemory int64 = DefaultMaxMemory

// MaxMemory is the limit in force, in bytes.
func MaxMemory() int64 { return maxMemory }

// SetMaxMemory sets the limit: one array, and one heap, may hold at most
// bytes/8 elements (MaxElems, MaxHeap).
func SetMaxMemory(bytes int64) {
	maxMemory = bytes
	MaxElems = max(bytes/8, 1)
	MaxHeap = max(bytes/8, 1)
}

// MaxElems bounds the number of elements of one array the interpreters will
// build. Past it they get stuck with a clear message rather than exhaust
// memory (which Go cannot recover from).
var MaxElems int64 = DefaultMaxMemory / 8

// MaxHeap bounds the total number of integers a heap holds.
var MaxHeap int64 = DefaultMaxMemory / 8

// Bytes renders a size in bytes for messages: 512 B, 3.0 MiB, 4.0 GiB,
// 2.0 TiB.
func Bytes(n int64) string {
	switch {
	case n >= 1<<60:
		return fmt.Sprintf("%.1f EiB", float64(n)/(1<<60))
	case n >= 1<<50:
		return fmt.Sprintf("%.1f PiB", float64(n)/(1<<50))
	case n >= 1<<40:
		return fmt.Sprintf("%.1f TiB", float64(n)/(1<<40))
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

// MaxMaxMemory is the largest --max-memory: 2^62 bytes (4 EiB), so that
// a limit and the slack the watchdog adds to it are int64s that do not
// wrap (2^63 bytes wrapped to a negative limit).
const MaxMaxMemory = 1 << 62

// ParseBytes reads a size: a number of bytes with an optional unit (B,
// KB, MB, GB, TB, PB, EB in powers of 1000; KiB, MiB, GiB, TiB, PiB, EiB
// in powers of 1024),
// from 1 byte to MaxMaxMemory.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	mult := map[string]float64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
		"pb": 1e15, "eb": 1e18, "pib": 1 << 50, "eib": 1 << 60}[unit]
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || f <= 0 {
		return 0, fmt.Errorf("want a size such as 4GiB, 512MB or 1000000 (bytes), got %q", s)
	}
	switch b := f * mult; {
	case b < 1:
		// 0.000001B was taken as 0 bytes, where 0 is refused.
		return 0, fmt.Errorf("%q is less than a byte: want a size of at least 1 byte", s)
	case b > MaxMaxMemory:
		return 0, fmt.Errorf("%q is more than 4 EiB (2^62 bytes), the largest size taken", s)
	}
	return int64(f * mult), nil
}

// largest records the largest single allocation the interpreters have
// counted, so that the watchdog that stops a run whose arrays add up past
// --max-memory can say what allocated. The hot path is one atomic load:
// the record changes only when an allocation beats it.
var largest struct {
	elems atomic.Int64
	mu    sync.Mutex
	what  string
}

// noteAlloc records an allocation of n elements, described by what, if it
// is the largest so far. Callers check largest.elems first, so that the
// common case takes no lock and builds no description.
func noteAlloc(what func() string, n int64) {
	largest.mu.Lock()
	defer largest.mu.Unlock()
	if n > largest.elems.Load() {
		largest.elems.Store(n)
		largest.what = what()
	}
}

// LargestAllocation describes the largest single allocation so far ("an
// array of shape [1048576] (8.0 MiB)"), or "" when none was counted.
func LargestAllocation() string {
	largest.mu.Lock()
	defer largest.mu.Unlock()
	if largest.what == "" {
		return ""
	}
	return fmt.Sprintf("%s (%s)", largest.what, Bytes(8*largest.elems.Load()))
}

// Afford is the error of making what, of words 8-byte words, when that
// is past --max-memory (nil when it fits): for the structures a semantics
// makes beside arrays, such as a small-step's frame of n applications.
func Afford(what string, words int64) error {
	if words <= MaxElems {
		return nil
	}
	return tooBig(what, words)
}

// tooBig is the error of an allocation of n elements past the limit.
func tooBig(what string, n int64) error {
	size := "more than 4 EiB"
	if n <= MaxMaxMemory/8 {
		size = Bytes(8 * n) // 8n wrapped to "0 B" past it
	}
	return fmt.Errorf("%s of %d elements (%s) %s %s (raise it with --max-memory)", what, n, size, maxMemoryNote, Bytes(maxMemory))
}

// maxMemoryNote is what the message of every allocation past the limit
// says (tooBig), whichever rule's error carries it.
const maxMemoryNote = "exceeds --max-memory"

// PastMaxMemory reports whether err is an allocation the run could not
// afford (tooBig's message, wherever a rule wrapped it): side-by-side
// marks such a row "not run" rather than compare it.
func PastMaxMemory(err error) bool {
	return err != nil && strings.Contains(err.Error(), maxMemoryNote)
}
