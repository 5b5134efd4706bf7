package fun

import "github.com/arraysem/arraysem/semantics"

// TypeOfSExp is Γ ⊢ se : τ for a scalar expression (T-CONST, T-VAR, T-OP,
// and the floats' T-FLOAT and T-CALL), for a language that extends FUN's
// scalar expressions over its own Γ (FUNMEM): it returns se's scalar type,
// int or float, and the derivation, with FUN's errors (no implicit
// conversions; a variable of another type, such as mem, is refused by
// T-VAR). opts.Paper refuses float constants and calls; opts.Counter
// counts the rules applied.
func TypeOfSExp(env *Scope, e SExp, opts *CheckOptions) (semantics.Elem, *semantics.Derivation, error) {
	if opts == nil {
		opts = &CheckOptions{}
	}
	c := &checker{opts: opts, env: env}
	d, el, err := c.sexp(e)
	return el, d, err
}
