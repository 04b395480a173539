package catalog

import "math"

// Every number the twin serves about players is drawn around a level: the
// typical players of a package, of an organization (the sum of its
// packages' levels) or of the platform. Drawing every figure of one entity
// from one level, within the bounds below, is what keeps a current count,
// a peak and a history average of the same entity consistent with each
// other; doc.go states the invariants that follow.
const (
	// A package's current players are its level times a factor in
	// [currentLow, currentLow+currentSpan): the time of day.
	currentLow, currentSpan = 0.8, 0.4
	// A day's average players are the level times [dayLow, dayLow+daySpan).
	dayLow, daySpan = 0.85, 0.3
	// A day's peak is its average times [dayPeakLow, dayPeakLow+dayPeakSpan).
	dayPeakLow, dayPeakSpan = 1.15, 0.35
	// A package's playersPeak, its all-time peak, is its level times
	// [peakLow, peakLow+peakSpan). peakLow is above the largest current
	// count (currentLow+currentSpan) and the largest day's peak
	// ((dayLow+daySpan)*(dayPeakLow+dayPeakSpan) = 1.725), so the peak is
	// never below a value it should have seen.
	peakLow, peakSpan = 1.8, 0.7
	// A package no one plays right now has a small level, so that its
	// history shows the fraction of a player it averages.
	idleLow, idleSpan = 0.2, 0.8
)

// unit is a number in [0, 1) derived from the seed and parts alone, for a
// value that must not depend on the order of generation or shift the
// generator's other draws.
func unit(seed int64, parts ...string) float64 {
	return float64(hash64(seed, parts...)>>11) / (1 << 53)
}

// packageLevel is the level of the package kind/ident whose current players
// were drawn as current (0 for a package no one plays now).
func packageLevel(seed int64, kind, ident string, current float64) float64 {
	u := unit(seed, "level", kind, ident)
	if current <= 0 {
		return idleLow + idleSpan*u
	}
	return current / (currentLow + currentSpan*u)
}

// packagePeak is the playersPeak of a package of the given level, for a
// draw u in [0, 1).
func packagePeak(level, u float64) float64 { return math.Ceil(level * (peakLow + peakSpan*u)) }

// entryCoverage is the share of an analytics history entry's players that
// was recorded: 1 for full coverage; for partial coverage less, and the
// older the entry the less, so that a partial value is a lower bound of
// what full coverage would have counted.
func entryCoverage(partial bool, age int) float64 {
	if !partial {
		return 1
	}
	return max(0.6, 0.9-0.01*float64(max(age-60, 0)))
}

// pointCoverage is the share of the platform's players that an activity
// point recorded: 1 for full coverage; for the partial points of the
// oldest stretch of a range (before index oldest) from 0.7 at the start,
// rising towards full coverage; 0.9 for another partial point.
func pointCoverage(partial bool, i, oldest int) float64 {
	switch {
	case !partial:
		return 1
	case i < oldest:
		return 0.7 + 0.25*float64(i)/float64(oldest)
	}
	return 0.9
}

// platformPlayers is the platform's current players: the sum of the known
// current players of the games (mods and tools are played within games, so
// they are not counted again).
func platformPlayers(pkgs []pkg) float64 {
	var sum float64
	for i := range pkgs {
		if p := &pkgs[i]; p.kind == "game" && p.players.ok {
			sum += p.players.v
		}
	}
	return sum
}
