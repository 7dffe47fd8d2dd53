-- Foundation: the application role, users, sessions, orgs, members, invitations,
-- the org event log (hash chain) and idempotency records.
--
-- Tenancy: every table with an org_id column has RLS enabled and forced, with a
-- policy whose USING and WITH CHECK compare org_id to current_setting('app.org_id').
-- The application runs as oeuvre_app: it owns nothing and cannot bypass RLS.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'oeuvre_app') THEN
    CREATE ROLE oeuvre_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
END
$$;

-- The migrating role must be able to SET ROLE to the application role.
DO $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.roleid
    JOIN pg_roles u ON u.oid = m.member WHERE r.rolname = 'oeuvre_app' AND u.rolname = current_user
  ) AND NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT oeuvre_app TO %I', current_user);
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO oeuvre_app;

CREATE FUNCTION app_org_id() RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT current_setting('app.org_id', true) $$;

-- Users are global: one person can belong to many orgs. Service users (an OAuth
-- client acting) and system users belong to one org (home_org_id).
CREATE TABLE users (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('person', 'service', 'system')),
  email text,
  name text NOT NULL,
  password_hash text,
  home_org_id text,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE kind = 'person';
GRANT SELECT, INSERT, UPDATE ON users TO oeuvre_app;

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  active_org_id text,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX sessions_user ON sessions (user_id);
GRANT SELECT, INSERT, UPDATE ON sessions TO oeuvre_app;

CREATE TABLE orgs (
  org_id text PRIMARY KEY,
  name text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  region text NOT NULL CHECK (region IN ('us-east', 'eu-west', 'au-east')),
  system_user_id text NOT NULL,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL
);
ALTER TABLE orgs ENABLE ROW LEVEL SECURITY;
ALTER TABLE orgs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON orgs USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON orgs TO oeuvre_app;

CREATE TABLE memberships (
  org_id text NOT NULL REFERENCES orgs (org_id),
  user_id text NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'finance', 'editor', 'viewer')),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);
ALTER TABLE memberships ENABLE ROW LEVEL SECURITY;
ALTER TABLE memberships FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON memberships USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON memberships TO oeuvre_app;

CREATE TABLE invitations (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'finance', 'editor', 'viewer')),
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  accepted_at timestamptz,
  accepted_by text,
  PRIMARY KEY (org_id, id),
  UNIQUE (org_id, token_hash)
);
CREATE INDEX invitations_token ON invitations (token_hash);
ALTER TABLE invitations ENABLE ROW LEVEL SECURITY;
ALTER TABLE invitations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON invitations USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT, UPDATE ON invitations TO oeuvre_app;

-- The audit log. Insert-only for the application role: no UPDATE, no DELETE grant.
CREATE TABLE org_events (
  org_id text NOT NULL REFERENCES orgs (org_id),
  sequence bigint NOT NULL CHECK (sequence > 0),
  id text NOT NULL,
  action text NOT NULL,
  user_id text NOT NULL,
  resource_type text,
  resource_id text,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  hash text NOT NULL,
  PRIMARY KEY (org_id, sequence),
  UNIQUE (org_id, id)
);
CREATE INDEX org_events_action ON org_events (org_id, action, sequence);
CREATE INDEX org_events_created ON org_events (org_id, created_at);
ALTER TABLE org_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE org_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON org_events USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON org_events TO oeuvre_app;

-- The head of each org's chain. Its row lock serialises an org's writers, which is
-- what makes `sequence` gapless and the chain linear.
CREATE TABLE org_event_heads (
  org_id text PRIMARY KEY REFERENCES orgs (org_id),
  sequence bigint NOT NULL,
  hash text NOT NULL
);
ALTER TABLE org_event_heads ENABLE ROW LEVEL SECURITY;
ALTER TABLE org_event_heads FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON org_event_heads USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT, UPDATE ON org_event_heads TO oeuvre_app;

-- Idempotency records are keyed by the caller (a user or a client), not by org.
CREATE TABLE idempotency_keys (
  caller text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  response_status integer,
  response_body text,
  locked_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (caller, method, path, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_keys TO oeuvre_app;

-- Cross-tenant lookups that must happen before a tenant is known run through these
-- definer functions, each returning only what its caller is entitled to.

-- A live session: its user and, when the active org still has them as a member, their role there.
CREATE FUNCTION auth_session(p_token_hash text)
  RETURNS TABLE (user_id text, user_name text, user_email text, active_org_id text, role text,
                 created_at timestamptz, last_used_at timestamptz, expires_at timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT s.user_id, u.name, u.email, s.active_org_id, m.role, s.created_at, s.last_used_at, s.expires_at
    FROM sessions s
    JOIN users u ON u.id = s.user_id
    LEFT JOIN memberships m ON m.org_id = s.active_org_id AND m.user_id = s.user_id
    WHERE s.token_hash = p_token_hash AND s.ended_at IS NULL
  $$;

-- The orgs a user belongs to (for /api/me and switching the active org).
CREATE FUNCTION user_memberships(p_user_id text)
  RETURNS TABLE (org_id text, org_name text, environment text, region text, role text, joined_at timestamptz)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT o.org_id, o.name, o.environment, o.region, m.role, m.created_at
    FROM memberships m JOIN orgs o ON o.org_id = m.org_id
    WHERE m.user_id = p_user_id
    ORDER BY m.created_at, o.org_id
  $$;

-- The org an invitation token belongs to; the acceptance itself then runs inside that org.
CREATE FUNCTION invitation_org(p_token_hash text)
  RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT org_id FROM invitations WHERE token_hash = p_token_hash LIMIT 1 $$;

-- The region an org is homed in, or null when this deployment does not hold it.
CREATE FUNCTION org_region(p_org_id text)
  RETURNS text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT region FROM orgs WHERE org_id = p_org_id $$;

REVOKE ALL ON FUNCTION auth_session(text), user_memberships(text), invitation_org(text), org_region(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION auth_session(text), user_memberships(text), invitation_org(text), org_region(text), app_org_id() TO oeuvre_app;
