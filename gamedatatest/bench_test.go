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

// BenchmarkActivityHistory measures writing the body of the shortest range
// (the baseline, 1,440 points) and of the longest (35,040): the cost
// should grow about linearly with the points.
func BenchmarkActivityHistory(b *testing.B) {
	s := NewServer()
	defer s.Close()
	c := s.Catalog()
	for _, rng := range []string{"24h", "all"} {
		b.Run(rng, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.ActivityHistory(rng)
			}
		})
	}
}
