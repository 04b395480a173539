package store

// migrations bring a database from one schema version to the next, in
// order: a database is migrated forward, never dropped. Version n is the
// state after migrations[:n]. Each is a text/template whose few
// dialect-specific words come from dialect.schemaFuncs; both databases
// run the same versions.
//
// Version 1 is the schema of the first sync: the directory, detail
// records, analytics history and activity points, each upserted by its
// natural key, times as RFC 3339 text.
//
// The views read directory_values through its key, with no window
// function, so that a query for one entry (WHERE kind = … AND ident = …)
// reaches only that entry's rows, in both databases: a segment ends at
// the member's next row, found through the key, or at the entry's
// last_seen; a day takes the part of every segment that overlaps it,
// found through calendar_days' key, bounded by the last run's start (no
// segment ends after it) as well as by the segment's end, which
// PostgreSQL cannot use as an index bound. calendar_days holds the UTC
// days the data covers: every run adds the days from the last one it
// holds to its own, and the activity points written add theirs.
//
// Version 2 makes the directory a series and times Unix seconds: every
// table of version 1 is rebuilt with its times converted (its rows kept;
// a fraction of a second is dropped from the typed column, the record as
// sent stays in raw), the directory gains what a run needs to fetch only
// what changed, and runs, failures, directory_values and the rollup
// views are added. Version 1 keyed history and activity points by their
// time with its fraction: where two of them fall in one second, which
// version 2's key cannot tell apart, the later one (by its time, then by
// when it was synced) is kept in the table, and the other moves, as
// version 1 held it, to migration_set_aside.
//
// Version 3 records the bytes of the responses a run read (NULL for a
// run before it).
//
// Version 4 keeps text out of directory_values: series_members names the
// members that have held a number or a boolean, and the rows of every
// other member (text members, whose null was recorded like a number's)
// are deleted.
//
// Version 5 adds the rollups as tables (schema_v5.go), filled as runs
// finish, so that raw rows can be pruned.
var migrations = []string{
	`CREATE TABLE directory (
		kind TEXT NOT NULL, ident TEXT NOT NULL DEFAULT '', id TEXT NOT NULL DEFAULT '',
		title TEXT, players {{real}},
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident, id));
	CREATE TABLE packages (
		kind TEXT NOT NULL, ident TEXT NOT NULL,
		title TEXT, players {{real}},
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident));
	CREATE TABLE servers (
		id TEXT NOT NULL PRIMARY KEY,
		name TEXT, players {{real}}, max_players {{real}},
		raw TEXT NOT NULL, synced_at TEXT NOT NULL);
	CREATE TABLE history (
		kind TEXT NOT NULL, ident TEXT NOT NULL, captured_at TEXT NOT NULL,
		players {{real}}, partial_coverage INTEGER NOT NULL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident, captured_at));
	CREATE TABLE activity_points (
		time TEXT NOT NULL PRIMARY KEY,
		players {{real}}, average INTEGER NOT NULL, partial_coverage INTEGER NOT NULL,
		current INTEGER NOT NULL, interval_start TEXT, interval_end TEXT,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL);`,

	schemaV2,

	// Version 3 records the bytes of the responses a run read; NULL for
	// a run before it.
	`ALTER TABLE runs ADD COLUMN bytes_read BIGINT;`,

	schemaV4,
	schemaV5,

	// Version 6 fills directory's pages on PostgreSQL to half: every run
	// rewrites the row of every entry it lists, and a row's new version
	// that fits on its page leaves the primary key alone (a HOT update),
	// which full pages never allowed. Rewriting 100,000 rows took 45 %
	// less time, and the table ended smaller (BENCHMARKS.md, issue 40).
	// SQLite rewrites a row where it lies: nothing to do.
	`{{fillfactor "directory" 50}}`,
}

const schemaV2 = `
CREATE TABLE directory_v2 (
	kind TEXT NOT NULL, ident TEXT NOT NULL DEFAULT '', id TEXT NOT NULL DEFAULT '',
	title TEXT, players DOUBLE PRECISION,
	raw TEXT NOT NULL, synced_at BIGINT NOT NULL,
	listing TEXT NOT NULL,
	first_seen BIGINT NOT NULL, last_seen BIGINT NOT NULL,
	seen_seq BIGINT NOT NULL DEFAULT 0,
	gone_at BIGINT,
	change_key TEXT, series TEXT,
	details_key TEXT, details_at BIGINT,
	report_at BIGINT,
	PRIMARY KEY (kind, ident, id));
INSERT INTO directory_v2 (kind, ident, id, title, players, raw, synced_at, listing, first_seen, last_seen)
	SELECT kind, ident, id, title, players, raw, {{epoch "synced_at"}},
		CASE WHEN id <> '' THEN 'server' ELSE kind END, {{epoch "synced_at"}}, {{epoch "synced_at"}}
	FROM directory;
DROP TABLE directory;
ALTER TABLE directory_v2 RENAME TO directory;

CREATE TABLE packages_v2 (
	kind TEXT NOT NULL, ident TEXT NOT NULL,
	title TEXT, players DOUBLE PRECISION,
	raw TEXT NOT NULL, synced_at BIGINT NOT NULL,
	PRIMARY KEY (kind, ident));
INSERT INTO packages_v2 (kind, ident, title, players, raw, synced_at)
	SELECT kind, ident, title, players, raw, {{epoch "synced_at"}} FROM packages;
DROP TABLE packages;
ALTER TABLE packages_v2 RENAME TO packages;

CREATE TABLE servers_v2 (
	id TEXT NOT NULL PRIMARY KEY,
	name TEXT, players DOUBLE PRECISION, max_players DOUBLE PRECISION,
	raw TEXT NOT NULL, synced_at BIGINT NOT NULL);
INSERT INTO servers_v2 (id, name, players, max_players, raw, synced_at)
	SELECT id, name, players, max_players, raw, {{epoch "synced_at"}} FROM servers;
DROP TABLE servers;
ALTER TABLE servers_v2 RENAME TO servers;

CREATE TABLE history_v2 (
	kind TEXT NOT NULL, ident TEXT NOT NULL, captured_at BIGINT NOT NULL,
	players DOUBLE PRECISION, partial_coverage INTEGER NOT NULL,
	raw TEXT NOT NULL, synced_at BIGINT NOT NULL,
	PRIMARY KEY (kind, ident, captured_at)) {{withoutRowid}};
CREATE TABLE migration_set_aside (
	from_table TEXT NOT NULL, kind TEXT NOT NULL, ident TEXT NOT NULL,
	at TEXT NOT NULL, raw TEXT NOT NULL, synced_at TEXT NOT NULL);
WITH h AS (SELECT kind, ident, captured_at, players, partial_coverage, raw, synced_at,
		ROW_NUMBER() OVER (PARTITION BY kind, ident, {{epoch "captured_at"}}
			ORDER BY {{instant "captured_at"}} DESC, {{instant "synced_at"}} DESC, raw DESC) AS rank
	FROM history)
INSERT INTO history_v2 (kind, ident, captured_at, players, partial_coverage, raw, synced_at)
	SELECT kind, ident, {{epoch "captured_at"}}, players, partial_coverage, raw, {{epoch "synced_at"}} FROM h WHERE rank = 1;
WITH h AS (SELECT kind, ident, captured_at, raw, synced_at,
		ROW_NUMBER() OVER (PARTITION BY kind, ident, {{epoch "captured_at"}}
			ORDER BY {{instant "captured_at"}} DESC, {{instant "synced_at"}} DESC, raw DESC) AS rank
	FROM history)
INSERT INTO migration_set_aside (from_table, kind, ident, at, raw, synced_at)
	SELECT 'history', kind, ident, captured_at, raw, synced_at FROM h WHERE rank > 1;
DROP TABLE history;
ALTER TABLE history_v2 RENAME TO history;

CREATE TABLE activity_points_v2 (
	time BIGINT NOT NULL PRIMARY KEY,
	players DOUBLE PRECISION, average INTEGER NOT NULL, partial_coverage INTEGER NOT NULL,
	current INTEGER NOT NULL, interval_start BIGINT, interval_end BIGINT,
	raw TEXT NOT NULL, synced_at BIGINT NOT NULL);
WITH a AS (SELECT time, players, average, partial_coverage, current, interval_start, interval_end, raw, synced_at,
		ROW_NUMBER() OVER (PARTITION BY {{epoch "time"}}
			ORDER BY {{instant "time"}} DESC, {{instant "synced_at"}} DESC, raw DESC) AS rank
	FROM activity_points)
INSERT INTO activity_points_v2 (time, players, average, partial_coverage, current, interval_start, interval_end, raw, synced_at)
	SELECT {{epoch "time"}}, players, average, partial_coverage, current,
		{{epoch "interval_start"}}, {{epoch "interval_end"}}, raw, {{epoch "synced_at"}}
	FROM a WHERE rank = 1;
WITH a AS (SELECT time, raw, synced_at,
		ROW_NUMBER() OVER (PARTITION BY {{epoch "time"}}
			ORDER BY {{instant "time"}} DESC, {{instant "synced_at"}} DESC, raw DESC) AS rank
	FROM activity_points)
INSERT INTO migration_set_aside (from_table, kind, ident, at, raw, synced_at)
	SELECT 'activity_points', '', '', time, raw, synced_at FROM a WHERE rank > 1;
DROP TABLE activity_points;
ALTER TABLE activity_points_v2 RENAME TO activity_points;

CREATE TABLE runs (
	run_id {{serial}},
	kind TEXT NOT NULL,
	started_at BIGINT NOT NULL,
	finished_at BIGINT,
	outcome TEXT NOT NULL DEFAULT 'running',
	entries BIGINT NOT NULL DEFAULT 0,
	directory_complete INTEGER NOT NULL DEFAULT 0,
	requests BIGINT NOT NULL DEFAULT 0,
	rows_added BIGINT NOT NULL DEFAULT 0,
	rows_changed BIGINT NOT NULL DEFAULT 0,
	failures BIGINT NOT NULL DEFAULT 0);

CREATE TABLE failures (
	run_id BIGINT NOT NULL, stage TEXT NOT NULL, item TEXT NOT NULL,
	error TEXT NOT NULL, at BIGINT NOT NULL,
	PRIMARY KEY (run_id, stage, item));

CREATE TABLE directory_values (
	kind TEXT NOT NULL, ident TEXT NOT NULL, id TEXT NOT NULL, member TEXT NOT NULL,
	at BIGINT NOT NULL, run_id BIGINT NOT NULL,
	value DOUBLE PRECISION, partial_coverage INTEGER NOT NULL, listed INTEGER NOT NULL,
	PRIMARY KEY (kind, ident, id, member, at)) {{withoutRowid}};
CREATE INDEX directory_values_at ON directory_values (at);

CREATE TABLE sync_state (name TEXT NOT NULL PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO sync_state (name, value) VALUES ('seq', 0);

CREATE TABLE calendar_days (day BIGINT NOT NULL PRIMARY KEY);
WITH RECURSIVE d(day) AS (
	SELECT MIN(COALESCE(interval_start, time)) - MIN(COALESCE(interval_start, time)) % 86400 FROM activity_points
	UNION ALL
	SELECT day + 86400 FROM d WHERE day < (SELECT MAX(COALESCE(interval_end, time)) FROM activity_points))
INSERT INTO calendar_days (day) SELECT day FROM d WHERE day IS NOT NULL;

CREATE VIEW directory_at_run AS
SELECT r.run_id, r.started_at AS at, v.kind, v.ident, v.id, v.member, v.value, v.partial_coverage
FROM runs r
JOIN directory_values v ON v.at <= r.started_at
WHERE v.listed = 1
	AND NOT EXISTS (SELECT 1 FROM directory_values n
		WHERE n.kind = v.kind AND n.ident = v.ident AND n.id = v.id AND n.member = v.member
			AND n.at > v.at AND n.at <= r.started_at);

CREATE VIEW directory_segments AS
SELECT v.kind, v.ident, v.id, v.member, v.value, v.partial_coverage, v.at AS start_at,
	COALESCE((SELECT MIN(n.at) FROM directory_values n
			WHERE n.kind = v.kind AND n.ident = v.ident AND n.id = v.id AND n.member = v.member AND n.at > v.at),
		CASE WHEN d.last_seen > v.at THEN d.last_seen ELSE v.at END) AS end_at
FROM directory_values v
JOIN directory d ON d.kind = v.kind AND d.ident = v.ident AND d.id = v.id
WHERE v.listed = 1;

CREATE VIEW directory_daily AS
SELECT kind, ident, id, member, day,
	MIN(value) AS min_value, MAX(value) AS max_value,
	CASE WHEN SUM(seconds) > 0 THEN SUM(value * seconds) / SUM(seconds) ELSE AVG(value) END AS avg_value,
	CAST(SUM(seconds) AS BIGINT) AS covered_seconds,
	MAX(partial_coverage) AS partial_coverage
FROM (SELECT g.kind, g.ident, g.id, g.member, g.value, g.partial_coverage, c.day,
		(CASE WHEN g.end_at < c.day + 86400 THEN g.end_at ELSE c.day + 86400 END)
		- (CASE WHEN g.start_at > c.day THEN g.start_at ELSE c.day END) AS seconds
	FROM directory_segments g
	JOIN calendar_days c ON c.day > g.start_at - 86400 AND c.day <= g.end_at
		AND c.day <= (SELECT MAX(started_at) FROM runs)
	WHERE g.value IS NOT NULL AND (c.day < g.end_at OR c.day <= g.start_at)) x
GROUP BY kind, ident, id, member, day;

CREATE VIEW platform_segments AS
SELECT p.time, p.players AS value, p.partial_coverage,
	COALESCE(p.interval_start, p.time) AS start_at,
	COALESCE(p.interval_end, p.next_time, p.time) AS end_at
FROM (SELECT a.time, a.players, a.partial_coverage, a.interval_start, a.interval_end,
		LEAD(a.time) OVER (ORDER BY a.time) AS next_time
	FROM activity_points a) p;

CREATE VIEW platform_daily AS
SELECT day,
	MIN(value) AS min_value, MAX(value) AS max_value,
	CASE WHEN SUM(seconds) > 0 THEN SUM(value * seconds) / SUM(seconds) ELSE AVG(value) END AS avg_value,
	CAST(SUM(seconds) AS BIGINT) AS covered_seconds,
	MAX(partial_coverage) AS partial_coverage
FROM (SELECT g.value, g.partial_coverage, c.day,
		(CASE WHEN g.end_at < c.day + 86400 THEN g.end_at ELSE c.day + 86400 END)
		- (CASE WHEN g.start_at > c.day THEN g.start_at ELSE c.day END) AS seconds
	FROM platform_segments g
	JOIN calendar_days c ON c.day > g.start_at - 86400 AND c.day <= g.end_at
	WHERE g.value IS NOT NULL AND (c.day < g.end_at OR c.day <= g.start_at)) x
GROUP BY day;
`
