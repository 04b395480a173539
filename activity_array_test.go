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
		require.Equal(t, len(text), fastPoint([]byte(text), &got, &knownTime{}), "%s: taken whole", text)
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
		assert.Zero(t, fastPoint([]byte(text), &got, &knownTime{}), "%s goes to the exact path", text)
	}
}

// A bound that repeats a known time is that time; one that only starts
// like it, or that it only starts like, is read for itself.
func TestFastPointsReuseRepeatedTimes(t *testing.T) {
	t.Parallel()
	for name, text := range map[string]string{
		"the service's averages":  `[1000,5,0,400,1000,1,0],[1600,6,0,1000,1600,1,0],[2200,7,0,1600,2200,1,0]`,
		"a bound longer than it":  `[1000,5,0,10000,10000,1,0],[1600,6,0,10000,16000,1,0]`,
		"a bound shorter than it": `[1000,5,0,100,100,1,0],[1600,6,0,100,160,1,0]`,
		"one ends another begins": `[1000,5,0,null,1000,1,0],[1600,6,0,1000,null,1,0],[2200,7,0,null,2200,1,0]`,
		"a time written again":    `[1000,5,0,1000,1000,1,0],[1000,6,0,1000,1000,1,0]`,
	} {
		got, n := fastPoints([]byte(text), nil)
		require.Equal(t, len(text), n, "%s: taken whole", name)
		var want []ActivityPoint
		require.NoError(t, jsonscan.Elements([]byte("["+text+"]"), func(_ int, v []byte) error {
			s := jsonscan.New(v)
			var p ActivityPoint
			_, err := point(&s, &p)
			want = append(want, p)
			return err
		}), name)
		assert.Equal(t, want, got, name)
	}
}
