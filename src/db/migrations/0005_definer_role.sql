-- SECURITY DEFINER functions run as their owner. Forced RLS applies to a table's owner
-- too (only superusers and BYPASSRLS roles are exempt), so under a non-superuser
-- migration role the cross-tenant lookups of 0001-0004 would see nothing. They are owned
-- instead by oeuvre_definer: a role no session can log in as or SET ROLE to (the app role
-- is not a member), which reads across tenants only through the narrow policies below.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'oeuvre_definer') THEN
    CREATE ROLE oeuvre_definer NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT;
  END IF;
END
$$;

-- A non-superuser migration role must be a member to hand functions over.
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, 'oeuvre_definer', 'MEMBER') THEN
    EXECUTE format('GRANT oeuvre_definer TO %I', current_user);
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO oeuvre_definer;

-- Global tables (no RLS).
GRANT SELECT ON users, sessions TO oeuvre_definer;

-- Tenant tables the lookups read: SELECT through a policy that names only this role.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['orgs', 'memberships', 'invitations', 'payouts', 'oauth_clients',
                           'oauth_access_tokens', 'org_event_heads', 'org_events', 'evidence_seals']
  LOOP
    EXECUTE format('GRANT SELECT ON %I TO oeuvre_definer', t);
    EXECUTE format('CREATE POLICY definer_lookup ON %I FOR SELECT TO oeuvre_definer USING (true)', t);
  END LOOP;
END
$$;

-- prune_oauth_access_tokens deletes expired tokens of every org.
GRANT DELETE ON oauth_access_tokens TO oeuvre_definer;
CREATE POLICY definer_prune ON oauth_access_tokens FOR DELETE TO oeuvre_definer USING (true);

-- Every definer function in the schema changes hands (later migrations do the same for theirs).
DO $$
DECLARE
  f record;
BEGIN
  FOR f IN
    SELECT p.oid::regprocedure AS signature
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND p.prosecdef
  LOOP
    EXECUTE format('ALTER FUNCTION %s OWNER TO oeuvre_definer', f.signature);
  END LOOP;
END
$$;
