package gamedata

import (
	"bytes"
	"encoding/json"
)

// MarshalJSON writes the results as the service sent them. Results built
// in Go are written as an object of the lists that are not nil, under
// their members' names.
func (r SearchResults) MarshalJSON() ([]byte, error) {
	if r.raw != nil {
		return r.raw, nil
	}
	return json.Marshal(struct {
		Packages      []Package      `json:"packages,omitzero"`
		Servers       []Server       `json:"servers,omitzero"`
		Organizations []Organization `json:"organizations,omitzero"`
	}{r.Packages, r.Servers, r.Organizations})
}

// UnmarshalJSON decodes search results as Client.Search does. Null leaves
// r as it is.
func (r *SearchResults) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	d, err := decodeSearchResults(bytes.Clone(b), true)
	if err != nil {
		return err
	}
	*r = d
	return nil
}

// MarshalJSON writes the results as the service sent them. Results built
// in Go are written as an object of the lists that are not nil, under
// their members' names.
func (r AnalyticsSearchResults) MarshalJSON() ([]byte, error) {
	return SearchResults{Packages: r.Packages, Organizations: r.Organizations, Fields: r.Fields}.MarshalJSON()
}

// UnmarshalJSON decodes search results as Client.Analytics.Search does.
// Null leaves r as it is.
func (r *AnalyticsSearchResults) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	d, err := decodeSearchResults(bytes.Clone(b), false)
	if err != nil {
		return err
	}
	*r = AnalyticsSearchResults{Packages: d.Packages, Organizations: d.Organizations, Fields: d.Fields}
	return nil
}
