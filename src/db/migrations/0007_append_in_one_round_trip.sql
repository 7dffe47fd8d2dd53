-- Appending to an org's chain, entirely inside the server: the chain-head lock is taken,
-- the events are chained and written, the webhook outbox is filled, and (when the caller
-- sends it in the same message) the transaction commits, without the lock ever waiting
-- on the application. The application computes each event's canonical text (RFC 8785,
-- docs/audit.md) with slots where only the chain knows the value: U+0001 followed by
-- P (previousHash), S (sequence) or C (createdAt). JSON text escapes every control
-- character, so U+0001 occurs nowhere else in it.

-- The last event's time: each event's createdAt is at least its predecessor's, so the
-- log's times never run backwards against its sequence.
ALTER TABLE org_event_heads ADD COLUMN created_at timestamptz;

-- A ULID-form identifier part (26 Crockford base32 characters) for an instant: 48 bits of
-- milliseconds, then 79 random bits (from gen_random_uuid, skipping its version bits).
CREATE FUNCTION ulid_at(instant timestamptz) RETURNS text
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  ms bigint := floor(extract(epoch FROM instant) * 1000)::bigint;
  random_bytes bytea := uuid_send(gen_random_uuid());
  result text := '';
  i integer;
BEGIN
  FOR i IN REVERSE 9..0 LOOP
    result := result || substr(alphabet, ((ms >> (i * 5)) & 31)::integer + 1, 1);
  END LOOP;
  FOR i IN 0..15 LOOP
    IF i <> 6 THEN
      result := result || substr(alphabet, (get_byte(random_bytes, i) & 31) + 1, 1);
    END IF;
  END LOOP;
  -- Byte 6 holds the UUID version in its high nibble: only its low 4 bits are random.
  RETURN result || substr(alphabet, (get_byte(random_bytes, 6) & 15) + 1, 1);
END
$$;

-- Appends a run of events to an org's chain by the published recipe; returns each event's
-- place in it. The head's row lock serialises the org's writers until commit. Each event's
-- data is taken from its canonical text (json keeps the text of a member as written), so it
-- crosses the wire once. When p_deliveries_due is given, the webhook outbox is filled for
-- the run (queue_webhook_deliveries) in the same call, from the same texts.
CREATE FUNCTION append_org_events(
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
    PERFORM queue_webhook_deliveries(p_org_id, p_ids, texts, p_created_at, p_deliveries_due);
  END IF;
  RETURN QUERY SELECT e.id, e.sequence, e.hash, created FROM unnest(p_ids, sequences, hashes) AS e (id, sequence, hash);
END
$$;

-- The webhook outbox for a run just appended: a delivery (and its queue entry) per event and
-- enabled endpoint subscribed to it. A statement of its own inside append_org_events, so it
-- reads the endpoints once the chain is locked: an event that follows webhook.created in the
-- org's sequence always reaches that endpoint. p_texts are the events' canonical texts; the
-- body is deliveryPayload's (webhooks.repo.ts): {id, type, createdAt, orgId, data: {event,
-- object}}, the event in presentEvent's member order, data as its canonical text. The kind
-- rule is deliveredKind's (webhooks.kinds.ts): the action itself to an endpoint subscribed
-- to it or to '*', 'audit.emitted' to one subscribed to every event, never 'webhook.test'.
CREATE FUNCTION queue_webhook_deliveries(
  p_org_id text,
  p_event_ids text[],
  p_texts text[],
  p_now timestamptz,
  p_due timestamptz
) RETURNS integer
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  queued integer;
BEGIN
  WITH appended AS (
    SELECT e.id, e.action, e.user_id, e.resource_type, e.resource_id, e.sequence, e.hash, iso_utc(e.created_at) AS created_text,
      (p.event_text::json -> 'data')::text AS data_text
    FROM unnest(p_event_ids, p_texts) AS p (id, event_text)
    JOIN org_events e ON e.org_id = p_org_id AND e.id = p.id
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

GRANT EXECUTE ON FUNCTION ulid_at(timestamptz) TO oeuvre_app;
GRANT EXECUTE ON FUNCTION append_org_events(text, text[], text[], text[], text[], text[], text[], timestamptz, timestamptz) TO oeuvre_app;
GRANT EXECUTE ON FUNCTION queue_webhook_deliveries(text, text[], text[], timestamptz, timestamptz) TO oeuvre_app;
