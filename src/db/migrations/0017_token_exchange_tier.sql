-- The token endpoint limits valid exchanges per client, in the client's own rate tier (the
-- bucket its API requests draw from), so the client lookup returns the tier as well. Same
-- arguments and the same first three columns as 0003's; a result type cannot be changed in
-- place, hence drop and create.

DROP FUNCTION auth_oauth_client(text, text, timestamptz);

CREATE FUNCTION auth_oauth_client(p_client_id text, p_secret_hash text, p_now timestamptz)
  RETURNS TABLE (org_id text, client_id text, scopes text[], rate_per_minute integer, rate_burst integer)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT c.org_id, c.id, c.scopes, c.rate_per_minute, c.rate_burst
    FROM oauth_clients c
    WHERE c.id = p_client_id
      AND c.revoked_at IS NULL
      AND (c.secret_hash = p_secret_hash
           OR (c.previous_secret_hash = p_secret_hash AND c.previous_secret_expires_at > p_now))
  $$;

ALTER FUNCTION auth_oauth_client(text, text, timestamptz) OWNER TO oeuvre_definer;
REVOKE ALL ON FUNCTION auth_oauth_client(text, text, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_oauth_client(text, text, timestamptz) TO oeuvre_app;
