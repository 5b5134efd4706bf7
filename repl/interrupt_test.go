package repl

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arraysem/arraysem/semantics"
)

// syncBuffer is a bytes.Buffer that the session and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// longFun runs for a noticeable time under every semantics (a kernel of
// 300 000 iterations): long enough that Ctrl-C lands while it runs, short
// enough that the abandoned run, which goes on in the background, ends
// soon after.
const longFun = `input (n : int)
let (ys : [n]) = kernel i <= n do
  let (v : int) = i * 2
  in (v)
in (ys)
`

// TestInterruptEveryCommand: Ctrl-C (Interrupt) stops every command that
// runs a program, and the session says so; it is not left waiting for the
// run to end.
func TestInterruptEveryCommand(t *testing.T) {
	for _, tc := range []struct {
		lang string
		cmds []string // set-up, then the command interrupted
	}{
		{"fun", []string{":set arg n=300000", ":run"}},
		{"fun", []string{":set arg n=300000", ":side"}},
		{"fun", []string{":set arg n=300000", ":derive eval"}},
		{"fun", []string{":set arg n=300000", ":step 100000000"}},
		// FUNMEM's checks run the kernel in tens of milliseconds at
		// 300 000, under the session's look at Ctrl-C every 20 ms.
		{"funmem", []string{":set arg n=3000000", ":check"}},
		{"funmem", []string{":set arg n=3000000", ":races"}},
	} {
		name := tc.lang + " " + tc.cmds[len(tc.cmds)-1]
		t.Run(name, func(t *testing.T) {
			var out syncBuffer
			s := NewSession(&out, Options{})
			defer s.stopStepper()
			src := longFun
			if tc.lang == "funmem" {
				s.Exec(":lang fun")
				for _, l := range strings.Split(longFun, "\n") {
					s.Exec(l)
				}
				s.Exec("")
				s.Exec(":compile funmem --switch")
			} else {
				s.Exec(":lang " + tc.lang)
				for _, l := range strings.Split(src, "\n") {
					s.Exec(l)
				}
				s.Exec("")
			}
			for _, c := range tc.cmds[:len(tc.cmds)-1] {
				s.Exec(c)
			}
			before := len(out.String())
			done := make(chan struct{})
			go func() {
				defer close(done)
				s.Exec(tc.cmds[len(tc.cmds)-1])
			}()
			// Exec clears the flag as it starts: keep pressing Ctrl-C.
			deadline := time.After(2 * time.Minute)
			for pressing := true; pressing; {
				select {
				case <-done:
					pressing = false
				case <-time.After(time.Millisecond):
					s.Interrupt()
				case <-deadline:
					t.Fatalf("%s: not interrupted after 2 minutes", name)
				}
			}
			if got := out.String()[before:]; !strings.Contains(got, "interrupted") {
				t.Errorf("%s: the session does not say it was interrupted:\n%s", name, got)
			}
			if semantics.Interrupted() {
				t.Errorf("%s: the process is left interrupted: the next run would stop at once", name)
			}
		})
	}
}
