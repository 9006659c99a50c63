-- Every tenant has its community (created with the tenant from now on): give one to each tenant of an
-- existing database that has none, titled with the tenant's name, with an alias derived from the name
-- (lower-case letters and digits joined by single dashes; 'community' when nothing is left), made free
-- with -2, -3, ... and not enabled; plus its own sign-up list, as POST /v1/communities makes.
DO $$
DECLARE
  t record;
  base text;
  candidate text;
  n integer;
  list_name text;
  new_community uuid;
  new_list uuid;
BEGIN
  FOR t IN
    SELECT tenants.id, tenants.name FROM tenants
    WHERE NOT EXISTS (SELECT 1 FROM communities c WHERE c.tenant_id = tenants.id)
    ORDER BY tenants.created_at, tenants.id
  LOOP
    base := trim(both '-' from left(trim(both '-' from regexp_replace(lower(t.name), '[^a-z0-9]+', '-', 'g')), 92));
    IF base = '' THEN base := 'community'; END IF;
    candidate := base;
    n := 1;
    WHILE EXISTS (SELECT 1 FROM communities c WHERE lower(c.slug) = candidate) LOOP
      n := n + 1;
      candidate := base || '-' || n;
    END LOOP;
    list_name := 'Community sign-ups';
    n := 1;
    WHILE EXISTS (SELECT 1 FROM lists l WHERE l.tenant_id = t.id AND lower(l.name) = lower(list_name)) LOOP
      n := n + 1;
      list_name := 'Community sign-ups ' || n;
    END LOOP;
    new_community := gen_random_uuid();
    INSERT INTO communities (id, tenant_id, title, slug) VALUES (new_community, t.id, t.name, candidate);
    INSERT INTO lists (tenant_id, name, autoimport, community_id)
      VALUES (t.id, list_name, false, new_community) RETURNING id INTO new_list;
    UPDATE communities SET list_id = new_list WHERE id = new_community;
  END LOOP;
END $$;
