// Package datafile reads and writes data files: the values of a program's
// inputs, for `--arg NAME=@FILE` (one value), `--data FILE` (one value per
// input, in the order of the program's inputs) and `arraysem dataset`.
//
// The format is Futhark's, so that data sets made for Futhark programs
// (`futhark dataset`) run here, and it is a superset of this project's
// value literals, so that what `--arg NAME=VALUE` takes may be put in a
// file as it is:
//
//   - Text: this project's literals (42, -3, 1.5, NaN, +Inf, [1 2 3],
//     [[1 2] [3 4]], commas allowed), Futhark's too: a literal may carry
//     a type suffix (7i32, 255u8, 2.5f32), booleans are true and false,
//     f64.nan and f64.inf (f32, f16) are the non-finite floats, and
//     empty([0][3]i64) is an empty array of a stated shape. "--" starts a
//     comment to the end of the line.
//   - Binary (Futhark's binary data format): the byte 'b', the version 2,
//     the rank as one byte, the element type in four bytes (" i64",
//     " f32", "  u8", "bool", …), the shape as rank little-endian int64s,
//     then the elements, little-endian, row-major.
//
// Text and binary values may follow one another in one file. Values are
// read into this project's flat arrays (semantics.Array) without an
// intermediate per element: a binary array is converted in chunks
// straight into the array's buffer, and its header's shape is checked
// against --max-memory (semantics.Count) and against the bytes the file
// has left before anything is allocated.
//
// Futhark's types map onto this project's two element types: i8, i16,
// i32, i64, u8, u16, u32 and u64 are ints (int64), f16, f32 and f64 are
// floats (float64, exactly: every f16 and f32 is a float64), and bool is
// an int, 1 for true and 0 for false, as FUN's comparisons give. A u64
// above 2^63-1 cannot be represented and is refused, at its position, as
// is a literal that does not fit its suffix's type (300u8). Errors are
// one line, FILE:LINE:COL: message, of kind semantics.InputError.
package datafile
