-- Webhooks (endpoints, deliveries, attempts, the worker's queue) and evidence seals.
--
-- Tenant tables follow the foundation's rules: org_id first in every key, RLS enabled
-- and forced, one `tenant` policy. The worker works across orgs through two things
-- that hold no tenant content: the webhook_queue index (delivery id, org id, due time,
-- lease) and the evidence_orgs_due() function (org ids only). Everything it reads or
-- writes about a delivery or a seal happens inside that org's tenant scope.

CREATE TABLE webhook_endpoints (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text,
  -- AES-256-GCM sealed signing secrets (the key is SECRETS_KEY, never in the database).
  secret_sealed text,
  previous_secret_sealed text,
  previous_secret_expires_at timestamptz,
  -- Start of the current run of failed attempts; cleared by any success.
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX webhook_endpoints_listing ON webhook_endpoints (org_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_endpoints FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON webhook_endpoints USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT, UPDATE ON webhook_endpoints TO oeuvre_app;

CREATE TABLE webhook_deliveries (
  org_id text NOT NULL,
  id text NOT NULL,
  endpoint_id text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  -- The exact bytes sent (and signed) on every attempt.
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'blocked')),
  attempt_count integer NOT NULL DEFAULT 0,
  -- Position in the retry schedule of the next attempt.
  retry_index integer NOT NULL DEFAULT 0,
  -- Set by a redelivery request: the next attempt is logged as trigger 'redelivery'.
  redelivery_requested boolean NOT NULL DEFAULT false,
  next_attempt_at timestamptz,
  last_http_status integer,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, endpoint_id) REFERENCES webhook_endpoints (org_id, id)
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (org_id, endpoint_id, created_at DESC, id DESC);
ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_deliveries FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON webhook_deliveries USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_deliveries TO oeuvre_app;

CREATE TABLE webhook_attempts (
  org_id text NOT NULL,
  delivery_id text NOT NULL,
  attempt integer NOT NULL CHECK (attempt > 0),
  endpoint_id text NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('scheduled', 'redelivery')),
  started_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('succeeded', 'failed', 'blocked')),
  http_status integer,
  latency_ms integer NOT NULL,
  response_body text,
  error text,
  address text,
  PRIMARY KEY (org_id, delivery_id, attempt),
  FOREIGN KEY (org_id, delivery_id) REFERENCES webhook_deliveries (org_id, id) ON DELETE CASCADE
);
ALTER TABLE webhook_attempts ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_attempts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON webhook_attempts USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT, DELETE ON webhook_attempts TO oeuvre_app;

-- The worker's cross-org index: no tenant content, only which delivery of which org is
-- due when, and who holds it. Workers claim rows with FOR UPDATE SKIP LOCKED and a
-- lease; the delivery itself is then read and recorded inside its org's scope.
CREATE TABLE webhook_queue (
  delivery_id text PRIMARY KEY,
  tenant_org text NOT NULL,
  due_at timestamptz,
  leased_until timestamptz,
  lease_owner bigint,
  lease_token text,
  finished_at timestamptz
);
CREATE INDEX webhook_queue_due ON webhook_queue (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX webhook_queue_finished ON webhook_queue (finished_at) WHERE finished_at IS NOT NULL;
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_queue TO oeuvre_app;

-- Signed checkpoints of each org's event log (RFC 6962 Merkle tree heads). Insert-only.
CREATE TABLE evidence_seals (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  tree_size bigint NOT NULL CHECK (tree_size > 0),
  root_hash text NOT NULL,
  checkpoint text NOT NULL,
  signature text NOT NULL,
  key_id text NOT NULL,
  -- Right-edge subtree hashes: the next seal extends the tree without rereading it.
  frontier jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, tree_size)
);
CREATE INDEX evidence_seals_created ON evidence_seals (org_id, created_at DESC, id DESC);
ALTER TABLE evidence_seals ENABLE ROW LEVEL SECURITY;
ALTER TABLE evidence_seals FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON evidence_seals USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON evidence_seals TO oeuvre_app;

-- Org ids whose log has unsealed events: at least p_min_events of them, or the oldest
-- one created at or before p_older_than. The event a seal appends about itself
-- (evidence.sealed, at tree_size + 1) does not count, so a quiet org is not resealed.
CREATE FUNCTION evidence_orgs_due(p_min_events bigint, p_older_than timestamptz, p_limit integer)
  RETURNS TABLE (org_id text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT h.org_id
    FROM org_event_heads h
    LEFT JOIN LATERAL (
      SELECT s.tree_size + 1 AS covered FROM evidence_seals s
      WHERE s.org_id = h.org_id ORDER BY s.tree_size DESC LIMIT 1
    ) last ON true
    WHERE h.sequence > coalesce(last.covered, 0)
      AND (
        h.sequence - coalesce(last.covered, 0) >= p_min_events
        OR EXISTS (
          SELECT 1 FROM org_events e
          WHERE e.org_id = h.org_id AND e.sequence = coalesce(last.covered, 0) + 1 AND e.created_at <= p_older_than
        )
      )
    ORDER BY h.org_id
    LIMIT p_limit
  $$;

REVOKE ALL ON FUNCTION evidence_orgs_due(bigint, timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION evidence_orgs_due(bigint, timestamptz, integer) TO oeuvre_app;
