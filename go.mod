module github.com/arraysem/arraysem

go 1.26.8

require (
	github.com/chzyer/readline v1.5.1
	github.com/kr/pretty v0.3.1
	github.com/leanovate/gopter v0.2.11
	github.com/mattn/go-runewidth v0.0.31
)

require (
	github.com/clipperhouse/uax29/v2 v2.2.0 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/rogpeppe/go-internal v1.9.0 // indirect
	golang.org/x/sys v0.6.0 // indirect
)
