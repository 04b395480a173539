package gamedatatest

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTypedEntries(t *testing.T) {
	t.Parallel()
	s := NewServer(WithSize(40, 15, 8))
	defer s.Close()
	c := s.Catalog()
	for _, q := range []url.Values{{}, {"kind": {"server"}, "sort": {"players"}}, {"kind": {"mod"}, "filter": {"online"}}} {
		typed, raw := c.Entries(q), walk(t, s, "/api/dashboard", q)
		require.Len(t, typed, len(raw))
		for i, e := range typed {
			assert.Equal(t, raw[i], object(t, e.JSON()), "JSON is the entry as served")
			assert.Equal(t, raw[i]["kind"], e.Kind)
			if e.Kind == "server" {
				assert.Equal(t, raw[i]["id"], e.ID)
				assert.Empty(t, e.Ident)
			} else {
				assert.Equal(t, raw[i]["ident"], e.Ident)
				assert.Equal(t, raw[i]["title"], e.Name)
				assert.Equal(t, raw[i]["updatedAt"], stamp(e.Updated))
			}
			assert.Equal(t, raw[i]["players"] != nil, e.Players.Valid)
			if e.Players.Valid {
				assert.Equal(t, raw[i]["players"], e.Players.Value)
			}
			b, err := json.Marshal(e)
			require.NoError(t, err)
			assert.JSONEq(t, string(e.JSON()), string(b))
		}
	}
	orgs, raw := c.OrganizationEntries(url.Values{"sort": {"packages"}}), walk(t, s, "/api/organizations", url.Values{"sort": {"packages"}})
	require.Len(t, orgs, len(raw))
	for i, o := range orgs {
		assert.Equal(t, raw[i]["ident"], o.Ident)
		assert.Equal(t, raw[i]["packages"], float64(o.Packages))
		assert.Equal(t, raw[i]["website"] != nil, o.Website != "")
		assert.Equal(t, raw[i], object(t, o.JSON()))
	}
}
