-- Members management (docs/decisions.md, "Orgs, members, invitations"): an invitation can be
-- revoked, and sent again with the same link, so its token is kept sealed (like a webhook's
-- signing secret) beside its hash; one live invitation per email and org.
ALTER TABLE invitations ADD COLUMN token_sealed text;
ALTER TABLE invitations ADD COLUMN revoked_at timestamptz;
ALTER TABLE invitations ADD COLUMN revoked_by text;
ALTER TABLE invitations ADD COLUMN sent_at timestamptz;

-- Open invitations made before this: all but the newest of an email in an org are revoked.
DO $$
DECLARE
  org text;
BEGIN
  FOR org IN SELECT DISTINCT i.org_id FROM invitations i WHERE i.accepted_at IS NULL LOOP
    PERFORM set_config('app.org_id', org, true);
    UPDATE invitations i SET revoked_at = i.created_at
      WHERE i.org_id = org AND i.accepted_at IS NULL AND EXISTS (
        SELECT 1 FROM invitations newer
        WHERE newer.org_id = i.org_id AND newer.email = i.email AND newer.accepted_at IS NULL
          AND (newer.created_at, newer.id) > (i.created_at, i.id));
  END LOOP;
  PERFORM set_config('app.org_id', '', true);
END
$$;

CREATE UNIQUE INDEX invitations_open_per_email ON invitations (org_id, email)
  WHERE accepted_at IS NULL AND revoked_at IS NULL;

-- A partner's review emails go through the email outbox (0041); the table that stood in for
-- them, never sent, goes.
DROP TABLE partner_notifications;
