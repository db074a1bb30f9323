-- Trigram indexes make partial, case-insensitive matches (ILIKE '%text%') use an index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
