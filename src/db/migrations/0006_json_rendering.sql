-- Rendering helpers for read paths that pass PostgreSQL's text straight into a JSON
-- response (the org event feed): no parse and re-serialise in the application.

-- A timestamp as the API prints it: ISO 8601 UTC with milliseconds (2026-11-22T10:15:30.123Z),
-- exactly what JavaScript's Date#toISOString gives for the same instant (both truncate
-- microseconds). A plain SQL function, so the planner inlines it.
CREATE FUNCTION iso_utc(timestamptz) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT to_char($1 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

GRANT EXECUTE ON FUNCTION iso_utc(timestamptz) TO oeuvre_app;
