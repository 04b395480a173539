package gamedata

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fast path must take the usual points and agree with the exact path
// on them; a fast path that never fires would pass every other test.
func TestFastPointAgreesWithPoint(t *testing.T) {
	t.Parallel()
	for _, point := range []string{
		`[1763200800000,1520.25,0,1763197200000,1763200800000,1,1]`,
		`[1763200800000,null,1,null,null,0,0]`,
		`[ 1763200800000 , 7 , 0 , null , 1763200800000 , 0 , 1 ]`,
		`[-5,-0.5,0,0,0,1,0]`,
		`[0,123456789012.345,0,null,null,0,0]`,
	} {
		fast := scanner{b: []byte(point)}
		var got ActivityPoint
		require.True(t, fast.fastPoint(&got), point)
		assert.Equal(t, len(point), fast.i, "%s: consumed whole", point)
		slow := scanner{b: []byte(point)}
		var want ActivityPoint
		_, err := slow.point(&want)
		require.NoError(t, err, point)
		assert.Equal(t, want, got, point)
	}
	for _, point := range []string{
		`[1.7e12,1,0,null,null,0,0]`,                          // exponent
		`[1763200800000,1.23456789012345678,0,null,null,0,0]`, // 18 digits
		`[1763200800000,1,1.0,null,null,0,0]`,                 // a flag written as 1.0
		`[1763200800000,1,0,null,null,0,0,0]`,                 // eight elements
		`[1763200800000,1,0,null,null,0]`,                     // six elements
	} {
		fast := scanner{b: []byte(point)}
		var got ActivityPoint
		assert.False(t, fast.fastPoint(&got), "%s goes to the exact path", point)
	}
}

func TestEightDigits(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"12345678", 12345678, true},
		{"00000000", 0, true},
		{"99999999", 99999999, true},
		{"17632008", 17632008, true},
		{"1234567a", 0, false},
		{"/2345678", 0, false}, // the byte before '0'
		{"1234567:", 0, false}, // the byte after '9'
		{"1234 678", 0, false},
		{"-1234567", 0, false},
	} {
		got, ok := eightDigits([]byte(tt.in))
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}
