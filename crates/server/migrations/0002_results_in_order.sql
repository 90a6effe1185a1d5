-- Each result's number in its day, in the order results were kept: 1 + the day's highest so
-- far, given by the writer as it inserts. Results are only ever added, so a server that keeps
-- a day's ranking reads only the results numbered past the ones it has (and checks the day's
-- count, so a number given twice by two servers at once only makes it read the day whole).
-- Results kept before this migration are numbered 0.
ALTER TABLE results ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;

CREATE INDEX results_in_order ON results (day, seq);
