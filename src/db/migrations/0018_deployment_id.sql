-- A random id for the deployment, made once with its database: every node on this database
-- reads the same one, and no other database has it. Redis keys are namespaced by it (unless
-- REDIS_NAMESPACE is set), so deployments sharing a Redis never share rate-limit buckets.

CREATE TABLE deployment (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id text NOT NULL
);
INSERT INTO deployment (id) VALUES (replace(gen_random_uuid()::text, '-', ''));
GRANT SELECT ON deployment TO oeuvre_app;
