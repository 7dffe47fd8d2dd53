-- OAuth 2.0 client credentials (DESIGN section 7): clients per org, their secrets
-- (only SHA-256 hashes), and the access tokens they obtain (only SHA-256 hashes).

CREATE TABLE oauth_clients (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  name text NOT NULL,
  -- The client acts as this user: it is the userId of the org events it causes.
  service_user_id text NOT NULL REFERENCES users (id),
  scopes text[] NOT NULL,
  tier text NOT NULL CHECK (tier IN ('api_partner_sandbox', 'api_partner_production', 'platform_integrator')),
  rate_per_minute integer NOT NULL CHECK (rate_per_minute > 0),
  rate_burst integer NOT NULL CHECK (rate_burst > 0),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  secret_hash text NOT NULL,
  secret_hint text NOT NULL,
  -- After a rotation the previous secret keeps working until its grace period ends.
  previous_secret_hash text,
  previous_secret_expires_at timestamptz,
  secret_rotated_at timestamptz,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  revoked_at timestamptz,
  revoked_by text,
  last_used_at timestamptz,
  PRIMARY KEY (org_id, id)
);
-- Token requests name the client before its org is known.
CREATE INDEX oauth_clients_id ON oauth_clients (id);
CREATE INDEX oauth_clients_list ON oauth_clients (org_id, created_at DESC, id DESC);
ALTER TABLE oauth_clients ENABLE ROW LEVEL SECURITY;
ALTER TABLE oauth_clients FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON oauth_clients USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT, UPDATE ON oauth_clients TO oeuvre_app;

CREATE TABLE oauth_access_tokens (
  org_id text NOT NULL,
  token_hash text NOT NULL,
  client_id text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, token_hash),
  FOREIGN KEY (org_id, client_id) REFERENCES oauth_clients (org_id, id)
);
CREATE INDEX oauth_access_tokens_hash ON oauth_access_tokens (token_hash);
CREATE INDEX oauth_access_tokens_expiry ON oauth_access_tokens (expires_at);
ALTER TABLE oauth_access_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE oauth_access_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON oauth_access_tokens USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
-- No UPDATE or DELETE: tokens are never changed, and expired ones go through prune_oauth_access_tokens.
GRANT SELECT, INSERT ON oauth_access_tokens TO oeuvre_app;

-- A live client whose secret hash matches: the current secret, or the previous one
-- within its grace period. Returns nothing for a wrong secret, so nothing leaks.
CREATE FUNCTION auth_oauth_client(p_client_id text, p_secret_hash text, p_now timestamptz)
  RETURNS TABLE (org_id text, client_id text, scopes text[])
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT c.org_id, c.id, c.scopes
    FROM oauth_clients c
    WHERE c.id = p_client_id
      AND c.revoked_at IS NULL
      AND (c.secret_hash = p_secret_hash
           OR (c.previous_secret_hash = p_secret_hash AND c.previous_secret_expires_at > p_now))
  $$;

-- An access token's grant: its org, client, scopes, expiry, and the client's state and rate tier.
CREATE FUNCTION auth_access_token(p_token_hash text)
  RETURNS TABLE (org_id text, client_id text, scopes text[], expires_at timestamptz, revoked boolean,
                 service_user_id text, tier text, rate_per_minute integer, rate_burst integer)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT t.org_id, t.client_id, t.scopes, t.expires_at, c.revoked_at IS NOT NULL,
           c.service_user_id, c.tier, c.rate_per_minute, c.rate_burst
    FROM oauth_access_tokens t
    JOIN oauth_clients c ON c.org_id = t.org_id AND c.id = t.client_id
    WHERE t.token_hash = p_token_hash
  $$;

-- Expired tokens are of use to nobody: the worker removes them across every org.
CREATE FUNCTION prune_oauth_access_tokens(p_before timestamptz)
  RETURNS bigint
  LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    WITH gone AS (DELETE FROM oauth_access_tokens WHERE expires_at < p_before RETURNING 1)
    SELECT count(*) FROM gone
  $$;

REVOKE ALL ON FUNCTION auth_oauth_client(text, text, timestamptz), auth_access_token(text),
  prune_oauth_access_tokens(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_oauth_client(text, text, timestamptz), auth_access_token(text),
  prune_oauth_access_tokens(timestamptz) TO oeuvre_app;
