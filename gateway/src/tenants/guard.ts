/**
 * Who administers tenants (spec section 2: route `tenants`, permission admin_tenants): platform staff
 * only — a super admin or global admin holding admin_tenants. A tenant's user never does, whatever
 * permissions it holds (403), and neither does a platform admin without admin_tenants.
 */
import type { FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { authOf, requirePermission } from '../auth';
import { forbidden } from '../errors';

const byPermission = requirePermission('admin_tenants');

export function requireTenantAdmin(req: FastifyRequest, reply: unknown, done: HookHandlerDoneFunction): void {
  byPermission(req, reply, (error?: Error) => {
    if (error) return done(error);
    const { role } = authOf(req).user;
    if (role !== 'super_admin' && role !== 'global_admin') return done(forbidden());
    done();
  });
}
