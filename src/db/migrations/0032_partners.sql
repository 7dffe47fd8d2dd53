-- The partner program (DESIGN 10.1): partners, their onboarding, review requests, operators
-- and the notifications the partner is to be emailed. Partners are global records, like
-- users: a partner spans orgs (its sandbox org, the production orgs it creates later) and
-- operators list them across every org. No tenant data lives here; the partner's records
-- live in its orgs, under row-level security.

CREATE TABLE partners (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  company text NOT NULL,
  tier text NOT NULL CHECK (tier IN ('api_partner', 'white_label', 'platform_integrator')),
  region text NOT NULL CHECK (region IN ('us-east', 'eu-west', 'au-east')),
  status text NOT NULL CHECK (status IN ('sandbox', 'in_review', 'changes_requested', 'live', 'rejected', 'suspended')),
  sandbox_org_id text NOT NULL UNIQUE,
  sandbox_client_id text NOT NULL UNIQUE,
  -- Platform integrators: the default limits of their production clients, set at approval.
  rate_per_minute integer CHECK (rate_per_minute > 0),
  rate_burst integer CHECK (rate_burst > 0),
  application jsonb,
  application_at timestamptz,
  agreement jsonb,
  agreement_at timestamptz,
  -- integration_testing: set once each, by triggers below and by the feed route, never otherwise.
  integration_token_at timestamptz,
  integration_feed_at timestamptz,
  integration_webhook_at timestamptz,
  -- White-label partners: when provisioning was requested (set by the white-label work, 10.2).
  provisioning_requested_at timestamptz,
  -- The last operator decision's reason (changes requested, rejection, suspension).
  status_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX partners_user ON partners (user_id);
CREATE INDEX partners_list ON partners (created_at DESC, id DESC);
GRANT SELECT, INSERT, UPDATE ON partners TO oeuvre_app;
GRANT SELECT ON partners TO oeuvre_definer;

-- A partner's orgs belong to it: its sandbox org from sign-up, and the orgs its users create.
ALTER TABLE orgs ADD COLUMN partner_id text REFERENCES partners (id);

-- One open review request per partner at most: two requests racing, one wins on this index.
CREATE TABLE partner_review_requests (
  id text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  status text NOT NULL CHECK (status IN ('open', 'approved', 'changes_requested', 'rejected')),
  requested_at timestamptz NOT NULL,
  requested_by text NOT NULL REFERENCES users (id),
  decided_at timestamptz,
  decided_by text REFERENCES users (id),
  reason text
);
CREATE UNIQUE INDEX partner_review_requests_open ON partner_review_requests (partner_id) WHERE status = 'open';
CREATE INDEX partner_review_requests_partner ON partner_review_requests (partner_id, requested_at DESC);
GRANT SELECT, INSERT, UPDATE ON partner_review_requests TO oeuvre_app;

-- Oeuvre's own staff. Made only by the CLI (`oeuvre operators add`).
CREATE TABLE operators (
  user_id text PRIMARY KEY REFERENCES users (id),
  added_at timestamptz NOT NULL
);
GRANT SELECT, INSERT ON operators TO oeuvre_app;

-- The emails the partner is to get (sent by a mailer that does not exist yet): one row per
-- onboarding transition, written in the transition's transaction.
CREATE TABLE partner_notifications (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  kind text NOT NULL,
  email text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
CREATE INDEX partner_notifications_unsent ON partner_notifications (created_at) WHERE sent_at IS NULL;
GRANT SELECT, INSERT, UPDATE ON partner_notifications TO oeuvre_app;

-- integration_testing markers where the traffic happens: a token issued to the sandbox client,
-- and a delivery of the sandbox org answered 2xx. One indexed UPDATE that finds nothing once set.
CREATE FUNCTION partner_mark_token() RETURNS trigger
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
  BEGIN
    UPDATE partners SET integration_token_at = NEW.created_at, updated_at = NEW.created_at
      WHERE sandbox_client_id = NEW.client_id AND integration_token_at IS NULL;
    RETURN NULL;
  END
  $$;
CREATE TRIGGER partner_token_issued AFTER INSERT ON oauth_access_tokens
  FOR EACH ROW EXECUTE FUNCTION partner_mark_token();

CREATE FUNCTION partner_mark_webhook() RETURNS trigger
  LANGUAGE plpgsql SET search_path = public, pg_temp
  AS $$
  BEGIN
    UPDATE partners SET integration_webhook_at = NEW.updated_at, updated_at = NEW.updated_at
      WHERE sandbox_org_id = NEW.org_id AND integration_webhook_at IS NULL;
    RETURN NULL;
  END
  $$;
CREATE TRIGGER partner_webhook_succeeded AFTER UPDATE OF status ON webhook_deliveries
  FOR EACH ROW WHEN (NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded')
  EXECUTE FUNCTION partner_mark_webhook();

-- A suspended partner's production clients authenticate no more: read at every token request,
-- so every node refuses at once. Same signature and result as 0017's.
CREATE OR REPLACE FUNCTION auth_oauth_client(p_client_id text, p_secret_hash text, p_now timestamptz)
  RETURNS TABLE (org_id text, client_id text, scopes text[], rate_per_minute integer, rate_burst integer)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT c.org_id, c.id, c.scopes, c.rate_per_minute, c.rate_burst
    FROM oauth_clients c
    WHERE c.id = p_client_id
      AND c.revoked_at IS NULL
      AND (c.secret_hash = p_secret_hash
           OR (c.previous_secret_hash = p_secret_hash AND c.previous_secret_expires_at > p_now))
      AND NOT (c.environment = 'production' AND EXISTS (
        SELECT 1 FROM orgs o JOIN partners p ON p.id = o.partner_id
        WHERE o.org_id = c.org_id AND p.status = 'suspended'))
  $$;
