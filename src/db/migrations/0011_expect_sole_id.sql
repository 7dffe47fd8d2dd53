-- A guard for a read the application kept from an earlier request instead of reading it
-- again (a revenue line's catalog entry and splits): sent with the write that relies on it,
-- inside the same transaction, it fails that transaction unless the read, made again now,
-- still names exactly the kept row. SQLSTATE OE001 tells the application to forget what it
-- kept and do the work the long way (read, then write), which answers as it always has.
CREATE FUNCTION expect_sole_id(p_found text[], p_expected text) RETURNS void
  LANGUAGE plpgsql STABLE
  AS $$
BEGIN
  IF p_found IS DISTINCT FROM ARRAY[p_expected] THEN
    RAISE EXCEPTION 'a kept read went stale: expected only %, found %', p_expected, p_found USING ERRCODE = 'OE001';
  END IF;
END;
$$;
