-- Email (docs/email.md): an outbox committed with the write that causes each email, sent by
-- the worker over SMTP (or written to DATA_DIR/mail/ without SMTP_URL) under a lease, as the
-- webhook queue is; what each person chose to receive; password resets. Global tables like
-- users: an email is to a person, about an org at most (tenant_org names it, for listing).

CREATE TABLE email_outbox (
  id text PRIMARY KEY,
  kind text NOT NULL,
  to_address text NOT NULL,
  to_name text,
  tenant_org text,
  variables jsonb NOT NULL,
  -- Variables that carry a secret (a reset link's token), sealed with the service's key and
  -- erased once the email is sent or given up: the token itself is kept only as its hash.
  sealed_variables text,
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- When it is (next) due; null once sent or given up.
  due_at timestamptz,
  leased_until timestamptz,
  lease_token text,
  last_error text,
  message_id text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX email_outbox_due ON email_outbox (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX email_outbox_finished ON email_outbox (finished_at) WHERE finished_at IS NOT NULL;
GRANT SELECT, INSERT, UPDATE, DELETE ON email_outbox TO oeuvre_app;

-- A person's choice per non-security kind; no row: the kind's default.
CREATE TABLE email_preferences (
  user_id text NOT NULL REFERENCES users (id),
  kind text NOT NULL,
  receive boolean NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind)
);
GRANT SELECT, INSERT, UPDATE, DELETE ON email_preferences TO oeuvre_app;

-- A password reset asked for: every request is written alike (known email or not), and the
-- worker makes the token and the email for an account that exists (the answer's time then
-- says nothing of it). The token is stored only as its SHA-256, single-use, 60 minutes.
CREATE TABLE password_reset_requests (
  id text PRIMARY KEY,
  email text NOT NULL,
  requested_at timestamptz NOT NULL,
  handled_at timestamptz
);
CREATE INDEX password_reset_requests_pending ON password_reset_requests (requested_at) WHERE handled_at IS NULL;
GRANT SELECT, INSERT, UPDATE, DELETE ON password_reset_requests TO oeuvre_app;

CREATE TABLE password_reset_tokens (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX password_reset_tokens_user ON password_reset_tokens (user_id);
GRANT SELECT, INSERT, UPDATE, DELETE ON password_reset_tokens TO oeuvre_app;
