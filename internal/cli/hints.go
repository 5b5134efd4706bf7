package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// This file holds what the command line says about a mistake beyond
// "that is wrong": the name the user probably meant, and how to write
// what they tried to write.

// unknownCommand is the message for a first word that names no command:
// the command it is closest to, or, for a file, the run it probably meant.
func unknownCommand(cmd string) string {
	msg := fmt.Sprintf("arraysem: unknown command %q", cmd)
	if s := semantics.Suggest(cmd, commandNames()); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	} else if _, err := os.Stat(cmd); err == nil {
		msg += fmt.Sprintf(" (to run the program: arraysem run %s)", cmd)
	}
	return msg + "\narraysem help lists the commands (one of " + strings.Join(commandNames(), ", ") + ")\n"
}

// flagName writes a flag as users type it: -n for one letter, --name
// for the others (the flag package takes both).
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownFlag is the usage error for a flag fs does not define, with the
// defined flag closest to it, or nil when err is about something else.
func unknownFlag(fs *flag.FlagSet, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return nil
	}
	name = strings.TrimPrefix(name, "-")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	msg := fmt.Sprintf("%s: unknown flag %s", fs.Name(), flagName(name))
	if s := semantics.Suggest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", flagName(s))
	}
	return usageError{msg + "; arraysem help " + fs.Name() + " lists its flags"}
}

// strayArguments explains positional arguments beyond the npos a
// command takes, when they look like something the user meant to write
// otherwise: an array literal the shell split at its blanks (--arg
// a=[1 2 3] unquoted), or inputs written without --arg (xsize=3). It
// returns nil for anything else. args are the command's arguments as
// given, pos the positional ones among them.
func strayArguments(fs *flag.FlagSet, args, pos []string, npos int) error {
	if len(pos) <= npos {
		return nil
	}
	if split := splitLiteral(args); split != "" {
		return usageError{fmt.Sprintf("%s: the shell split an array literal at its blanks: quote it, %s", fs.Name(), split)}
	}
	if fs.Lookup("arg") == nil {
		return nil
	}
	var inputs []string
	for _, p := range pos {
		if name, _, ok := strings.Cut(p, "="); ok && isName(name) {
			inputs = append(inputs, "--arg "+shellQuote(p))
		}
	}
	if len(inputs) == 0 {
		return nil
	}
	return usageError{fmt.Sprintf("%s: inputs are given as %s", fs.Name(), strings.Join(inputs, " "))}
}

// splitLiteral finds an --arg whose value opens more brackets than it
// closes, and returns it put back together with the words that follow
// it and quoted (--arg 'a=[1 2 3]'), or "" when there is none.
func splitLiteral(args []string) string {
	for i := 0; i < len(args); i++ {
		var val string
		switch a := args[i]; {
		case (a == "--arg" || a == "-arg") && i+1 < len(args):
			i++
			val = args[i]
		case strings.HasPrefix(a, "--arg=") || strings.HasPrefix(a, "-arg="):
			_, val, _ = strings.Cut(a, "=")
		default:
			continue
		}
		depth := strings.Count(val, "[") - strings.Count(val, "]")
		if depth <= 0 {
			continue
		}
		words := []string{val}
		for j := i + 1; j < len(args) && depth > 0 && !strings.HasPrefix(args[j], "-"); j++ {
			words = append(words, args[j])
			depth += strings.Count(args[j], "[") - strings.Count(args[j], "]")
		}
		return "--arg " + shellQuote(strings.Join(words, " "))
	}
	return ""
}

// isName reports whether s is a program variable's name as the
// languages write them (letters, digits, _ and -, not starting with a
// digit).
func isName(s string) bool {
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r != '-' && (r < '0' || r > '9')) {
			return false
		}
	}
	return s != ""
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if !strings.ContainsAny(s, " []()*?'\"\\$;&|<>{}#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkFuel refuses a negative --fuel, if the command has the flag, as
// the REPL's :set fuel does.
func checkFuel(fs *flag.FlagSet) error {
	if f := fs.Lookup("fuel"); f != nil && strings.HasPrefix(f.Value.String(), "-") {
		return usageError{fmt.Sprintf("%s: --fuel %s: fuel is a number of steps (0: the default)", fs.Name(), f.Value)}
	}
	return nil
}
