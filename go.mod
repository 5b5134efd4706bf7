module github.com/arraysem/arraysem

go 1.26.8

require (
	github.com/leanovate/gopter v0.2.11
	github.com/mattn/go-runewidth v0.0.31
)

require github.com/clipperhouse/uax29/v2 v2.2.0 // indirect
