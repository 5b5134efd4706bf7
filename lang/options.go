package lang

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// OptionKind is what an option's flag takes.
type OptionKind int

// The kinds of option.
const (
	BoolOption   OptionKind = iota // a switch: --expand
	StringOption                   // a value: --layout cpu
	MapOption                      // repeatable NAME=VALUE pairs: --arg n=3
)

// Switch says how a bool option bears on the pass that declares it.
type Switch int

// The switches.
const (
	Reads Switch = iota // the pass reads the option
	// Disables: the pass does not run when the option is set (--raw
	// switches the simplifiers off, --no-fuse fusion).
	Disables
	// Selects: the option chooses the level's pipeline that holds the
	// pass (--expand: FUNMEM's pipeline with MemoryExpand).
	Selects
)

// Option is a compile option, declared by the pass that reads it: the
// flag of compile (and of the commands that compile), its help and its
// validation come from the declaration. Passes that read one option each
// declare it alike.
type Option struct {
	Name    string // the flag's name, without dashes: "no-fuse"
	Kind    OptionKind
	Switch  Switch   // for a bool option
	Default string   // a string option's value when it is not given
	Values  []string // a string option's allowed values (nil: any)
	Help    string   // one line, for the flag's usage
}

// Check validates a string option's value.
func (o Option) Check(v string) error {
	if o.Kind == StringOption && o.Values != nil && !slices.Contains(o.Values, v) {
		return fmt.Errorf("--%s %s: want %s", o.Name, v, strings.Join(o.Values, " or "))
	}
	return nil
}

// Options are the compile options of a walk, by name: the bool options
// set, the string options' values, the map options' pairs. The zero
// value sets nothing. With returns a copy with one more option set.
type Options struct {
	bools map[string]bool
	strs  map[string]string
	maps  map[string]map[string]string
}

// Bool reports whether the bool option name is set.
func (o Options) Bool(name string) bool { return o.bools[name] }

// Str is the value of the string option name ("" when not given: a
// walk's Registry.Complete fills in the declared default).
func (o Options) Str(name string) string { return o.strs[name] }

// Map is the pairs of the map option name.
func (o Options) Map(name string) map[string]string { return o.maps[name] }

// With returns o with a bool option set.
func (o Options) With(name string) Options {
	o.bools = maps.Clone(o.bools)
	if o.bools == nil {
		o.bools = map[string]bool{}
	}
	o.bools[name] = true
	return o
}

// Without returns o with a bool option unset.
func (o Options) Without(name string) Options {
	o.bools = maps.Clone(o.bools)
	delete(o.bools, name)
	return o
}

// WithString returns o with a string option given.
func (o Options) WithString(name, v string) Options {
	o.strs = maps.Clone(o.strs)
	if o.strs == nil {
		o.strs = map[string]string{}
	}
	o.strs[name] = v
	return o
}

// WithMap returns o with a map option's pairs (none: unset).
func (o Options) WithMap(name string, m map[string]string) Options {
	o.maps = maps.Clone(o.maps)
	if o.maps == nil {
		o.maps = map[string]map[string]string{}
	}
	if len(m) == 0 {
		delete(o.maps, name)
	} else {
		o.maps[name] = maps.Clone(m)
	}
	return o
}

// Set lists the options o sets, sorted.
func (o Options) Set() []string {
	var out []string
	for k, v := range o.bools {
		if v {
			out = append(out, k)
		}
	}
	for k := range o.strs {
		out = append(out, k)
	}
	for k, m := range o.maps {
		if len(m) > 0 {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Flags renders the options as the flags that set them, for messages
// and names: "--expand --layout cpu".
func (o Options) Flags() string {
	var parts []string
	for _, k := range o.Set() {
		switch {
		case o.bools[k]:
			parts = append(parts, "--"+k)
		case o.strs[k] != "":
			parts = append(parts, "--"+k+" "+o.strs[k])
		default:
			for _, n := range slices.Sorted(maps.Keys(o.maps[k])) {
				parts = append(parts, "--"+k+" "+n+"="+o.maps[k][n])
			}
		}
	}
	return strings.Join(parts, " ")
}

// valuesOf renders the values o gives the options decl, in their order:
// what a pass that declares them reads of o.
func (o Options) valuesOf(decl []Option) string {
	var b strings.Builder
	for _, d := range decl {
		b.WriteString(d.Name)
		switch d.Kind {
		case BoolOption:
			if o.bools[d.Name] {
				b.WriteString(" set")
			}
		case StringOption:
			b.WriteString(" = ")
			b.WriteString(strconv.Quote(o.strs[d.Name]))
		case MapOption:
			for _, k := range slices.Sorted(maps.Keys(o.maps[d.Name])) {
				b.WriteString(" " + strconv.Quote(k) + "=" + strconv.Quote(o.maps[d.Name][k]))
			}
		}
		b.WriteString(";")
	}
	return b.String()
}
