-- The same schema for SQLite and PostgreSQL: portable types only, ids made by the server.

-- A player: the name as shown, its key (NFC, lower case) that keeps names unique without
-- regard to case, and the SHA-256 of the token (the token itself is never stored).
CREATE TABLE players (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    created_ms BIGINT NOT NULL
);

-- A player's result of a day's daily: the first one counts, so one a player a day. The code
-- is the whole proof (board, moves, times); moves and time_ms are read from it. One solve is
-- one player's: the same code (by its SHA-256) is taken once a day.
CREATE TABLE results (
    day BIGINT NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    moves BIGINT NOT NULL,
    time_ms BIGINT NOT NULL,
    code TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    posted_ms BIGINT NOT NULL,
    PRIMARY KEY (day, player_id),
    UNIQUE (day, code_hash)
);

-- The ranking of a day: by time, then moves.
CREATE INDEX results_by_rank ON results (day, time_ms, moves);
