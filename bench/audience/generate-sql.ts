// The generator's SQL. Every value derives from a row number i through hashint4extended(i, seed), so a
// run is reproducible except for ids, wallets and times. The SQL text is constant (built from the
// attribute list below, never from input); data goes in as parameters.
import { ATTRIBUTES } from './vocabulary.ts';

/** Distinct sets of custom attribute values; each contact takes one by hash (building 20-key jsonb per row costs ~30 µs). */
export const ATTRIBUTE_SETS = 16_384;

const h = (seed: number) => `(hashint4extended(s.i, ${seed}) & 1073741823)::int`;
const isoDate = (expr: string) => `to_char(${expr}, 'YYYY-MM-DD')`;

/**
 * SQL for one attribute's value (jsonb), by key; `v` is a non-negative int expression (a hash).
 * Parameters of attributeSetsSql: $2 wallet pool, $3 countries, $4 cities, $5 chains, $6 languages, $7 tiers.
 */
function attributeValue(key: string, v: string): string {
  const pickFrom = (param: string) => `to_jsonb((${param}::text[])[1 + ${v} % cardinality(${param}::text[])])`;
  switch (key) {
    case 'country':
      return pickFrom('$3');
    case 'city':
      return pickFrom('$4');
    case 'favourite_chain':
      return pickFrom('$5');
    case 'language':
      return pickFrom('$6');
    case 'tier':
      return pickFrom('$7');
    case 'referral_code':
      return `to_jsonb(upper(substr(md5(s.i::text), 1, 8)))`;
    case 'nft_count': // skewed towards few NFTs: 0..499
      return `to_jsonb((${v} % 1000) * (${v} % 1000) / 2000)`;
    case 'token_balance':
      return `to_jsonb(round((${v} % 10000000) / 100.0, 2))`;
    case 'lifetime_value':
      return `to_jsonb(round((${v} % 500000) / 100.0, 2))`;
    case 'age':
      return `to_jsonb(18 + ${v} % 60)`;
    case 'engagement_score':
      return `to_jsonb(${v} % 101)`;
    case 'first_mint':
      return `to_jsonb(${isoDate(`date '2021-01-01' + ${v} % 1800`)})`;
    case 'last_login':
      return `to_jsonb(${isoDate(`current_date - ${v} % 365`)})`;
    case 'birthday':
      return `to_jsonb(${isoDate(`date '1960-01-01' + ${v} % 16000`)})`;
    case 'last_purchase':
      return `to_jsonb(${isoDate(`current_date - ${v} % 1000`)})`;
    case 'is_holder':
      return `to_jsonb(${v} % 100 < 60)`;
    case 'kyc_passed':
      return `to_jsonb(${v} % 100 < 35)`;
    case 'newsletter_opt_in':
      return `to_jsonb(${v} % 100 < 70)`;
    case 'referrer_wallet':
    case 'vault_wallet':
      return pickFrom('$2');
    default:
      throw new Error(`no generator for attribute ${key}`);
  }
}

/**
 * A temporary table `bench_attribute_sets (k, attributes)` of ATTRIBUTE_SETS value sets, dropped at commit.
 * $1 attribute ids (ATTRIBUTES order), $2 wallet pool, $3 countries, $4 cities, $5 chains, $6 languages, $7 tiers.
 * One hash per attribute: its last two digits decide whether there is a value (the attribute's fill
 * percentage), the rest pick the value. (`offset 0` keeps the planner from inlining the hash array
 * into each of its 40 uses.)
 */
export function attributeSetsSql(): string {
  const pairs = ATTRIBUTES.map((a, j) => {
    const n = j + 1;
    const value = attributeValue(a.key, `(s.ah[${n}] / 100)`);
    return `($1::text[])[${n}], case when s.ah[${n}] % 100 < ${a.fill} then ${value} end`;
  }).join(',\n    ');
  const hashes = ATTRIBUTES.map((_, j) => h(200 + j + 1)).join(', ');
  return `
create temporary table bench_attribute_sets on commit drop as
select s.i as k, jsonb_strip_nulls(jsonb_build_object(
    ${pairs}
  )) as attributes
from (select s.i, array[${hashes}] as ah from generate_series(0, ${ATTRIBUTE_SETS - 1}) as s(i) offset 0) s`;
}

/**
 * One chunk of contacts and their list memberships, in one statement. Returns {contacts, memberships}.
 * $1 tenant, $2 wallets text[] (one per row, null = none; its length is the chunk size), $3 the row
 * number before the chunk's first, $4 list ids, $5 first names, $6 last names, $7 e-mail domains.
 *
 * E-mail: none when i % 10 = 0 (those rows always get a wallet, see chunkWallets). Status: 80%
 * subscribed, 12% unsubscribed, 5% bounced, 3% complained. Source: 50% import, 25% widget, 15% api,
 * 10% manual. Created within the last 3 years, updated up to a year later. Lists: 1 to 3 distinct
 * lists (2 on average).
 */
export function chunkSql(): string {
  const firstName = `($5::text[])[1 + s.h1 % cardinality($5::text[])]`;
  const lastName = `($6::text[])[1 + s.h2 % cardinality($6::text[])]`;
  const domain = `($7::text[])[1 + s.h3 % cardinality($7::text[])]`;
  const lists = 'cardinality($4::uuid[])';
  return `
with src as materialized (
  select s.i, s.wallet, gen_random_uuid() as id,
    ${h(1)} as h1, ${h(2)} as h2, ${h(3)} as h3, ${h(4)} as h4, ${h(5)} as h5, ${h(6)} as h6,
    ${h(9)} as h9, ${h(10)} as h10, ${h(11)} as h11, ${h(12)} % ${ATTRIBUTE_SETS} as set,
    now() - make_interval(secs => (${h(7)} % 94608000)::float8) as created,
    ${h(8)} % 31536000 as touched
  from (select ($3::int + w.k::int) as i, w.wallet from unnest($2::text[]) with ordinality as w(wallet, k)) s
), ins as (
  insert into contacts (id, tenant_id, email, wallet, first_name, last_name, status, source, attributes, created_at, updated_at)
  select s.id, $1::uuid,
    case when s.i % 10 = 0 then null else lower(${firstName} || '.' || ${lastName}) || '.' || s.i || '@' || ${domain} end,
    s.wallet,
    case when s.h4 % 25 = 0 then '' else ${firstName} end,
    case when s.h4 % 20 = 1 then '' else ${lastName} end,
    case when s.h5 % 100 < 80 then 'subscribed' when s.h5 % 100 < 92 then 'unsubscribed'
         when s.h5 % 100 < 97 then 'bounced' else 'complained' end,
    case when s.h6 % 100 < 50 then 'import' when s.h6 % 100 < 75 then 'widget'
         when s.h6 % 100 < 90 then 'api' else 'manual' end,
    a.attributes,
    s.created,
    least(now(), s.created + make_interval(secs => s.touched::float8))
  from src s join bench_attribute_sets a on a.k = s.set
  returning 1
), steps as (
  -- k-th list = (base + k * step) mod L: distinct for k = 0, 1, 2 unless 2 * step = L.
  select s.id, s.created, s.h9 % ${lists} as base, s.h10 % 3 as extra,
    case when 2 * (1 + s.h11 % (${lists} - 1)) = ${lists} then 2 + s.h11 % (${lists} - 1)
         else 1 + s.h11 % (${lists} - 1) end as step
  from src s
), members as (
  insert into list_members (list_id, contact_id, added_at)
  select ($4::uuid[])[1 + (s.base + k * s.step) % ${lists}], s.id, s.created
  from steps s cross join lateral generate_series(0, s.extra) as k
  returning 1
)
select (select count(*) from ins)::int as contacts, (select count(*) from members)::int as memberships`;
}

/** Statements to drop, and then re-create, the secondary indexes and foreign keys of contacts and list_members. */
export const BULK_LOAD_DDL = `
select format('drop index %s', i.indexrelid::regclass) as "drop", pg_get_indexdef(i.indexrelid) as "create", 1 as ord
from pg_index i
where i.indrelid in ('contacts'::regclass, 'list_members'::regclass)
  and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
union all
select format('alter table %s drop constraint %I', k.conrelid::regclass, k.conname),
       format('alter table %s add constraint %I %s', k.conrelid::regclass, k.conname, pg_get_constraintdef(k.oid)), 2
from pg_constraint k
where k.contype = 'f' and k.conrelid in ('contacts'::regclass, 'list_members'::regclass)
order by 3, 1`;
