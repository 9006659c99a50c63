import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@console/shared/api';
import type { TemplateSummary } from '@console/shared/contracts';
import { useConsole } from '@console/shared/session';
import { Button, notify } from '@console/shared/ui';
import { setTemplateInGallery, startersQuery } from './api';

/**
 * Whether the templates screen manages the starter gallery: a super admin on their own (the platform
 * tenant's) templates, not while impersonating (spec section 2: the super-admin sidebar's Templates).
 */
export function useManagesGallery(): boolean {
  return useConsole((s) => s.user?.role === 'super_admin' && !s.user.is_impersonating);
}

/** In the starter gallery or not, with the button that changes it (the gallery lists come from the starters). */
export function GalleryToggle({ template }: { template: TemplateSummary }) {
  const client = useQueryClient();
  const starters = useQuery(startersQuery());
  const [busy, setBusy] = useState(false);
  const inGallery = starters.data?.gallery.some((g) => g._id === template._id) ?? false;

  const toggle = async () => {
    setBusy(true);
    try {
      await setTemplateInGallery(template._id, !inGallery);
      await client.invalidateQueries({ queryKey: startersQuery().queryKey });
      notify.success(
        inGallery
          ? `"${template.name}" was taken out of the starter gallery.`
          : `"${template.name}" is now in every community's starter gallery.`,
      );
    } catch (error) {
      notify.error(messageOf(error, 'The starter gallery could not be changed.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className="inline-flex items-center gap-2">
      <span className="text-xs text-slate-700">{inGallery ? 'In the gallery' : 'Not in the gallery'}</span>
      <Button
        variant="link"
        busy={busy}
        disabled={!starters.data}
        aria-label={`${inGallery ? 'Remove' : 'Add'} ${template.name} ${inGallery ? 'from' : 'to'} the starter gallery`}
        onClick={() => void toggle()}
      >
        {inGallery ? 'Remove' : 'Add'}
      </Button>
    </span>
  );
}
