package message

import (
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/stretchr/testify/assert"
)

// Other errors pass as they are.
func TestExplainLeavesOtherErrors(t *testing.T) {
	t.Parallel()
	err := &gamedata.APIError{StatusCode: 404, Method: "GET", URL: "http://h/api/dashboard?page=9"}
	assert.Same(t, error(err), Explain(err, "http://h"))
	assert.NoError(t, Explain(nil, "http://h"))
}
