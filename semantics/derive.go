package semantics

import (
	"errors"
	"strings"
)

// Derivation is a node of a derivation tree: the rule applied, its
// conclusion, and the derivations of its premises. Type checkers and
// big-step evaluators build these only when asked, since a kernel of a
// million iterations has a million premises.
type Derivation struct {
	Rule       string
	Conclusion string
	Premises   []*Derivation
}

// String renders the tree one judgement per line, premises indented under
// their conclusion, the rule name in brackets after each judgement.
func (d *Derivation) String() string {
	var b strings.Builder
	d.write(&b, 0)
	return b.String()
}

func (d *Derivation) write(b *strings.Builder, depth int) {
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString(d.Conclusion)
	if d.Rule != "" {
		b.WriteString("   [" + d.Rule + "]")
	}
	b.WriteByte('\n')
	for _, p := range d.Premises {
		p.write(b, depth+1)
	}
}

// Deriver records rule applications: it counts each (when Counter is
// set) and builds its derivation node only when Derive is set, rendering
// the conclusion only then.
type Deriver struct {
	Derive  bool
	Counter Counter
}

// Node records one application of rule with the given premises (nil
// premises are left out) and returns its node, or nil.
func (d Deriver) Node(rule string, conclusion func() string, premises ...*Derivation) *Derivation {
	d.Counter.Hit(rule)
	if !d.Derive {
		return nil
	}
	var ps []*Derivation
	for _, p := range premises {
		if p != nil {
			ps = append(ps, p)
		}
	}
	return &Derivation{Rule: rule, Conclusion: conclusion(), Premises: ps}
}

// Counter counts how often each rule fires; the rule-coverage report is
// built from these. A nil *Counter counts nothing.
type Counter map[string]int

// Hit records one application of rule.
func (c Counter) Hit(rule string) {
	if c != nil {
		c[rule]++
	}
}

// Add adds the counts of d to c.
func (c Counter) Add(d Counter) {
	for k, v := range d {
		c[k] += v
	}
}

// FailedDerivation is a checker's error with the derivation as far as it
// went: the premises that held, and down the path to the rule that
// failed, that rule as a leaf marked ✗ with the error's message (check
// --derive prints it before the error).
type FailedDerivation struct {
	Err        error
	Derivation *Derivation
}

// Error is the error's.
func (f *FailedDerivation) Error() string { return f.Err.Error() }

// Unwrap gives the error, so that errors.As finds its *Error.
func (f *FailedDerivation) Unwrap() error { return f.Err }

// PartialDerivation is the derivation an error carries (nil for none).
func PartialDerivation(err error) *Derivation {
	var f *FailedDerivation
	if errors.As(err, &f) {
		return f.Derivation
	}
	return nil
}

// FailedAt is the failing leaf for err at the judgement conclusion: the
// rule the error names (or rule, when it names none), ✗ and its message.
func FailedAt(err error, conclusion, rule string) *Derivation {
	msg := err.Error()
	if se, ok := err.(*Error); ok {
		msg = se.Msg
		if se.Rule != "" {
			rule = se.Rule
		}
	}
	return &Derivation{Rule: rule, Conclusion: conclusion + "   ✗ " + msg}
}

// Failing is err carrying the derivation d; an error that already
// carries one keeps its inner error.
func Failing(err error, d *Derivation) error {
	if f, ok := err.(*FailedDerivation); ok {
		err = f.Err
	}
	return &FailedDerivation{Err: err, Derivation: d}
}

// FailedJudgement is err with the derivation of the judgement conclusion
// as far as it went: rule's node over the derivation err carries (a
// premise's, a body's), after the premises that held; or, when err
// carries none, the failing rule as a leaf (rule when err names none).
// An error that already carries the judgement's own node is kept.
func FailedJudgement(err error, conclusion, rule string, held ...*Derivation) error {
	inner := PartialDerivation(err)
	switch {
	case inner == nil:
		return Failing(err, FailedAt(err, conclusion, rule))
	case inner.Conclusion == conclusion:
		return err
	}
	return Failing(err, &Derivation{Rule: rule, Conclusion: conclusion, Premises: append(held, inner)})
}

// FailedChain is err with the derivation of a sequence (a body's
// statements, each rule's node having the statement's derivation and the
// rest as premises) as far as it went: the nodes of the statements that
// held (held, with their conclusions conclusion(j)), down to the one that
// failed: statement len(held) when atItem, else what comes after them
// (the results). failing is the leaf for an err that carries no
// derivation.
func FailedChain(err error, rule string, conclusion func(j int) string, held []*Derivation, atItem bool, failing *Derivation) error {
	p := PartialDerivation(err)
	if p == nil {
		p = FailedAt(err, failing.Conclusion, failing.Rule)
	}
	if atItem {
		p = &Derivation{Rule: rule, Conclusion: conclusion(len(held)), Premises: []*Derivation{p}}
	}
	for j := len(held) - 1; j >= 0; j-- {
		p = &Derivation{Rule: rule, Conclusion: conclusion(j), Premises: []*Derivation{held[j], p}}
	}
	return Failing(err, p)
}
