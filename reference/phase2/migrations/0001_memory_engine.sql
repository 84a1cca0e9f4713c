-- 0001_memory_engine: the tables of the Phase 2 memory engine (P2-INT-19, P2-MIG-01).
--
-- Portable SQL, run unchanged on SQLite 3 and PostgreSQL (12 or later): TEXT, BIGINT, no
-- dialect types. Timestamps are TEXT in the one form YYYY-MM-DDTHH:MM:SSZ; facts_json,
-- source_event_ids and payload hold canonical JSON text. Ids are given by the writer
-- (greatest + 1), never by a sequence, so both engines assign the same ids. The engine orders
-- rows in code, never with ORDER BY on TEXT (PostgreSQL collations differ from byte order).
-- Statements are separated by a semicolon at the end of a line.

CREATE TABLE IF NOT EXISTS memory_summaries (
    id BIGINT PRIMARY KEY,
    user_id TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    summary_text TEXT NOT NULL,
    facts_json TEXT NOT NULL,
    source_event_ids TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_summaries_user_chat ON memory_summaries (user_id, chat_id);

CREATE TABLE IF NOT EXISTS event_log (
    id BIGINT PRIMARY KEY,
    user_id TEXT,
    chat_id TEXT,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS event_log_user_chat ON event_log (user_id, chat_id);

CREATE TABLE IF NOT EXISTS inbox_items (
    id BIGINT PRIMARY KEY,
    user_id TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS inbox_items_user_chat ON inbox_items (user_id, chat_id);

CREATE TABLE IF NOT EXISTS entities (
    id BIGINT PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    title TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entities_user ON entities (user_id);

CREATE TABLE IF NOT EXISTS entity_links (
    id BIGINT PRIMARY KEY,
    from_entity_id BIGINT NOT NULL,
    to_entity_id BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS schema_migrations (
    version TEXT PRIMARY KEY
);
