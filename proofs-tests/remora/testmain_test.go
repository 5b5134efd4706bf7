package remoraprops

import (
	"testing"

	"github.com/arraysem/arraysem/internal/testmain"
)

// TestMain runs the tests with Go's heap profiler off and GOGC=400 (internal/testmain).
func TestMain(m *testing.M) { testmain.Run(m) }
