package cuda

// Allocating names the kernels of f whose threads allocate from the
// device heap (arraysem_device_alloc, arraysem_device_alloc_chain), in
// their own body or in a __device__ function they call: the allocations
// MemoryExpand did not hoist out of the kernels (compile --stats reports
// them; a GPU kernel that allocates serialises on the device heap's
// allocator and scatters its threads' arrays).
func (f *File) Allocating() []string {
	funcs := map[string]*Func{}
	for _, fn := range f.Funcs {
		funcs[fn.Name] = fn
	}
	var allocates func(fn *Func, seen map[string]bool) bool
	allocates = func(fn *Func, seen map[string]bool) bool {
		if seen[fn.Name] {
			return false
		}
		seen[fn.Name] = true
		found := false
		walkCalls(fn.Body, func(c *Call) {
			switch {
			case c.Fun == "arraysem_device_alloc" || c.Fun == "arraysem_device_alloc_chain":
				found = true
			case funcs[c.Fun] != nil && funcs[c.Fun].Device:
				found = found || allocates(funcs[c.Fun], seen)
			}
		})
		return found
	}
	var out []string
	for _, fn := range f.Funcs {
		if fn.Global && allocates(fn, map[string]bool{}) {
			out = append(out, fn.Name)
		}
	}
	return out
}

// walkCalls calls visit on every call of ss, at any depth.
func walkCalls(ss []Stmt, visit func(*Call)) {
	var expr func(e Expr)
	expr = func(e Expr) {
		switch e := e.(type) {
		case *Call:
			visit(e)
			for _, a := range e.Args {
				expr(a)
			}
		case *Field:
			expr(e.X)
		case *Index:
			expr(e.X)
			expr(e.I)
		case *Binary:
			expr(e.L)
			expr(e.R)
		case *Unary:
			expr(e.X)
		case *Cast:
			expr(e.X)
		case *InitList:
			for _, x := range e.Elems {
				expr(x)
			}
		}
	}
	for _, s := range ss {
		switch s := s.(type) {
		case *Decl:
			if s.Init != nil {
				expr(s.Init)
			}
		case *Assign:
			expr(s.LHS)
			expr(s.RHS)
		case *ExprStmt:
			expr(s.X)
		case *If:
			expr(s.Cond)
			walkCalls(s.Then, visit)
			walkCalls(s.Else, visit)
		case *For:
			expr(s.From)
			expr(s.Bound)
			walkCalls(s.Body, visit)
		case *Return:
			if s.Value != nil {
				expr(s.Value)
			}
		case *Launch:
			expr(s.Grid)
			expr(s.Block)
			for _, a := range s.Args {
				expr(a)
			}
		}
	}
}
