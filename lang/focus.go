package lang

import (
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/semantics"
)

// PathFocus is the focus of a step of a substitution machine (Remora's
// small-steps): step descends an evaluation context, entering child
// next(e) of each term e until next(e) < 0 at the redex, and rebuilds the
// term along that path only, so the subterm at the same path after the
// step is the contractum. child(e, i) is e's i-th child; marked prints a
// term and the span of one of its subterms (a Marker's); source gives a
// term's span in the source (Focus.SetSource), for the redex.
func PathFocus[E comparable](prev, next E, enter func(E) int, child func(E, int) (E, bool),
	print func(E) string, marked func(e, target E) (string, int, int), source func(E) (from, to semantics.Pos)) Focus {
	var path []int
	for e := prev; ; {
		i := enter(e)
		if i < 0 {
			break
		}
		path = append(path, i)
		if e, _ = child(e, i); e == *new(E) {
			break
		}
	}
	at := func(e E) (E, bool) {
		for _, i := range path {
			var ok bool
			if e, ok = child(e, i); !ok {
				return e, false
			}
		}
		return e, true
	}
	f := Focus{Lo: -1, Hi: -1}
	if r, ok := at(prev); ok && r != *new(E) {
		f.Redex = print(r)
		f.SetSource(source(r))
	}
	target, _ := at(next)
	f.Text, f.Lo, f.Hi = marked(next, target)
	return f
}

// Marker is a builder for printers of terms that notes where it wrote one
// node, Target (the same node, compared by identity): runes [Lo, Hi), or
// -1, -1. A printer calls defer m.Enter(node)() as it starts each node.
type Marker[N comparable] struct {
	strings.Builder
	Target N
	Lo, Hi int
}

// NewMarker is a Marker of target.
func NewMarker[N comparable](target N) *Marker[N] { return &Marker[N]{Target: target, Lo: -1, Hi: -1} }

// Enter notes the start of node n, if it is the target, and returns what
// to call at its end.
func (m *Marker[N]) Enter(n N) func() {
	if n != m.Target || n == *new(N) {
		return func() {}
	}
	m.Lo = utf8.RuneCountInString(m.String())
	return func() { m.Hi = utf8.RuneCountInString(m.String()) }
}
