package gamedata

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// The fast path must take the usual points and agree with the exact path
// on them; a fast path that never fires would pass every other test.
func TestFastPointAgreesWithPoint(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		`[1763200800000,1520.25,0,1763197200000,1763200800000,1,1]`,
		`[1763200800000,null,1,null,null,0,0]`,
		`[5,-0.5,0,0,0,1,0]`,
		`[0,123456789012.345,0,null,null,0,0]`,
	} {
		var got ActivityPoint
		require.Equal(t, len(text), fastPoint([]byte(text), &got), "%s: taken whole", text)
		slow := jsonscan.New([]byte(text))
		var want ActivityPoint
		_, err := point(&slow, &want)
		require.NoError(t, err, text)
		assert.Equal(t, want, got, text)
	}
	for _, text := range []string{
		`[1.7e12,1,0,null,null,0,0]`,                               // exponent
		`[1763200800000,1.23456789012345678,0,null,null,0,0]`,      // 18 digits
		`[1763200800000,1,1.0,null,null,0,0]`,                      // a flag written as 1.0
		`[1763200800000,1,0,null,null,0,0,0]`,                      // eight elements
		`[1763200800000,1,0,null,null,0]`,                          // six elements
		`[ 1763200800000 , 7 , 0 , null , 1763200800000 , 0 , 1 ]`, // white space
		`[-5,-0.5,0,0,0,1,0]`,                                      // a time before 1970
	} {
		var got ActivityPoint
		assert.Zero(t, fastPoint([]byte(text), &got), "%s goes to the exact path", text)
	}
}
