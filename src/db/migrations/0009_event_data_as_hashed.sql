-- An org event keeps its data as the text that was hashed: the canonical JSON (RFC 8785) of
-- the data member, cut from the event's canonical text (json keeps a member's text as
-- written). What the chain hashed is then what is stored and served, byte for byte, so
-- `oeuvre audit verify` rehashes the stored bytes without parsing and re-canonicalising
-- them, the feed writes them out without converting jsonb, and an append builds no jsonb.
-- Rows written before this migration keep jsonb's text form (valid JSON, not canonical);
-- the verifier canonicalises a row whose stored text does not hash as it stands.
ALTER TABLE org_events ALTER COLUMN data TYPE text USING data::text;

-- The same append, storing the data's canonical text.
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
    SELECT p_org_id, e.sequence, e.id, e.action, e.user_id, e.resource_type, e.resource_id, (e.event_text::json -> 'data')::text, created, e.hash
    FROM unnest(sequences, p_ids, p_actions, p_user_ids, p_resource_types, p_resource_ids, texts, hashes)
      AS e (sequence, id, action, user_id, resource_type, resource_id, event_text, hash);
  UPDATE org_event_heads h SET hash = previous_hash, created_at = created WHERE h.org_id = p_org_id;
  IF p_deliveries_due IS NOT NULL THEN
    PERFORM queue_webhook_deliveries(p_org_id, p_ids, p_actions, p_user_ids, p_resource_types, p_resource_ids, sequences, hashes, texts, created_text, p_created_at, p_deliveries_due);
  END IF;
  RETURN QUERY SELECT e.id, e.sequence, e.hash, created FROM unnest(p_ids, sequences, hashes) AS e (id, sequence, hash);
END
$$;
