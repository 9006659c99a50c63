-- Counters the grids show without count(*) over a million rows, kept by statement-level triggers
-- with transition tables: one grouped update per statement, cheap for bulk imports and deletes.
-- (A trigger with transition tables takes one event, hence one function per event.)

CREATE FUNCTION contact_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_counts (tenant_id, status, n)
    SELECT tenant_id, status, count(*) FROM new_rows GROUP BY tenant_id, status
  ON CONFLICT (tenant_id, status) DO UPDATE SET n = contact_counts.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE FUNCTION contact_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contact_counts c SET n = c.n - d.n
    FROM (SELECT tenant_id, status, count(*) AS n FROM old_rows GROUP BY tenant_id, status) d
    WHERE c.tenant_id = d.tenant_id AND c.status = d.status;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE FUNCTION contact_counts_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH changes AS (
    SELECT tenant_id, status, count(*) AS n FROM new_rows GROUP BY tenant_id, status
    UNION ALL
    SELECT tenant_id, status, -count(*) FROM old_rows GROUP BY tenant_id, status
  ), net AS (
    SELECT tenant_id, status, sum(n)::bigint AS n FROM changes GROUP BY tenant_id, status HAVING sum(n) <> 0
  )
  INSERT INTO contact_counts (tenant_id, status, n) SELECT tenant_id, status, n FROM net
  ON CONFLICT (tenant_id, status) DO UPDATE SET n = contact_counts.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER contacts_count_insert AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_counts_after_insert();--> statement-breakpoint
CREATE TRIGGER contacts_count_delete AFTER DELETE ON contacts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_counts_after_delete();--> statement-breakpoint
CREATE TRIGGER contacts_count_update AFTER UPDATE ON contacts
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contact_counts_after_update();--> statement-breakpoint

CREATE FUNCTION list_member_count_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lists l SET member_count = l.member_count + d.n
    FROM (SELECT list_id, count(*)::int AS n FROM new_rows GROUP BY list_id) d
    WHERE l.id = d.list_id;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE FUNCTION list_member_count_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lists l SET member_count = l.member_count - d.n
    FROM (SELECT list_id, count(*)::int AS n FROM old_rows GROUP BY list_id) d
    WHERE l.id = d.list_id;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER list_members_count_insert AFTER INSERT ON list_members
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_member_count_after_insert();--> statement-breakpoint
CREATE TRIGGER list_members_count_delete AFTER DELETE ON list_members
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_member_count_after_delete();
