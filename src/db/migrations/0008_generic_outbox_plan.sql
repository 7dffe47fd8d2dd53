-- queue_webhook_deliveries runs in every write's append (migration 0007). Its statement
-- takes its run's arrays as parameters, which made the plan cache keep choosing a custom
-- plan, planned afresh at every call: about half a millisecond of the chain lock's time per
-- write, measured with pgbench on the create path (1.55 ms per write message against 1.12
-- with a generic plan). The generic plan looks every row up by key (the run's events by
-- (org_id, id), the org's endpoints by org_id), whatever the run's size.
ALTER FUNCTION queue_webhook_deliveries(text, text[], text[], timestamptz, timestamptz) SET plan_cache_mode = force_generic_plan;
