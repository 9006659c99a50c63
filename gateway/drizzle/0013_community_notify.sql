-- Every gateway process caches each tenant's community row (GET /v1/communities/my-community): a
-- change to one is announced on the channel console_community ('tenant:<tenant id>', or 'all' after
-- a TRUNCATE), delivered when the transaction commits. Cascades (a tenant removed, its list removed)
-- fire it too.
CREATE FUNCTION console_community_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('console_community', 'all');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('console_community', 'tenant:' || OLD.tenant_id::text);
  ELSE
    PERFORM pg_notify('console_community', 'tenant:' || NEW.tenant_id::text);
    IF TG_OP = 'UPDATE' AND OLD.tenant_id IS DISTINCT FROM NEW.tenant_id THEN
      PERFORM pg_notify('console_community', 'tenant:' || OLD.tenant_id::text);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER communities_changed AFTER INSERT OR UPDATE OR DELETE ON communities
  FOR EACH ROW EXECUTE FUNCTION console_community_changed();
--> statement-breakpoint
CREATE TRIGGER communities_truncated AFTER TRUNCATE ON communities
  FOR EACH STATEMENT EXECUTE FUNCTION console_community_changed();
