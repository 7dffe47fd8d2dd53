-- The request log (DESIGN section 10.1): every /v1 and /oauth/token request made with an OAuth
-- client's credentials, without bodies or secrets. The API buffers the rows and writes them in
-- batches off the request path (one INSERT per org per batch); the worker deletes rows older
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
-- The app reads and writes its org's rows (each org's in that org's transaction); it deletes
-- none: rows go only with age, through prune_client_requests.
GRANT SELECT, INSERT ON client_requests TO oeuvre_app;

-- Where the latest recorded request came from (lastUsedFrom), beside last_used_at (lastUsedAt).
ALTER TABLE oauth_clients ADD COLUMN last_used_from text;

-- A token request names its client before its org is known: the orgs of the clients named
-- (an id naming no client is left out, and such a request is not recorded).
CREATE FUNCTION oauth_client_orgs(p_client_ids text[])
  RETURNS TABLE (client_id text, org_id text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT c.id, c.org_id FROM oauth_clients c WHERE c.id = ANY (p_client_ids)
  $$;

-- Retention: the definer deletes old rows of every org, and reads them to find them.
GRANT SELECT, DELETE ON client_requests TO oeuvre_definer;
CREATE POLICY definer_lookup ON client_requests FOR SELECT TO oeuvre_definer USING (true);
CREATE POLICY definer_prune ON client_requests FOR DELETE TO oeuvre_definer USING (true);

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

ALTER FUNCTION oauth_client_orgs(text[]) OWNER TO oeuvre_definer;
ALTER FUNCTION prune_client_requests(timestamptz, integer) OWNER TO oeuvre_definer;
REVOKE ALL ON FUNCTION oauth_client_orgs(text[]), prune_client_requests(timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION oauth_client_orgs(text[]), prune_client_requests(timestamptz, integer) TO oeuvre_app;
