package repl

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/arraysem/arraysem/semantics"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/chzyer/readline"
)

// Run runs a session on in and out. On a terminal it reads with line
// editing, history (kept across sessions in ~/.arraysem_history) and tab
// completion, and Ctrl-C stops a long :run; otherwise (piped input) it
// reads plain lines and prints no prompts or escape codes, so a session
// can be scripted. file, if not empty, is loaded first.
func Run(in io.Reader, out io.Writer, opts Options, file string, terminal bool) error {
	opts.Terminal = terminal
	s := NewSession(out, opts)
	if file != "" {
		s.Exec(":load " + file)
	}
	if !terminal {
		if err := runPiped(s, in); err != nil {
			return err
		}
		if s.Errors() > 0 {
			return &SessionErrors{N: s.Errors()}
		}
		return nil
	}
	return runTerminal(s)
}

// SessionErrors ends a piped session that reported errors, so that a
// script's caller sees that it went wrong.
type SessionErrors struct{ N int }

// Error counts the errors.
func (e *SessionErrors) Error() string {
	return fmt.Sprintf("repl: the session reported %s", semantics.Plural(e.N, "error"))
}

func runPiped(s *Session, in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if s.Exec(sc.Text()) {
			return nil
		}
	}
	if s.Pending() {
		s.Exec("") // end the last incomplete input
	}
	return sc.Err()
}

func runTerminal(s *Session) error {
	history := ""
	if home, err := os.UserHomeDir(); err == nil {
		history = filepath.Join(home, ".arraysem_history")
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:          prompt(s),
		HistoryFile:     history,
		AutoComplete:    &completer{s: s},
		InterruptPrompt: "^C",
		EOFPrompt:       ":quit",
	})
	if err != nil {
		return err
	}
	defer rl.Close()
	// Ctrl-C while a command runs (the terminal is not in raw mode then)
	// stops it at the next step; at the prompt readline handles it.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	go func() {
		for range sig {
			s.Interrupt()
		}
	}()
	fmt.Fprintln(s.out, "arraysem repl: :help lists the commands, :quit ends")
	for {
		rl.SetPrompt(prompt(s))
		line, err := rl.Readline()
		switch {
		case errors.Is(err, readline.ErrInterrupt):
			s.pending = nil // drop an incomplete input
			continue
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		}
		if s.Exec(line) {
			return nil
		}
	}
}

func prompt(s *Session) string {
	if s.Pending() {
		return strings.Repeat(" ", len(s.Lang())) + "… "
	}
	return s.Lang() + "> "
}

// completer completes commands, their arguments, file names after :load,
// and the names in the loaded program.
type completer struct{ s *Session }

var wordRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_\-?!*%]*`)

// Do is readline's completion hook: the candidates' remaining text after
// the word under the cursor, and that word's length.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	text := string(line[:pos])
	start := strings.LastIndexAny(text, " ([") + 1
	word := text[start:]
	var cands []string
	fields := strings.Fields(text)
	switch {
	case start == 0 && strings.HasPrefix(word, ":"):
		cands = CommandNames()
	case len(fields) > 0 && fields[0] == ":load":
		cands = files(word)
	case len(fields) > 0 && fields[0] == ":lang":
		cands = c.s.reg.Names()
	case len(fields) > 0 && fields[0] == ":set":
		cands = []string{"fuel", "schedule", "races", "arg", "in-order", "reverse", "random", "stop", "report"}
	case len(fields) > 0 && fields[0] == ":compile":
		cands = append(c.s.reg.Names(), "--expand", "--no-expand", "--switch", "--prelude")
	default:
		seen := map[string]bool{}
		for _, w := range wordRe.FindAllString(c.s.source+" "+strings.Join(c.s.defs, " "), -1) {
			if !seen[w] {
				seen[w] = true
				cands = append(cands, w)
			}
		}
		slices.Sort(cands)
	}
	// A completed command or setting is followed by a space, ready for
	// its argument; a file name is not (a directory continues), nor is
	// a name of the program (an operator or a bracket may follow).
	space := ""
	if len(fields) > 0 && strings.HasPrefix(fields[0], ":") && (start == 0 || fields[0] != ":load") {
		space = " "
	}
	var out [][]rune
	for _, cand := range cands {
		if strings.HasPrefix(cand, word) && cand != word {
			out = append(out, []rune(cand[len(word):]+space))
		}
	}
	return out, len([]rune(word))
}

// files lists the paths that start with prefix (directories with a /).
func files(prefix string) []string {
	matches, _ := filepath.Glob(prefix + "*")
	for i, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.IsDir() {
			matches[i] = m + "/"
		}
	}
	return matches
}
