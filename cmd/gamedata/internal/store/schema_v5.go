package store

// schemaV5 is migration 5: the rollups as tables, which a prune keeps
// when it deletes old raw rows. directory_rollups holds an entry's
// member for an hour (period 3600) or a UTC day (86400) only where the
// member has a row of directory_values in it: in a period without one
// the member held the last_value of its latest rollup before, or, when
// that is NULL, had no value. platform_rollups holds every hour and day
// the activity points cover. rollup_state keeps how far they are done:
// 'hour' and 'day' (the first period not yet rolled), 'platform' (the
// earliest activity point changed since the platform was last rolled)
// and 'pruned' (raw rows before it are gone, so no period that starts
// before it is rolled again, and no activity point before it is written
// again).
const schemaV5 = `
CREATE TABLE directory_rollups (
	kind TEXT NOT NULL, ident TEXT NOT NULL, id TEXT NOT NULL, member TEXT NOT NULL,
	period BIGINT NOT NULL, start_at BIGINT NOT NULL,
	min_value DOUBLE PRECISION, max_value DOUBLE PRECISION, avg_value DOUBLE PRECISION,
	covered_seconds BIGINT NOT NULL, partial_coverage INTEGER NOT NULL,
	last_value DOUBLE PRECISION,
	PRIMARY KEY (kind, ident, id, member, period, start_at)) {{withoutRowid}};
CREATE TABLE platform_rollups (
	period BIGINT NOT NULL, start_at BIGINT NOT NULL,
	min_value DOUBLE PRECISION, max_value DOUBLE PRECISION, avg_value DOUBLE PRECISION,
	covered_seconds BIGINT NOT NULL, partial_coverage INTEGER NOT NULL,
	PRIMARY KEY (period, start_at));
CREATE TABLE rollup_state (name TEXT NOT NULL PRIMARY KEY, value BIGINT NOT NULL);
`
