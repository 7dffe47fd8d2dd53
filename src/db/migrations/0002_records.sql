-- The five record families: creators, catalog entries (with splits), ticketed events,
-- revenue entries (with their allocations), payouts (with the allocations they pay).
--
-- Money is bigint micro-units (amount x 10^6). Calendar dates are ISO 'YYYY-MM-DD'
-- text, so no driver ever shifts them by a time zone. Every table is tenant data:
-- org_id first in every key, RLS enabled and forced, explicit grants to oeuvre_app.

CREATE TABLE creators (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  name text NOT NULL,
  legal_name text,
  kind text NOT NULL CHECK (kind IN ('person', 'group', 'company')),
  roles text[] NOT NULL,
  email text,
  country text CHECK (country ~ '^[A-Z]{2}$'),
  ipi text CHECK (ipi ~ '^([0-9]{9}|[0-9]{11})$'),
  isni text CHECK (isni ~ '^[0-9]{15}[0-9X]$'),
  payout_currency text NOT NULL CHECK (payout_currency ~ '^[A-Z]{3}$'),
  minimum_payout_micros bigint NOT NULL CHECK (minimum_payout_micros >= 0),
  opening_balance_micros bigint NOT NULL,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  PRIMARY KEY (org_id, id)
);
CREATE INDEX creators_newest ON creators (org_id, created_at DESC, id DESC);
ALTER TABLE creators ENABLE ROW LEVEL SECURITY;
ALTER TABLE creators FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON creators USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
-- UPDATE only for SELECT ... FOR UPDATE: the creator row lock serialises that creator's payouts.
GRANT SELECT, INSERT, UPDATE ON creators TO oeuvre_app;

CREATE TABLE catalog_entries (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('work', 'recording', 'release')),
  title text NOT NULL,
  version_title text,
  display_artist text,
  isrc text CHECK (isrc ~ '^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$'),
  iswc text CHECK (iswc ~ '^T-[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]$'),
  upc text CHECK (upc ~ '^[0-9]{12,14}$'),
  release_date text CHECK (release_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  territories text[] NOT NULL,
  work_id text,
  supersedes text,
  superseded_by text,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, work_id) REFERENCES catalog_entries (org_id, id),
  FOREIGN KEY (org_id, supersedes) REFERENCES catalog_entries (org_id, id),
  CHECK (isrc IS NULL OR kind = 'recording'),
  CHECK (iswc IS NULL OR kind = 'work'),
  CHECK (upc IS NULL OR kind = 'release'),
  CHECK (work_id IS NULL OR kind = 'recording')
);
CREATE INDEX catalog_entries_newest ON catalog_entries (org_id, created_at DESC, id DESC);
-- An ISRC names one active recording per org; a superseded entry gives its ISRC up.
CREATE UNIQUE INDEX catalog_entries_active_isrc ON catalog_entries (org_id, isrc) WHERE isrc IS NOT NULL AND superseded_by IS NULL;
CREATE INDEX catalog_entries_iswc ON catalog_entries (org_id, iswc) WHERE iswc IS NOT NULL;
CREATE INDEX catalog_entries_upc ON catalog_entries (org_id, lpad(upc, 14, '0')) WHERE upc IS NOT NULL;
-- An entry is corrected once: two corrections of the same entry cannot both win.
CREATE UNIQUE INDEX catalog_entries_supersedes ON catalog_entries (org_id, supersedes) WHERE supersedes IS NOT NULL;
ALTER TABLE catalog_entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE catalog_entries FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON catalog_entries USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON catalog_entries TO oeuvre_app;
GRANT UPDATE (superseded_by) ON catalog_entries TO oeuvre_app;

CREATE TABLE catalog_splits (
  org_id text NOT NULL,
  catalog_id text NOT NULL,
  position smallint NOT NULL,
  creator_id text NOT NULL,
  role text NOT NULL,
  share_bps integer NOT NULL CHECK (share_bps BETWEEN 1 AND 10000),
  PRIMARY KEY (org_id, catalog_id, position),
  UNIQUE (org_id, catalog_id, creator_id, role),
  FOREIGN KEY (org_id, catalog_id) REFERENCES catalog_entries (org_id, id),
  -- A split names a creator of the same org, whatever the application does.
  FOREIGN KEY (org_id, creator_id) REFERENCES creators (org_id, id)
);
CREATE INDEX catalog_splits_creator ON catalog_splits (org_id, creator_id);
ALTER TABLE catalog_splits ENABLE ROW LEVEL SECURITY;
ALTER TABLE catalog_splits FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON catalog_splits USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON catalog_splits TO oeuvre_app;

CREATE TABLE ticketed_events (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  name text NOT NULL,
  venue jsonb NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz,
  timezone text NOT NULL,
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  capacity integer NOT NULL CHECK (capacity > 0),
  ticket_types jsonb NOT NULL,
  performer_ids text[] NOT NULL,
  catalog_ids text[] NOT NULL,
  status text NOT NULL CHECK (status IN ('draft', 'published', 'cancelled')),
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  PRIMARY KEY (org_id, id),
  CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX ticketed_events_newest ON ticketed_events (org_id, created_at DESC, id DESC);
ALTER TABLE ticketed_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE ticketed_events FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON ticketed_events USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON ticketed_events TO oeuvre_app;
GRANT UPDATE (status) ON ticketed_events TO oeuvre_app;

-- Revenue entries are immutable: corrections are reversals, never updates.
CREATE TABLE revenue_entries (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  catalog_id text NOT NULL,
  event_id text,
  source text NOT NULL,
  type text NOT NULL CHECK (type IN ('stream', 'download', 'physical', 'sync', 'performance', 'mechanical', 'ticket_sale', 'other')),
  period_start text NOT NULL CHECK (period_start ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  period_end text NOT NULL CHECK (period_end ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  territory text NOT NULL CHECK (territory ~ '^([A-Z]{2}|WORLD)$'),
  units bigint NOT NULL,
  amount_micros bigint NOT NULL CHECK (amount_micros <> 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  statement_ref text,
  line_ref text,
  reverses text,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, catalog_id) REFERENCES catalog_entries (org_id, id),
  FOREIGN KEY (org_id, event_id) REFERENCES ticketed_events (org_id, id),
  FOREIGN KEY (org_id, reverses) REFERENCES revenue_entries (org_id, id),
  CHECK (period_start <= period_end),
  CHECK ((type = 'ticket_sale') = (event_id IS NOT NULL))
);
CREATE INDEX revenue_entries_newest ON revenue_entries (org_id, created_at DESC, id DESC);
CREATE INDEX revenue_entries_catalog ON revenue_entries (org_id, catalog_id);
-- A re-sent statement line is a conflict, so an import can simply be run again.
CREATE UNIQUE INDEX revenue_entries_statement_line ON revenue_entries (org_id, source, statement_ref, line_ref)
  WHERE statement_ref IS NOT NULL AND line_ref IS NOT NULL;
-- An entry is reversed at most once.
CREATE UNIQUE INDEX revenue_entries_reverses ON revenue_entries (org_id, reverses) WHERE reverses IS NOT NULL;
ALTER TABLE revenue_entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE revenue_entries FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON revenue_entries USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON revenue_entries TO oeuvre_app;

-- One row per creator of an entry: its share of the amount, exact to the micro-unit.
CREATE TABLE revenue_allocations (
  org_id text NOT NULL,
  revenue_id text NOT NULL,
  creator_id text NOT NULL,
  currency text NOT NULL,
  amount_micros bigint NOT NULL,
  PRIMARY KEY (org_id, revenue_id, creator_id),
  FOREIGN KEY (org_id, revenue_id) REFERENCES revenue_entries (org_id, id),
  FOREIGN KEY (org_id, creator_id) REFERENCES creators (org_id, id)
);
CREATE INDEX revenue_allocations_creator ON revenue_allocations (org_id, creator_id, currency);
ALTER TABLE revenue_allocations ENABLE ROW LEVEL SECURITY;
ALTER TABLE revenue_allocations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON revenue_allocations USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON revenue_allocations TO oeuvre_app;

CREATE TABLE payouts (
  org_id text NOT NULL REFERENCES orgs (org_id),
  id text NOT NULL,
  creator_id text NOT NULL,
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  amount_micros bigint NOT NULL CHECK (amount_micros > 0),
  status text NOT NULL CHECK (status IN ('pending', 'in_transit', 'paid', 'failed', 'canceled')),
  method text NOT NULL CHECK (method IN ('manual', 'sandbox')),
  opening_balance_micros bigint NOT NULL,
  earnings_micros bigint NOT NULL,
  recouped_micros bigint NOT NULL CHECK (recouped_micros >= 0),
  carried_forward_micros bigint NOT NULL,
  entries integer NOT NULL CHECK (entries >= 0),
  period_start text,
  period_end text,
  failure_code text,
  failure_message text,
  created_at timestamptz NOT NULL,
  created_by text NOT NULL,
  status_changed_at timestamptz NOT NULL,
  paid_at timestamptz,
  PRIMARY KEY (org_id, id),
  FOREIGN KEY (org_id, creator_id) REFERENCES creators (org_id, id),
  -- The statement identity, kept by the database for every payout ever written.
  CHECK (amount_micros + carried_forward_micros = opening_balance_micros + earnings_micros)
);
CREATE INDEX payouts_newest ON payouts (org_id, created_at DESC, id DESC);
CREATE INDEX payouts_creator ON payouts (org_id, creator_id, currency);
CREATE INDEX payouts_sandbox_due ON payouts (status_changed_at) WHERE method = 'sandbox' AND status IN ('pending', 'in_transit');
ALTER TABLE payouts ENABLE ROW LEVEL SECURITY;
ALTER TABLE payouts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON payouts USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON payouts TO oeuvre_app;
GRANT UPDATE (status, failure_code, failure_message, status_changed_at, paid_at) ON payouts TO oeuvre_app;

-- The allocations a payout pays. released_at is set when the payout fails or is
-- canceled, which returns the allocation to the creator's balance.
CREATE TABLE payout_items (
  org_id text NOT NULL,
  payout_id text NOT NULL,
  revenue_id text NOT NULL,
  creator_id text NOT NULL,
  released_at timestamptz,
  PRIMARY KEY (org_id, payout_id, revenue_id),
  FOREIGN KEY (org_id, payout_id) REFERENCES payouts (org_id, id),
  FOREIGN KEY (org_id, revenue_id, creator_id) REFERENCES revenue_allocations (org_id, revenue_id, creator_id)
);
-- No allocation is ever in two live payouts: the guarantee against paying twice.
CREATE UNIQUE INDEX payout_items_live ON payout_items (org_id, revenue_id, creator_id) WHERE released_at IS NULL;
ALTER TABLE payout_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE payout_items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON payout_items USING (org_id = app_org_id()) WITH CHECK (org_id = app_org_id());
GRANT SELECT, INSERT ON payout_items TO oeuvre_app;
GRANT UPDATE (released_at) ON payout_items TO oeuvre_app;

-- The sandbox rail works across orgs: this lists due payouts (ids only); each step
-- then runs inside its own org's tenant scope.
CREATE FUNCTION sandbox_payouts_due(p_before timestamptz, p_limit integer)
  RETURNS TABLE (org_id text, payout_id text)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
    SELECT org_id, id FROM payouts
    WHERE method = 'sandbox' AND status IN ('pending', 'in_transit') AND status_changed_at <= p_before
    ORDER BY status_changed_at, org_id, id
    LIMIT p_limit
  $$;
REVOKE ALL ON FUNCTION sandbox_payouts_due(timestamptz, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION sandbox_payouts_due(timestamptz, integer) TO oeuvre_app;
