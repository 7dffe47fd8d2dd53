-- Every version of a partner's application (docs/partners.md): an answer to "changes requested"
-- is a new version, and the earlier ones stay readable for the partner and the operators.
CREATE TABLE partner_applications (
  partner_id text NOT NULL REFERENCES partners (id),
  version integer NOT NULL CHECK (version > 0),
  application jsonb NOT NULL,
  submitted_at timestamptz NOT NULL,
  submitted_by text NOT NULL REFERENCES users (id),
  PRIMARY KEY (partner_id, version)
);
GRANT SELECT, INSERT ON partner_applications TO oeuvre_app;

INSERT INTO partner_applications (partner_id, version, application, submitted_at, submitted_by)
  SELECT id, 1, application, application_at, user_id FROM partners WHERE application IS NOT NULL AND application_at IS NOT NULL;
