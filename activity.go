package gamedata

import (
	"context"
	"net/url"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

// Range7d is the activity-history range of seven days, a documented value.
const Range7d = "7d"

// ActivityOptions selects an activity history.
type ActivityOptions struct {
	// Range is the time range, such as Range7d; empty leaves it to the
	// service.
	Range string `url:"range,omitempty"`
	// Params carries query parameters the service takes but does not
	// document. It may not repeat range.
	Params url.Values `url:"-"`
}

// ActivityService reads player activity history. Use it through
// Client.Activity.
type ActivityService service

// History reads the compact player activity history of the whole
// platform (GET /api/activity-history): players across every game, not
// one game's. A game's own history is in its analytics report
// (Analytics.Package), and an organization's in Analytics.Organization. A
// point that is not exactly the seven documented elements is a
// *DecodeError naming its index.
func (s *ActivityService) History(ctx context.Context, opts *ActivityOptions, callOpts ...CallOption) (*ActivityHistory, error) {
	o := valueOf(opts)
	q, err := encodeQuery(o, o.Params)
	if err != nil {
		return nil, err
	}
	var h *ActivityHistory
	err = (*service)(s).get(ctx, callOpts, manifest.ActivityHistory, q, func(b []byte) (err error) {
		h, err = decodeActivityHistory(b)
		return err
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}
