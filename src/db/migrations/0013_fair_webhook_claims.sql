-- Fair webhook claims: each queue entry names its endpoint, each endpoint that keeps failing
-- has a circuit, and claims go through one function that shares them out across orgs and
-- endpoints within each endpoint's cap (docs/webhooks.md, "Scheduling"). Like webhook_queue,
-- webhook_circuits holds no tenant content: ids, counters and times.

ALTER TABLE webhook_queue ADD COLUMN endpoint_id text;

-- Existing entries take their delivery's endpoint, read org by org in the org's scope (RLS is
-- forced for the table owner too). An entry without a delivery has nothing to send: gone.
DO $$
DECLARE
  org text;
BEGIN
  FOR org IN SELECT DISTINCT q.tenant_org FROM webhook_queue q LOOP
    PERFORM set_config('app.org_id', org, true);
    UPDATE webhook_queue q SET endpoint_id = d.endpoint_id
      FROM webhook_deliveries d
      WHERE q.tenant_org = org AND d.org_id = org AND d.id = q.delivery_id;
  END LOOP;
  PERFORM set_config('app.org_id', '', true);
  DELETE FROM webhook_queue WHERE endpoint_id IS NULL;
END
$$;

-- Every writer of the queue names the endpoint; one that does not fails here, not silently.
ALTER TABLE webhook_queue ALTER COLUMN endpoint_id SET NOT NULL;
CREATE INDEX webhook_queue_endpoint_due ON webhook_queue (endpoint_id, due_at) WHERE due_at IS NOT NULL;
CREATE INDEX webhook_queue_endpoint_leased ON webhook_queue (endpoint_id) WHERE leased_until IS NOT NULL;

-- An endpoint's circuit breaker. No row: closed, no failure since the last success. `failures`
-- counts consecutive failed attempts; once it reaches the threshold the circuit opens until
-- `open_until`; after that one probe is claimed at a time (half open); a failed probe opens it
-- again for twice as long (`opened` counts the openings in a row), a success deletes the row.
CREATE TABLE webhook_circuits (
  endpoint_id text PRIMARY KEY,
  tenant_org text NOT NULL,
  failures integer NOT NULL CHECK (failures >= 0),
  opened integer NOT NULL CHECK (opened >= 0),
  open_until timestamptz,
  updated_at timestamptz NOT NULL
);
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_circuits TO oeuvre_app;

-- The outbox of a run (0008's), now writing each queue entry's endpoint.
CREATE OR REPLACE FUNCTION queue_webhook_deliveries(
  p_org_id text,
  p_event_ids text[],
  p_actions text[],
  p_user_ids text[],
  p_resource_types text[],
  p_resource_ids text[],
  p_sequences bigint[],
  p_hashes text[],
  p_texts text[],
  p_created_text text,
  p_now timestamptz,
  p_due timestamptz
) RETURNS integer
  LANGUAGE plpgsql VOLATILE
  SET plan_cache_mode = force_generic_plan
  AS $$
DECLARE
  queued integer;
BEGIN
  WITH appended AS (
    SELECT e.id, e.action, e.user_id, e.resource_type, e.resource_id, e.sequence, e.hash, p_created_text AS created_text,
      (e.event_text::json -> 'data')::text AS data_text
    FROM unnest(p_event_ids, p_actions, p_user_ids, p_resource_types, p_resource_ids, p_sequences, p_hashes, p_texts)
      AS e (id, action, user_id, resource_type, resource_id, sequence, hash, event_text)
  ), matched AS (
    SELECT a.*, w.id AS endpoint_id,
      CASE
        WHEN a.action = 'webhook.test' THEN NULL
        WHEN a.action = ANY (w.events) OR '*' = ANY (w.events) THEN a.action
        WHEN 'audit.emitted' = ANY (w.events) THEN 'audit.emitted'
      END AS kind
    FROM appended a
    JOIN webhook_endpoints w ON w.org_id = p_org_id AND w.status = 'enabled' AND w.deleted_at IS NULL
  ), bodies AS (
    SELECT m.*,
      '{"id":' || to_json(m.id)::text || ',"orgId":' || to_json(p_org_id)::text || ',"action":' || to_json(m.action)::text ||
        ',"userId":' || to_json(m.user_id)::text || ',"createdAt":' || to_json(m.created_text)::text || ',"hash":' || to_json(m.hash)::text ||
        ',"sequence":' || m.sequence::text || ',"resource":' ||
        CASE WHEN m.resource_type IS NULL THEN 'null' ELSE '{"type":' || to_json(m.resource_type)::text || ',"id":' || to_json(m.resource_id)::text || '}' END ||
        ',"data":' || m.data_text || '}' AS record
    FROM matched m
    WHERE m.kind IS NOT NULL
  ), delivered AS (
    INSERT INTO webhook_deliveries (org_id, id, endpoint_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
      SELECT p_org_id, 'whd_' || ulid_at(p_now), b.endpoint_id, b.id, b.kind,
        '{"id":' || to_json(b.id)::text || ',"type":' || to_json(b.kind)::text || ',"createdAt":' || to_json(b.created_text)::text ||
          ',"orgId":' || to_json(p_org_id)::text || ',"data":{"event":' || b.record ||
          CASE WHEN b.resource_type IS NULL THEN '' ELSE ',"object":' || b.data_text END || '}}',
        'pending', p_due, p_now, p_now
      FROM bodies b
      ORDER BY b.sequence, b.endpoint_id
      RETURNING webhook_deliveries.id, webhook_deliveries.endpoint_id
  )
  INSERT INTO webhook_queue (delivery_id, tenant_org, endpoint_id, due_at) SELECT d.id, p_org_id, d.endpoint_id, p_due FROM delivered d;
  GET DIAGNOSTICS queued = ROW_COUNT;
  RETURN queued;
END
$$;

-- Claims up to p_limit due deliveries for lease owner p_owner, fairly: round-robin across the
-- orgs with something due (each org's turn going round its endpoints), oldest first within an
-- endpoint. An endpoint never has more than p_endpoint_cap deliveries leased at once (by every
-- worker together); one whose circuit is open is skipped, and one whose open time has passed
-- gets a single probe at a time. A live lease is one not expired whose owner is alive: on
-- PostgreSQL (p_live_owners null) an owner holds a session advisory lock on its key, so
-- pg_try_advisory_xact_lock succeeds only on a dead owner's; PGlite passes its live owners.
--
-- Claims take turns (a transaction advisory lock, its own key space: two int4 keys), and the
-- claiming statement starts after the lock is held, so its snapshot shows every lease committed
-- before it: the caps hold however many workers claim. Returns the claimed entries with their
-- place in the fair order.
CREATE FUNCTION claim_webhook_deliveries(
  p_owner bigint,
  p_token text,
  p_now timestamptz,
  p_lease_until timestamptz,
  p_limit integer,
  p_endpoint_cap integer,
  p_live_owners bigint[]
) RETURNS TABLE (delivery_id text, tenant_org text, endpoint_id text, place bigint)
  LANGUAGE plpgsql VOLATILE
  AS $$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(73184, 13);
  -- Visible to every other worker at once is all a lease needs (docs/webhooks.md).
  PERFORM set_config('synchronous_commit', 'off', true);
  RETURN QUERY
  WITH RECURSIVE pending (endpoint_id) AS (
    -- The endpoints with anything queued, one index probe each (a loose index scan).
    (SELECT q.endpoint_id FROM webhook_queue q WHERE q.due_at IS NOT NULL ORDER BY q.endpoint_id LIMIT 1)
    UNION ALL
    SELECT (SELECT q.endpoint_id FROM webhook_queue q WHERE q.due_at IS NOT NULL AND q.endpoint_id > p.endpoint_id ORDER BY q.endpoint_id LIMIT 1)
    FROM pending p WHERE p.endpoint_id IS NOT NULL
  ), closed_enough AS (
    SELECT p.endpoint_id, c.open_until IS NOT NULL AS probing
    FROM pending p
    LEFT JOIN webhook_circuits c ON c.endpoint_id = p.endpoint_id
    WHERE p.endpoint_id IS NOT NULL AND (c.open_until IS NULL OR c.open_until <= p_now)
  ), allowed AS (
    SELECT e.endpoint_id, (CASE WHEN e.probing THEN 1 ELSE p_endpoint_cap END) - held.n AS n
    FROM closed_enough e
    CROSS JOIN LATERAL (
      SELECT count(*)::integer AS n FROM webhook_queue q
      WHERE q.endpoint_id = e.endpoint_id AND q.leased_until > p_now
        AND (q.lease_owner = p_owner OR CASE WHEN p_live_owners IS NULL THEN NOT pg_try_advisory_xact_lock(q.lease_owner) ELSE q.lease_owner = ANY (p_live_owners) END)
    ) held
  ), picked AS (
    SELECT d.delivery_id, d.tenant_org, a.endpoint_id, d.due_at
    FROM allowed a
    CROSS JOIN LATERAL (
      SELECT q.delivery_id, q.tenant_org, q.due_at FROM webhook_queue q
      WHERE q.endpoint_id = a.endpoint_id AND q.due_at <= p_now
        AND (q.leased_until IS NULL OR q.leased_until <= p_now OR (q.lease_owner <> p_owner
          AND NOT CASE WHEN p_live_owners IS NULL THEN NOT pg_try_advisory_xact_lock(q.lease_owner) ELSE q.lease_owner = ANY (p_live_owners) END))
      ORDER BY q.due_at, q.delivery_id
      LIMIT greatest(a.n, 0)
    ) d
  ), in_endpoint AS (
    SELECT p.*, row_number() OVER (PARTITION BY p.endpoint_id ORDER BY p.due_at, p.delivery_id) AS k,
      min(p.due_at) OVER (PARTITION BY p.endpoint_id) AS endpoint_due
    FROM picked p
  ), in_org AS (
    -- An org's n-th turn is the k-th delivery of each of its endpoints in turn.
    SELECT i.delivery_id, row_number() OVER (PARTITION BY i.tenant_org ORDER BY i.k, i.endpoint_due, i.endpoint_id) AS turn,
      min(i.due_at) OVER (PARTITION BY i.tenant_org) AS org_due, i.tenant_org
    FROM in_endpoint i
  ), chosen AS (
    SELECT o.delivery_id, row_number() OVER (ORDER BY o.turn, o.org_due, o.tenant_org) AS place
    FROM in_org o
    ORDER BY o.turn, o.org_due, o.tenant_org
    LIMIT p_limit
  ), locked AS (
    SELECT q.delivery_id FROM webhook_queue q
    WHERE q.delivery_id = ANY (ARRAY(SELECT c.delivery_id FROM chosen c)) AND q.due_at <= p_now
      AND (q.leased_until IS NULL OR q.leased_until <= p_now OR q.lease_owner <> p_owner)
    FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_queue w
  SET leased_until = p_lease_until, lease_owner = p_owner, lease_token = p_token
  FROM chosen c
  WHERE w.delivery_id = ANY (ARRAY(SELECT l.delivery_id FROM locked l)) AND c.delivery_id = w.delivery_id
  RETURNING w.delivery_id, w.tenant_org, w.endpoint_id, c.place;
END
$$;

GRANT EXECUTE ON FUNCTION claim_webhook_deliveries(bigint, text, timestamptz, timestamptz, integer, integer, bigint[]) TO oeuvre_app;
