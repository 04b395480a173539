package jsonscan

import (
	"encoding/binary"
	"math/bits"
)

// The fast readers take a number's digits eight at a time, with a few
// operations on one 64-bit word instead of a loop (Lemire, "Fast numeric
// string parsing in C++", 2022): a time is 13 digits, two words, where a
// loop takes 13 dependent steps. BENCHMARKS.md says what it earns.

const ones = 0x0101010101010101

// Uint reads, at the start of b, an integer of at most 15 digits written
// as JSON writes it (no sign, no leading zero), and returns it and how
// many digits it has, or no digits for anything else. The caller checks
// what follows: a fraction or an exponent would make it another number.
func Uint(b []byte) (uint64, int) {
	v, n, padded := leadingDigits(b)
	if padded {
		return 0, 0
	}
	return v, n
}

// leadingDigits returns the value of the run of decimal digits at the
// start of b and how many there are, and whether the run has a leading
// zero: the integer part of a number may not, a fraction may. A run of
// more than 15 digits, more than the fast readers take, is reported as
// none. (Uint is small enough to be inlined because this says padded
// rather than Uint looking at the first byte itself: it saves a
// twentieth of the activity decoding's instructions.)
func leadingDigits(b []byte) (v uint64, n int, padded bool) {
	if len(b) < 16 {
		// Fewer than 16 bytes hold at most 15 digits.
		for ; n < len(b) && b[n] >= '0' && b[n] <= '9'; n++ {
			v = v*10 + uint64(b[n]-'0')
		}
		return v, n, n > 1 && b[0] == '0'
	}
	w := binary.LittleEndian.Uint64(b)
	padded = w&0xff == '0'
	n = digitRun(w)
	if n < 8 {
		return wordDigits(w, n), n, padded && n > 1
	}
	w2 := binary.LittleEndian.Uint64(b[8:])
	n2 := digitRun(w2)
	if n2 == 8 {
		return 0, 0, false
	}
	return eightDigits(w)*pow10u[n2] + wordDigits(w2, n2), 8 + n2, padded
}

// digitRun returns how many of the bytes of w, read from its lowest, are
// decimal digits before the first that is not. A byte is a digit when
// its high nibble is 3 and adding 6 leaves it 3; a carry out of a byte
// that is not a digit reaches only the bytes after it.
func digitRun(w uint64) int {
	high := w&(0xf0*ones) ^ 0x30*ones
	past := (w+0x06*ones)&(0xf0*ones) ^ 0x30*ones
	t := high | past
	return bits.TrailingZeros64(t) / 8
}

// wordDigits returns the value of the first n bytes of w, all digits:
// they are moved to the top of the word and the bytes below filled with
// '0', leading zeros of the same value.
func wordDigits(w uint64, n int) uint64 {
	w <<= 8 * (8 - n)
	w |= (0x30 * ones) >> (8 * n)
	return eightDigits(w)
}

// eightDigits returns the value of the eight digits of w.
func eightDigits(w uint64) uint64 {
	w -= 0x30 * ones
	w = w*10 + w>>8
	return ((w&0x000000ff000000ff)*(100+1000000<<32) + (w>>16&0x000000ff000000ff)*(1+10000<<32)) >> 32
}

var pow10u = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}
