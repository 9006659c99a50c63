CREATE TABLE "contact_days" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"removed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "contact_days_tenant_id_day_source_pk" PRIMARY KEY("tenant_id","day","source")
);
--> statement-breakpoint
ALTER TABLE "contact_days" ADD CONSTRAINT "contact_days_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Kept like contact_counts (0002): statement-level triggers with transition tables, one grouped
-- upsert per statement. Added on the contact's creation day (UTC), removed on the day of deletion;
-- a tenant being deleted (its contacts go by cascade) records nothing.
CREATE FUNCTION contact_days_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_days (tenant_id, day, source, added)
    SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, source, count(*) FROM new_rows
    GROUP BY 1, 2, 3
  ON CONFLICT (tenant_id, day, source) DO UPDATE SET added = contact_days.added + excluded.added;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION contact_days_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_days (tenant_id, day, source, removed)
    SELECT o.tenant_id, (now() AT TIME ZONE 'UTC')::date, o.source, count(*) FROM old_rows o
    WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = o.tenant_id)
    GROUP BY 1, 2, 3
  ON CONFLICT (tenant_id, day, source) DO UPDATE SET removed = contact_days.removed + excluded.removed;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contacts_days_insert AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_days_after_insert();--> statement-breakpoint
CREATE TRIGGER contacts_days_delete AFTER DELETE ON contacts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_days_after_delete();--> statement-breakpoint
INSERT INTO contact_days (tenant_id, day, source, added)
  SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, source, count(*) FROM contacts GROUP BY 1, 2, 3;
