import { useEffect, useId, useRef, useState } from 'react';
import { notify, type PickedImage } from '@console/shared/ui';
import type { Community } from '@console/shared/contracts';
import {
  NO_ERRORS,
  communityErrorsOf,
  communityToForm,
  firstErrorField,
  type CommunityErrorField,
  type CommunityFormErrors,
  type CommunityFormValues,
} from './community-values';
import { storedImage, type ImageState } from './image-state';
import { ImageUploadError, saveCommunity, type ImageSlot } from './save-community';

export const SAVED_MESSAGE = 'Changes have been saved.';

type Images = Record<ImageSlot, ImageState>;

const imagesOf = (community: Community | null): Images => ({
  logo: storedImage(community?.logo),
  background: storedImage(community?.background),
});

function errorsOf(error: unknown): CommunityFormErrors {
  if (error instanceof ImageUploadError) return { fields: { [error.field]: error.message }, message: null };
  return communityErrorsOf(error);
}

/**
 * The community page's form state and save: values, images (stored / picked / cleared), server
 * errors per field with focus on the first one, and the busy flag for 'Saving...'.
 */
export function useCommunityForm({
  community,
  tenantName,
  reload,
}: {
  community: Community | null;
  tenantName: string | null;
  /** Refetch the community; answers the fresh one. */
  reload: () => Promise<Community | null>;
}) {
  const idPrefix = useId();
  const [values, setValues] = useState<CommunityFormValues>(() => communityToForm(community, tenantName));
  const [images, setImages] = useState<Images>(() => imagesOf(community));
  const [errors, setErrors] = useState<CommunityFormErrors>(NO_ERRORS);
  const [saving, setSaving] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ field: CommunityErrorField } | null>(null);
  const savedId = useRef<string | null>(community?._id ?? null);

  const fieldId = (field: CommunityErrorField) => `${idPrefix}-${field}`;

  useEffect(() => {
    if (community) savedId.current = community._id;
  }, [community]);

  useEffect(() => {
    if (focusRequest) document.getElementById(`${idPrefix}-${focusRequest.field}`)?.focus();
  }, [focusRequest, idPrefix]);

  const setField = <K extends keyof CommunityFormValues>(field: K, value: CommunityFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const pickImage = (field: ImageSlot, image: PickedImage) =>
    setImages((current) => ({ ...current, [field]: { kind: 'picked', image } }));
  const clearImage = (field: ImageSlot) => setImages((current) => ({ ...current, [field]: { kind: 'cleared' } }));

  const save = async () => {
    if (saving) return;
    setSaving(true);
    setErrors(NO_ERRORS);
    let textSaved = false;
    try {
      await saveCommunity({
        id: savedId.current,
        values,
        images,
        onTextSaved: (saved) => {
          savedId.current = saved._id;
          textSaved = true;
        },
      });
      const fresh = await reload();
      setValues(communityToForm(fresh, tenantName));
      setImages(imagesOf(fresh));
      notify.success(SAVED_MESSAGE);
    } catch (error) {
      const next = errorsOf(error);
      setErrors(next);
      const field = firstErrorField(next);
      if (field) setFocusRequest({ field });
      if (textSaved) await reload().catch(() => null);
    } finally {
      setSaving(false);
    }
  };

  return { values, setField, images, pickImage, clearImage, errors, saving, save, fieldId };
}
