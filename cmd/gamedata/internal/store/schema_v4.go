package store

// schemaV4 is migration 4: the members that are series, and the rows of
// those that are not moved out of directory_values. A member never seen
// with a number or a boolean had only NULL rows, which said nothing a
// missing row does not.
const schemaV4 = `
CREATE TABLE series_members (member TEXT NOT NULL PRIMARY KEY);
INSERT INTO series_members (member)
	SELECT DISTINCT member FROM directory_values WHERE value IS NOT NULL;
DELETE FROM directory_values
	WHERE NOT EXISTS (SELECT 1 FROM series_members m WHERE m.member = directory_values.member);
`
