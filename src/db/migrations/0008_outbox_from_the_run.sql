-- The webhook outbox of a run, from what append_org_events has in hand. The first version
-- (migration 0007) read the run's events back from org_events by (org_id, id), in a
-- statement whose plan the plan cache kept making afresh at every call (a custom plan:
-- about half a millisecond of the chain lock's time per write, measured with pgbench on
-- the create path's commit message). Planned generically instead, that lookup could take
-- any index leading with org_id while the table had no statistics yet (a new database),
-- and each write then read every event of its org: the run's columns are passed in now,
-- so the statement reads no table but webhook_endpoints. Same rows, same bytes (the
-- outbox property test in audit.template.test.ts checks them against deliveryPayload).

DROP FUNCTION queue_webhook_deliveries(text, text[], text[], timestamptz, timestamptz);

CREATE FUNCTION queue_webhook_deliveries(
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
      RETURNING webhook_deliveries.id
  )
  INSERT INTO webhook_queue (delivery_id, tenant_org, due_at) SELECT d.id, p_org_id, p_due FROM delivered d;
  GET DIAGNOSTICS queued = ROW_COUNT;
  RETURN queued;
END
$$;

-- The same append, handing the run to the outbox as it stands.
CREATE OR REPLACE FUNCTION append_org_events(
  p_org_id text,
  p_ids text[],
  p_actions text[],
  p_user_ids text[],
  p_resource_types text[],
  p_resource_ids text[],
  p_canonical text[],
  p_created_at timestamptz,
  p_deliveries_due timestamptz
) RETURNS TABLE (id text, sequence bigint, hash text, created_at timestamptz)
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  run_length integer := cardinality(p_ids);
  next_sequence bigint;
  previous_hash text;
  previous_created_at timestamptz;
  created timestamptz;
  created_text text;
  event_text text;
  sequences bigint[] := '{}';
  hashes text[] := '{}';
  texts text[] := '{}';
  i integer;
BEGIN
  IF run_length IS NULL OR run_length = 0 THEN
    RETURN;
  END IF;
  UPDATE org_event_heads h SET sequence = h.sequence + run_length
    WHERE h.org_id = p_org_id
    RETURNING h.sequence - run_length, h.hash, h.created_at INTO next_sequence, previous_hash, previous_created_at;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'org % has no event chain', p_org_id;
  END IF;
  created := greatest(p_created_at, previous_created_at);
  created_text := iso_utc(created);
  FOR i IN 1..run_length LOOP
    next_sequence := next_sequence + 1;
    event_text := replace(replace(replace(p_canonical[i], chr(1) || 'P', previous_hash), chr(1) || 'S', next_sequence::text), chr(1) || 'C', created_text);
    previous_hash := 'sha256:' || encode(sha256(convert_to(event_text, 'UTF8')), 'hex');
    sequences := sequences || next_sequence;
    hashes := hashes || previous_hash;
    texts := texts || event_text;
  END LOOP;
  INSERT INTO org_events (org_id, sequence, id, action, user_id, resource_type, resource_id, data, created_at, hash)
    SELECT p_org_id, e.sequence, e.id, e.action, e.user_id, e.resource_type, e.resource_id, (e.event_text::json -> 'data')::jsonb, created, e.hash
    FROM unnest(sequences, p_ids, p_actions, p_user_ids, p_resource_types, p_resource_ids, texts, hashes)
      AS e (sequence, id, action, user_id, resource_type, resource_id, event_text, hash);
  UPDATE org_event_heads h SET hash = previous_hash, created_at = created WHERE h.org_id = p_org_id;
  IF p_deliveries_due IS NOT NULL THEN
    PERFORM queue_webhook_deliveries(p_org_id, p_ids, p_actions, p_user_ids, p_resource_types, p_resource_ids, sequences, hashes, texts, created_text, p_created_at, p_deliveries_due);
  END IF;
  RETURN QUERY SELECT e.id, e.sequence, e.hash, created FROM unnest(p_ids, sequences, hashes) AS e (id, sequence, hash);
END
$$;

GRANT EXECUTE ON FUNCTION queue_webhook_deliveries(text, text[], text[], text[], text[], text[], bigint[], text[], text[], text, timestamptz, timestamptz) TO oeuvre_app;
