/**
 * Whose an upload is (spec section 7, image uploads). A tenant user's uploads belong to their tenant:
 * the community's logo, its templates' images and every member's avatar, usable by that tenant only.
 * A user without a tenant (a global admin, whose only image is their own avatar, spec section 2 Your
 * Profile) owns their uploads themselves, usable by that user only.
 */
export type UploadOwner = { readonly tenantId: string } | { readonly userId: string };

/** The owner of what the caller uploads: their tenant, or themselves when they have none. */
export function uploadOwnerOf(caller: { readonly tenantId: string | null; readonly userId: string }): UploadOwner {
  return caller.tenantId !== null ? { tenantId: caller.tenantId } : { userId: caller.userId };
}

/** The owner as the `uploads` row's columns: exactly one of them is set. */
export function ownerColumns(owner: UploadOwner): { tenantId: string | null; userId: string | null } {
  return 'tenantId' in owner ? { tenantId: owner.tenantId, userId: null } : { tenantId: null, userId: owner.userId };
}

/** Whether an upload row (its owner columns) belongs to `owner`. */
export function isOwnedBy(row: { tenantId: string | null; userId: string | null }, owner: UploadOwner): boolean {
  const want = ownerColumns(owner);
  return row.tenantId === want.tenantId && row.userId === want.userId;
}
