package funmem

import "github.com/arraysem/arraysem/fun"

func (x *expander) folds(b *fun.Body, thread bool) *fun.Body { return b }
