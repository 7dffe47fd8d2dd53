-- The chain's append (0010's, same signature and result) without the outbox's statement for an
-- org that has no enabled endpoint: most writes of most orgs. Calling queue_webhook_deliveries
-- with the run's arrays (every event's text among them) cost about 20 us of the server's time
-- per event on average even when its join found no endpoint (a run of 5 events: 0.66 ms with
-- the call against 0.54 ms with p_deliveries_due null, the means of six alternating pgbench
-- runs each in a noisy hour); the check is one probe of webhook_endpoints' primary key, and
-- the run's texts are then not gathered either. An endpoint created by a transaction that
-- committed before this append took the chain lock is seen by the check as it was by the
-- join: both read after the lock is held.

CREATE OR REPLACE FUNCTION append_org_events(
  p_org_id text,
  p_ids text[],
  p_actions text[],
  p_user_ids text[],
  p_resource_types text[],
  p_resource_ids text[],
  p_canonical text[],
  p_data text[],
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
  outbox boolean;
BEGIN
  IF run_length IS NULL OR run_length = 0 THEN
    RETURN;
  END IF;
  IF cardinality(p_canonical) IS DISTINCT FROM run_length OR cardinality(p_data) IS DISTINCT FROM run_length THEN
    RAISE EXCEPTION 'a run of % events needs as many templates (%) and data texts (%)', run_length, cardinality(p_canonical), cardinality(p_data);
  END IF;
  UPDATE org_event_heads h SET sequence = h.sequence + run_length
    WHERE h.org_id = p_org_id
    RETURNING h.sequence - run_length, h.hash, h.created_at INTO next_sequence, previous_hash, previous_created_at;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'org % has no event chain', p_org_id;
  END IF;
  -- The outbox's statement only when the org has an endpoint that could take a delivery: the
  -- same condition as its join, read once the chain lock is held.
  outbox := p_deliveries_due IS NOT NULL
    AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.org_id = p_org_id AND w.status = 'enabled' AND w.deleted_at IS NULL);
  created := greatest(p_created_at, previous_created_at);
  created_text := iso_utc(created);
  FOR i IN 1..run_length LOOP
    next_sequence := next_sequence + 1;
    -- The data last: the other slots are found in the template alone.
    event_text := replace(replace(replace(replace(p_canonical[i], chr(1) || 'P', previous_hash), chr(1) || 'S', next_sequence::text), chr(1) || 'C', created_text), chr(1) || 'D', p_data[i]);
    previous_hash := 'sha256:' || encode(sha256(convert_to(event_text, 'UTF8')), 'hex');
    sequences := sequences || next_sequence;
    hashes := hashes || previous_hash;
    IF outbox THEN
      texts := texts || event_text;
    END IF;
  END LOOP;
  INSERT INTO org_events (org_id, sequence, id, action, user_id, resource_type, resource_id, data, created_at, hash)
    SELECT p_org_id, e.sequence, e.id, e.action, e.user_id, e.resource_type, e.resource_id, e.data, created, e.hash
    FROM unnest(sequences, p_ids, p_actions, p_user_ids, p_resource_types, p_resource_ids, p_data, hashes)
      AS e (sequence, id, action, user_id, resource_type, resource_id, data, hash);
  UPDATE org_event_heads h SET hash = previous_hash, created_at = created WHERE h.org_id = p_org_id;
  IF outbox THEN
    PERFORM queue_webhook_deliveries(p_org_id, p_ids, p_actions, p_user_ids, p_resource_types, p_resource_ids, sequences, hashes, texts, created_text, p_created_at, p_deliveries_due);
  END IF;
  RETURN QUERY SELECT e.id, e.sequence, e.hash, created FROM unnest(p_ids, sequences, hashes) AS e (id, sequence, hash);
END
$$;

