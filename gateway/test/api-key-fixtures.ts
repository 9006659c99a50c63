// API keys for gateway suites: a key of a tenant, made as the API Access page makes one (the route),
// or straight in the database for a tenant whose plan has no API access (its use is still refused).
import { eq } from 'drizzle-orm';
import type { ApiKeyScope, CreatedApiKey } from '../src/contracts';
import { apiKeyEvents, apiKeys, users } from '../src/db/schema';
import { newSecret } from '../src/api-keys/secrets';
import type { TestGateway, Who } from './helpers';

export interface TestKey {
  id: string;
  secret: string;
  /** `Authorization` header value. */
  authorization: string;
}

/** A key made with `POST /v1/api-keys` as `who` (an owner of a plan with API access: labOwner). */
export async function createApiKey(
  gw: TestGateway,
  who: Who,
  scope: ApiKeyScope = 'full',
  options: { name?: string; expiresAt?: string | null; token?: string } = {},
): Promise<TestKey> {
  const token = options.token ?? (await gw.login(who));
  const r = await gw.post<CreatedApiKey>(
    '/v1/api-keys',
    { name: options.name ?? `${scope} key`, scope, expires_at: options.expiresAt ?? null },
    token,
  );
  if (r.status !== 201) throw new Error(`create key: ${r.status} ${r.text}`);
  return { id: r.body._id, secret: r.body.secret, authorization: `Bearer ${r.body.secret}` };
}

/** A key written straight to the database for the user with `email` (any plan, any expiry). */
export async function insertApiKey(
  gw: TestGateway,
  email: string,
  scope: ApiKeyScope = 'full',
  expiresAt: Date | null = null,
): Promise<TestKey> {
  const { db } = gw.handle;
  const [user] = await db.select().from(users).where(eq(users.email, email));
  if (!user?.tenantId) throw new Error(`no tenant user ${email}`);
  const { secret, hash, prefix } = newSecret();
  const [row] = await db
    .insert(apiKeys)
    .values({
      tenantId: user.tenantId,
      name: `${scope} key`,
      scope,
      prefix,
      secretHash: hash,
      createdBy: user.id,
      createdByEmail: user.email,
      expiresAt,
    })
    .returning({ id: apiKeys.id });
  if (!row) throw new Error('no key inserted');
  await db
    .insert(apiKeyEvents)
    .values({ tenantId: user.tenantId, keyId: row.id, kind: 'created', actorId: user.id, actorEmail: user.email });
  return { id: row.id, secret, authorization: `Bearer ${secret}` };
}
