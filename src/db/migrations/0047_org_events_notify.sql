-- The event stream's wake-up: every statement that appends org events notifies channel
-- org_events once per org it wrote to, with the org id as payload. Delivered at commit (a
-- rolled-back append notifies nobody); PostgreSQL folds identical notifications of one
-- transaction into one. A notification carries no event: a stream woken by it re-reads the
-- feed from its cursor, so a lost notification delays an event until the next one or the
-- next heartbeat, and loses nothing.
CREATE FUNCTION notify_org_events() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    PERFORM pg_notify('org_events', o.org_id) FROM (SELECT DISTINCT org_id FROM appended) o;
    RETURN NULL;
  END
  $$;

CREATE TRIGGER org_events_notify AFTER INSERT ON org_events
  REFERENCING NEW TABLE AS appended
  FOR EACH STATEMENT EXECUTE FUNCTION notify_org_events();
