package gamedatatest

import (
	"strconv"
	"testing"
)

// BenchmarkNewServer measures generating a catalogue and starting the twin,
// at the default size (the baseline) and at 100,000 packages, the size a
// load test asks for: generation should grow about linearly between them.
func BenchmarkNewServer(b *testing.B) {
	for _, size := range []struct{ packages, servers, orgs int }{
		{DefaultPackages, DefaultServers, DefaultOrganizations},
		{100_000, 10_000, 1_000},
	} {
		b.Run(strconv.Itoa(size.packages), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewServer(WithSize(size.packages, size.servers, size.orgs)).Close()
			}
		})
	}
}
