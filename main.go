// Command arraysem runs, checks, steps and compiles programs of the array
// languages FUN, FUNMEM, IMP and Remora under their executable semantics.
// The command line is package internal/cli.
//
// Usage (the commands `arraysem help` lists; a test keeps the two equal):
//
//	arraysem run FILE [--arg NAME=VALUE|NAME=@FILE]... [--data FILE] [--semantics S] [--fuel N] [--derive] [--trace] [--stats] [--jobs N]
//	arraysem step FILE [--arg NAME=VALUE|NAME=@FILE]... [--data FILE] [-n N] [--fuel N]
//	arraysem check FILE [--derive] [--paper] [--infer] [--arg NAME=VALUE|NAME=@FILE]... [--data FILE]
//	arraysem compile FILE [--to LEVEL | --stages | --passes A,B,...] [OPTION]... [--no-expand] [--explain-fusion] [--stats] | --list-passes
//	arraysem gpu-sim FILE.cu [--stats] [--block N] [--schedule in-order|reverse|random[:SEED]] [--engine compiled|reference] [NAME=VALUE|NAME=@FILE]... [--data FILE]
//	arraysem gpu-check DIR [--sim|--host|--nvcc] [--exact-floats] [--wide]
//	arraysem test DIR [-v] [--levels] [--exact-floats] [--jobs N]
//	arraysem side-by-side FILE [--arg NAME=VALUE|NAME=@FILE]... [--data FILE] [--fuel N] [--only LANG,...] [--semantics S,...] [--exact-floats] [--jobs N]
//	arraysem dataset -g TYPE... [-s SEED] [-b] [--TYPE-bounds=LO:HI]...
//	arraysem prove [--property NAME] [--n N] [--seed S] [--shard i/n] [--for D] [--json FILE] | --merge FILE... | --list [--wide]
//	arraysem cover [--n N] [--seed S]
//	arraysem repl [FILE] [--arg NAME=VALUE|NAME=@FILE]... [--fuel N]
//	arraysem bench [--row NAME]... [--quick] [--json FILE] [--clock cpu|wall]
//	arraysem demo
//
// Exit status: 0 success; 1 the program went wrong (stuck, out of fuel,
// race, disagreement); 2 bad input (usage, parse, type or input error).
package main

import (
	"os"

	"github.com/arraysem/arraysem/internal/cli"
)

func main() { os.Exit(cli.Command(os.Args[1:])) }
