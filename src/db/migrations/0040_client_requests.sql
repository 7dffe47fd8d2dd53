-- The request log (DESIGN section 10.1): every /v1 and /oauth/token request made with an OAuth
-- client's credentials, without bodies or secrets. The API buffers the rows and writes them in
-- batches through record_client_requests, off the request path; the worker deletes rows older
-- than 30 days through prune_client_requests.
CREATE TABLE client_requests (
  org_id text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  client_id text NOT NULL,
  at timestamptz NOT NULL,
  method text NOT NULL,
  -- The route pattern (/v1/orgs/{orgId}/events), never the path as sent: no ids, no query string.
  path text NOT NULL,
  status smallint NOT NULL CHECK (status BETWEEN 100 AND 599),
  latency_ms integer NOT NULL CHECK (latency_ms >= 0),
  request_id text NOT NULL,
  address text NOT NULL,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, client_id) REFERENCES oauth_clients (org_id, id)
);
-- A client's log, newest first (the id breaks ties of one instant).
CREATE INDEX client_requests_client ON client_requests (client_id, at DESC, id DESC);
-- Retention deletes by age across every org.
CREATE INDEX client_requests_at ON client_requests (at);
ALTER TABLE client_requests ENABLE ROW LEVEL SECURITY;
ALTER TABLE client_requests FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON client_requests USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
-- The app reads its org's rows; it writes and deletes only through the functions below.
GRANT SELECT ON client_requests TO oeuvre_app;

-- Where the latest recorded request came from (lastUsedFrom), beside last_used_at (lastUsedAt).
ALTER TABLE oauth_clients ADD COLUMN last_used_from text;

-- The definer writes a batch of every org's rows, touches the clients, and prunes by age.
GRANT SELECT, INSERT, DELETE ON client_requests TO oeuvre_definer;
CREATE POLICY definer_lookup ON client_requests FOR SELECT TO oeuvre_definer USING (true);
CREATE POLICY definer_record ON client_requests FOR INSERT TO oeuvre_definer WITH CHECK (true);
CREATE POLICY definer_prune ON client_requests FOR DELETE TO oeuvre_definer USING (true);
GRANT UPDATE (last_used_at, last_used_from) ON oauth_clients TO oeuvre_definer;
CREATE POLICY definer_touch ON oauth_clients FOR UPDATE TO oeuvre_definer USING (true) WITH CHECK (true);

-- A batch of requests as a JSON array of {client_id, at, method, path, status, latency_ms,
-- request_id, address}. Each row's org is its client's; a row naming no client (a token request
-- with an unknown client_id) is left out. Each client's last_used_at/last_used_from become its
-- latest request that authenticated (not a 401: a failed secret is not a use), never moving back.
-- Returns how many rows were written.
CREATE FUNCTION record_client_requests(p_requests jsonb)
  RETURNS bigint
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    WITH input AS (
      SELECT r.*, e.ord
      FROM jsonb_array_elements(p_requests) WITH ORDINALITY AS e(value, ord)
      CROSS JOIN LATERAL jsonb_to_record(e.value)
        AS r(client_id text, at timestamptz, method text, path text, status integer, latency_ms integer,
             request_id text, address text)
    ),
    known AS (
      SELECT c.org_id, i.* FROM input i JOIN oauth_clients c ON c.id = i.client_id
    ),
    written AS (
      INSERT INTO client_requests (org_id, client_id, at, method, path, status, latency_ms, request_id, address)
      SELECT org_id, client_id, at, method, path, status, latency_ms, request_id, address FROM known ORDER BY ord
      RETURNING 1
    ),
    latest AS (
      SELECT DISTINCT ON (org_id, client_id) org_id, client_id, at, address
      FROM known
      WHERE status <> 401
      ORDER BY org_id, client_id, at DESC, ord DESC
    ),
    touched AS (
      UPDATE oauth_clients c
      SET last_used_at = l.at, last_used_from = l.address
      FROM latest l
      WHERE c.org_id = l.org_id AND c.id = l.client_id AND (c.last_used_at IS NULL OR c.last_used_at <= l.at)
      RETURNING 1
    )
    SELECT count(*) FROM written
  $$;

-- Deletes up to p_limit rows older than p_before, across every org; returns how many.
CREATE FUNCTION prune_client_requests(p_before timestamptz, p_limit integer)
  RETURNS bigint
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    WITH doomed AS (
      SELECT org_id, id FROM client_requests WHERE at < p_before LIMIT p_limit
    ),
    gone AS (
      DELETE FROM client_requests r USING doomed d WHERE r.org_id = d.org_id AND r.id = d.id RETURNING 1
    )
    SELECT count(*) FROM gone
  $$;

ALTER FUNCTION record_client_requests(jsonb) OWNER TO oeuvre_definer;
ALTER FUNCTION prune_client_requests(timestamptz, integer) OWNER TO oeuvre_definer;
REVOKE ALL ON FUNCTION record_client_requests(jsonb), prune_client_requests(timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION record_client_requests(jsonb), prune_client_requests(timestamptz, integer) TO oeuvre_app;
