package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gamedata-go/gamedata"
)

// topGames prints the n games the dashboard lists first by players, each
// with the figures of its own record, read two at a time: the code under
// test in main_test.go.
func topGames(ctx context.Context, c *gamedata.Client, n int, w io.Writer) error {
	page, err := c.Dashboard.List(ctx, &gamedata.DashboardOptions{
		Kind:        gamedata.KindGame,
		ListOptions: gamedata.ListOptions{Sort: "players", PageSize: n},
	})
	if err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	refs := make([]gamedata.PackageRef, len(page.Items))
	for i, e := range page.Items {
		refs[i] = e.PackageRef()
	}
	i := 0
	for p, err := range c.Packages.GetMany(ctx, refs, 2) {
		if err != nil {
			return err
		}
		i++
		title, _ := p.Text("title")
		// Publisher text is untrusted: printed through Untrusted.String.
		// A null metric prints as null, never as 0.
		fmt.Fprintf(w, "%d. %s (%s/%s): %s players, peak %s\n",
			i, title, gamedata.NewUntrusted(p.Kind), gamedata.NewUntrusted(p.Ident), p.Metric("players"), p.Metric("playersPeak"))
	}
	return nil
}
