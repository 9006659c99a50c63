/**
 * Delete confirm rule: Delete enables only once the admin has typed the tenant's name exactly (spaces
 * around it ignored; case counts, so a near miss does not delete the wrong tenant).
 */
export function deleteConfirmed(typed: string, tenantName: string): boolean {
  return typed.trim() === tenantName.trim() && tenantName.trim() !== '';
}
