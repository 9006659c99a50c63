-- The session check caches users, tenants and plans in every gateway process: a change to one of
-- them is announced on the channel console_session ('user:<id>', 'tenant:<id>' or 'all'), delivered
-- when the transaction commits.
CREATE FUNCTION console_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('console_session', 'user:' || OLD.id::text);
  ELSIF TG_TABLE_NAME = 'tenants' THEN
    PERFORM pg_notify('console_session', 'tenant:' || OLD.id::text);
  ELSE
    PERFORM pg_notify('console_session', 'all');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_session_changed AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION console_session_changed();
--> statement-breakpoint
CREATE TRIGGER tenants_session_changed AFTER UPDATE OR DELETE ON tenants
  FOR EACH ROW EXECUTE FUNCTION console_session_changed();
--> statement-breakpoint
CREATE TRIGGER plans_session_changed AFTER UPDATE OR DELETE ON plans
  FOR EACH STATEMENT EXECUTE FUNCTION console_session_changed();
