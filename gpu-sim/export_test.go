package gpusim

// RunFromPhase is Run with the compiled engine's barrier phases starting
// at phase (shadow.go), for the tests of their renumbering.
func RunFromPhase(prog *Program, args []string, opts Options, phase uint32) (string, *Stats, error) {
	m := newMachine(prog, opts)
	m.phase = phase
	return m.run(args)
}

// MaxPhase is where the phases are renumbered.
const MaxPhase = maxPhase
