package imp

import (
	"os"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestRacesReported: with RunOptions.Races, a racy kernel of the
// small-step runs on, its first race given to Races when it ends, and
// the schedule decides the result (the last writer wins); without it the
// run stops at the race.
func TestRacesReported(t *testing.T) {
	src, err := os.ReadFile("../examples/imp/race.imp")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseFile("race.imp", string(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		schedule string
		want     string
	}{{"in-order", "[3]"}, {"reverse", "[1]"}} {
		sched, _ := semantics.ParseSchedule(c.schedule, 1)
		var races []error
		env, h, err := BindInputs(p, map[string]string{"n": "3"})
		if err != nil {
			t.Fatal(err)
		}
		o := &semantics.RunOptions{Schedule: sched, Races: func(race error) { races = append(races, race) }}
		vs, _, err := RunSmall(p, env, h, o)
		if err != nil || len(vs) != 1 || vs[0].String() != c.want || len(races) != 1 {
			t.Errorf("%s with races reported: %v, %v, races %v; want %s and one race", c.schedule, vs, err, races, c.want)
		}
		env, h, _ = BindInputs(p, map[string]string{"n": "3"})
		if _, _, err := RunSmall(p, env, h, &semantics.RunOptions{Schedule: sched}); err == nil {
			t.Errorf("%s without Races: no race error", c.schedule)
		}
	}
}
