package semantics

import "fmt"

// Rule is one inference rule of the papers, in the spirit of go/types'
// error codes: each language package declares its rules once, as named
// package-level values collected in a RuleTable, and the code refers to
// those values rather than to strings, so that a misspelt rule name does
// not compile. Where an API wants a string (an Error's Rule, a Counter's
// key, a derivation's label) the code passes the rule's Name.
type Rule struct {
	Name   string // as the paper writes it: "E-KERNEL", "T-MEM-LMAD", "β"
	Figure string // where the paper defines it: "Fig 4", or "§2" for a derived form
	Doc    string // one line: what the rule judges or does
}

// String is the rule's name.
func (r Rule) String() string { return r.Name }

// Fuel is the driver's own rule: a small-step run that uses up its fuel
// stops with a FuelError of this rule, whatever the language.
var Fuel = Rule{Name: "fuel", Figure: "—", Doc: "the small-step driver ran out of fuel"}

// RuleTable is a language's rules, in the order its figures give them.
type RuleTable []Rule

// Lookup returns the rule named name.
func (t RuleTable) Lookup(name string) (Rule, bool) {
	for _, r := range t {
		if r.Name == name {
			return r, true
		}
	}
	return Rule{}, false
}

// Names lists the names of the rules of the given figure, in table order.
func (t RuleTable) Names(figure string) []string {
	var out []string
	for _, r := range t {
		if r.Figure == figure {
			out = append(out, r.Name)
		}
	}
	return out
}

// Plural is "1 noun" or "n nouns" (regular English plurals only), for
// messages that count.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
