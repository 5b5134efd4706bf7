package gpusim

import (
	"fmt"
	"math"

	"github.com/arraysem/arraysem/cuda"
)

// Shadow memory for the compiled engine: the race state of every word a
// launch's threads touch, in 16 bytes a word beside the region's data,
// instead of the tree walker's map of cells (race.go). It records what a
// cell records, the last write and the reads since it, in the walker's
// order, and finds the same races with the same messages.
//
// A thread is its global index plus one (0: none). A barrier epoch of a
// block is a phase: a number the run takes from one counter when a block
// starts and each time its threads pass a barrier together (every thread
// of a block that has not returned waits at each barrier, or the run
// stops with a divergence, so a block's threads are always in the same
// epoch). Blocks run one after another, so within a launch an access of
// another block has a phase before the current block's first, and one of
// this block's epoch has the current phase: conflict's "another block, or
// the same epoch" is "phase < blockStart or phase == phase". A word whose
// phases are older than the launch's first is empty: a launch's shadow
// starts empty, as the walker's map does, without clearing anything.

// shadowWord is one word's race state: the last write, and the reads
// since. One thread's reads are its name and the phase of its latest
// (all its reads are of its block, and a write can only conflict with
// the one of the current phase); the reads of more than one thread are
// summed up in the launch's spill table, at the index the word's r holds
// beside the spilled bit (a slice, not a map keyed by region and offset:
// a word read by the threads of many blocks, as the elements of a fold's
// input are, looked its summary up by hashing at every read).
type shadowWord struct {
	w, wPhase uint32 // the last write: its thread and phase
	r, rPhase uint32 // the reads since: their thread (or spilled) and the latest's phase
}

// spilled marks a word read by more than one thread since its last
// write: its reads are the readSummary vm.spill[r &^ spilled].
const spilled = 1 << 31

// readSummary is what a write needs of a word's reads since the last
// write to report the race the tree walker reports, the first read in
// their order that conflicts: the first thread that read in an earlier
// block (every read of an earlier block conflicts with a write of
// another thread, and a write is of the current block); the first that
// read in the current block (it becomes the earlier blocks' first when
// the next block starts); the first that read in the latest phase (the
// current block's reads that conflict are the current phase's). One
// thread of each is enough: a thread runs from barrier to barrier at a
// stretch, so when the first reader of a phase writes in it, no other
// thread has read in the phase yet.
type readSummary struct {
	early             uint32 // the earlier blocks' first reader
	block, blockPhase uint32 // the first reader of the block of blockPhase
	latest, phase     uint32 // the first reader of the phase
}

// earlier is the first reader of an earlier block (0: none).
func (sm *readSummary) earlier(v *vm) uint32 {
	if sm.early == 0 && sm.block != 0 && sm.blockPhase < v.blockStart {
		return sm.block
	}
	return sm.early
}

// add adds a read of thread t in phase p (the current one, or an
// earlier one of the word's first reader).
func (sm *readSummary) add(v *vm, t, p uint32) {
	if sm.block != 0 && sm.blockPhase < v.blockStart {
		sm.early, sm.block = sm.earlier(v), 0
	}
	switch {
	case p < v.blockStart:
		if sm.early == 0 {
			sm.early = t
		}
	case sm.block == 0:
		sm.block, sm.blockPhase = t, p
	}
	if p != sm.phase {
		sm.latest, sm.phase = t, p
	}
}

// conflict is the first reader that conflicts with a write of thread me
// now (0: none).
func (sm *readSummary) conflict(v *vm, me uint32) uint32 {
	if t := sm.earlier(v); t != 0 && t != me {
		return t
	}
	if sm.phase == v.phase && sm.latest != me {
		return sm.latest
	}
	return 0
}

// newSpill is a summary's index in v.spill, a free one if there is one
// (a write frees its word's), so that the table holds at most a summary
// per word.
func (v *vm) newSpill() uint32 {
	if k := len(v.spillFree); k > 0 {
		i := v.spillFree[k-1]
		v.spillFree = v.spillFree[:k-1]
		v.spill[i] = readSummary{}
		return i
	}
	if len(v.spill) >= spilled-1 {
		panic(stop{&Error{File: v.m.prog.Name, Pos: v.launch.Pos, Kind: "unsupported",
			Msg: fmt.Sprintf("unsupported construct: a launch of %s with more than 2^31 words read by more than one thread", v.l.kernel)}})
	}
	v.spill = append(v.spill, readSummary{})
	return uint32(len(v.spill) - 1)
}

// maxPhase is where a run renumbers its phases (at a launch's start,
// clearing every shadow), so that a launch has 2^31 phases.
const maxPhase = 1 << 31

// nextPhase starts a block or a block's next epoch.
func (v *vm) nextPhase() {
	if v.m.phase == math.MaxUint32 {
		panic(stop{&Error{File: v.m.prog.Name, Pos: v.launch.Pos, Kind: "unsupported",
			Msg: fmt.Sprintf("unsupported construct: a launch of %s whose blocks pass more than 2^31 barriers", v.l.kernel)}})
	}
	v.m.phase++
	v.phase = v.m.phase
}

// startPhases makes the launch's first phase, renumbering when the run's
// phases run short.
func (v *vm) startPhases() {
	if v.m.phase >= maxPhase {
		for _, r := range v.m.regions {
			r.shadow = nil
		}
		v.m.phase = 0
	}
	v.launchStart = v.m.phase + 1
}

// conflicts tells whether an access of thread t in phase p races with
// the current thread's (one of the two writes): another thread, and
// another block or the same epoch.
func (v *vm) conflicts(t, p, me uint32) bool {
	return t != me && (p < v.blockStart || p == v.phase)
}

// record checks an access to word off of r for races and records it,
// then counts it (the statistics' request, the cost counters' operation).
func (v *vm) record(th *vthread, au *auxInfo, r *region, off int64, write bool) {
	sh := r.shadow
	if sh == nil {
		sh = make([]shadowWord, len(r.data))
		r.shadow = sh
	}
	s := &sh[off]
	me := th.me
	if s.w != 0 && s.wPhase >= v.launchStart && v.conflicts(s.w, s.wPhase, me) {
		v.race(th, au.e, r, off, write, s.w, "wrote")
	}
	live := s.r != 0 && s.rPhase >= v.launchStart
	if write {
		if live {
			if s.r&spilled == 0 {
				if v.conflicts(s.r, s.rPhase, me) {
					v.race(th, au.e, r, off, true, s.r, "read")
				}
			} else {
				k := s.r &^ spilled
				if t := v.spill[k].conflict(v, me); t != 0 {
					v.race(th, au.e, r, off, true, t, "read")
				}
				v.spillFree = append(v.spillFree, k)
			}
		}
		s.w, s.wPhase, s.r = me, v.phase, 0
	} else {
		v.read(s, r, off, me)
	}
	if v.stats && !r.shared {
		v.request(th, au, r, off, write)
	}
	v.m.costs.Ops++
}

// read records a read of thread me.
func (v *vm) read(s *shadowWord, r *region, off int64, me uint32) {
	live := s.r != 0 && s.rPhase >= v.launchStart
	switch {
	case !live:
		s.r = me
	case s.r == me:
	case s.r&spilled == 0:
		k := v.newSpill()
		sm := &v.spill[k]
		sm.add(v, s.r, s.rPhase)
		sm.add(v, me, v.phase)
		s.r = spilled | k
	default:
		v.spill[s.r&^spilled].add(v, me, v.phase)
	}
	s.rPhase = v.phase
}

// race stops the run with the tree walker's message: th's access races
// with the other thread's (it wrote, or read).
func (v *vm) race(th *vthread, e cuda.Expr, r *region, off int64, write bool, other uint32, did string) {
	g := int(other) - 1
	o := &thread{gtid: g, block: g / v.blockDim, tid: g % v.blockDim}
	v.ref(th).raced(e, v.l.kernel, write, r.base+uint64(off*8), o.who(), did)
}
