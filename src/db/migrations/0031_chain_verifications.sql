-- `oeuvre audit verify` records each seal it has verified, so `--since-seal` can start there:
-- the tree's right edge before the seal's last leaf, which with that event's stored hash must
-- give the seal's signed root (so the last event verified is bound to the signature), and the
-- walk goes on from that event. Insert-only; a seal verified twice keeps its first record.
CREATE TABLE chain_verifications (
  org_id text NOT NULL REFERENCES orgs (org_id),
  tree_size bigint NOT NULL CHECK (tree_size > 0),
  seal_id text NOT NULL,
  frontier_before_last jsonb NOT NULL,
  verified_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, tree_size),
  FOREIGN KEY (org_id, seal_id) REFERENCES evidence_seals (org_id, id)
);
ALTER TABLE chain_verifications ENABLE ROW LEVEL SECURITY;
ALTER TABLE chain_verifications FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON chain_verifications USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON chain_verifications TO oeuvre_app;
