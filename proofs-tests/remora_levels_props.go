package proofstests

import (
	"fmt"
	"regexp"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
)

// The compile path from Remora (issue 15): a generated Remora program
// walks the registry to every level it reaches, Remora IR after each
// stage (Explicitize, Inline, Simplify), FUN, FUNMEM (plain and
// expanded, heap, value and small-step), IMP and CUDA, and every run at
// every level agrees with Remora's big-step, its results decoded to print
// as Remora prints them (their programs carry the format, semantics.Format). Every stage's output was
// re-checked by its language on the way (Registry.Compile); each level
// reads back from its printed text (readsBack); a FUNMEM level is valid
// (Def 3.1) and race free (eq 4) on the program's run. A walk that a pass
// declines (a construct the path does not compile) is counted by its
// reason, not failed.

// position is a file:line:col: prefix of an error, left out of a
// declined walk's reason so that reasons count alike across programs.
var position = regexp.MustCompile(`[^ :]+:[0-9]+:[0-9]+: `)

// propRemoraAtLevels is the property over the arraysem command's registry.
func propRemoraAtLevels(c *RemoraCase) string {
	return PropRemoraLevels(arraycheck.NewRegistry(), nil)(c)
}

// loadGenerated loads a generated Remora program through reg, or says
// that the generator made one that does not load.
func loadGenerated(reg *lang.Registry, c *RemoraCase) (p lang.Program, bug string) {
	if err := safely("loading the Remora program", func() (err error) {
		p, err = reg.Load("gen.remora", c.Src, remora.Language.Name(), "", lang.LoadOptions{})
		return err
	}); err != nil {
		return nil, "GENERATOR BUG: the program does not load: " + err.Error()
	}
	return p, ""
}

// PropRemoraLevels is the remora-levels property over the registry reg,
// counting what it sees in stats (unless nil).
func PropRemoraLevels(reg *lang.Registry, stats *LevelStats) func(c *RemoraCase) string {
	return func(c *RemoraCase) string {
		p, bug := loadGenerated(reg, c)
		if bug != "" {
			return bug
		}
		want := levelRun{level: p.Language().Title(), sem: "big"}
		want.err = safely(want.name(), func() (err error) {
			want.r, err = p.Run(lang.RunOptions{Semantics: "big"})
			return err
		})
		if isPanic(want.err) {
			return want.err.Error()
		}
		var levels []lang.Level
		if err := safely("Registry.Levels", func() (err error) { levels, err = reg.Levels(p); return err }); err != nil {
			return "compiling the Remora program to every level: " + err.Error()
		}
		local := NewLevelStats()
		for _, lv := range levels[1:] {
			if lv.Declined != nil {
				local.Declined[lv.Name+": "+position.ReplaceAllString(lv.Declined.Error(), "")]++
				continue
			}
			if msg := local.level(lv, want, nil); msg != "" {
				return msg + showRemoraLevel(lv)
			}
			if msg := validAndRaceFree(lv, want); msg != "" {
				return msg + showRemoraLevel(lv)
			}
		}
		local.Programs++
		if stats != nil {
			stats.add(local)
		}
		return ""
	}
}

// validAndRaceFree checks a FUNMEM level's program by its InputChecker
// (validity, Def 3.1, and race freedom, eq 4), where Remora runs to the
// end.
func validAndRaceFree(lv lang.Level, want levelRun) string {
	ic, ok := lv.Program().(lang.InputChecker)
	if !ok || want.err != nil {
		return ""
	}
	var err error
	if perr := safely("CheckInputs", func() error { _, err = ic.CheckInputs(nil); return err }); isPanic(perr) {
		return perr.Error()
	}
	if err != nil {
		return fmt.Sprintf("%s is not valid or races: %v", lv.Name, err)
	}
	return ""
}

// showRemoraLevel prints the program of every stage of a failing walk.
func showRemoraLevel(lv lang.Level) string {
	out := ""
	for _, st := range lv.Stages {
		q := st.Program
		out += fmt.Sprintf("\n-- %s (%s):\n%s", st.Name(), q.Language().Title(), q.Language().Print(q.Syntax()))
	}
	return out
}
