-- Bulk writes as batch events (a statement import's batch of lines, a payout run's page of
-- payouts): one org event per batch, whose data carries the RFC 6962 root of its lines. Each
-- line names its batch, so a batch's lines can be listed and each proven against the root.
ALTER TABLE revenue_entries ADD COLUMN batch_id text;
CREATE INDEX revenue_entries_batch ON revenue_entries (org_id, batch_id, id) WHERE batch_id IS NOT NULL;
ALTER TABLE payouts ADD COLUMN batch_id text;
CREATE INDEX payouts_batch ON payouts (org_id, batch_id, id) WHERE batch_id IS NOT NULL;

-- A batch has one event, found by the batch's id.
CREATE UNIQUE INDEX org_events_batch ON org_events (org_id, resource_id) WHERE action IN ('revenue.imported', 'payouts.run');
