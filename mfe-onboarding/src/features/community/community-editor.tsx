import type { FormEvent } from 'react';
import { Button, ImageField, TextArea, TextField } from '@console/shared/ui';
import { COMMUNITY_LIMITS, IMAGE_TYPES, MAX_IMAGE_BYTES, type Community } from '@console/shared/contracts';
import { CommunityName } from './community-name';
import { CommunityUrl } from './community-url';
import { CommunityVisibility } from './community-visibility';
import { previewOf } from './image-state';
import { useCommunityForm } from './use-community-form';
import { WhatYouGetList } from './what-you-get-list';

const SECTION = 'space-y-5 rounded-lg border border-slate-200 bg-white p-6';

/** The community page form (spec section 2); a missing community shows an empty form saved by POST. */
export function CommunityEditor({
  community,
  tenantName,
  reload,
}: {
  community: Community | null;
  tenantName: string | null;
  reload: () => Promise<Community | null>;
}) {
  const form = useCommunityForm({ community, tenantName, reload });
  const { values, setField, errors, fieldId } = form;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.save();
  };

  return (
    <form noValidate onSubmit={submit} className="max-w-3xl space-y-6" aria-label="Community page">
      {errors.message && (
        <p role="alert" className="rounded-control bg-red-50 px-3 py-2 text-sm text-red-800">
          {errors.message}
        </p>
      )}
      <div className={SECTION}>
        <CommunityName id={fieldId('title')} value={values.title} error={errors.fields.title} />
        <TextArea
          id={fieldId('short_description')}
          label="Short description"
          rows={3}
          showCounter
          maxLength={COMMUNITY_LIMITS.shortDescription}
          value={values.short_description}
          error={errors.fields.short_description}
          onChange={(event) => setField('short_description', event.target.value)}
        />
        <WhatYouGetList
          items={values.what_you_get}
          firstId={fieldId('what_you_get')}
          error={errors.fields.what_you_get}
          onChange={(items) => setField('what_you_get', items)}
        />
        <TextArea
          id={fieldId('description')}
          label="Description"
          readOnly
          rows={5}
          maxLength={COMMUNITY_LIMITS.description}
          value={values.description}
          error={errors.fields.description}
          className="bg-slate-50"
        />
        <TextField
          id={fieldId('slug')}
          label="Alias"
          showCounter
          maxLength={COMMUNITY_LIMITS.slug}
          spellCheck={false}
          autoComplete="off"
          hint="Lower-case letters, digits and dashes: it makes your community page's address."
          value={values.slug}
          error={errors.fields.slug}
          onChange={(event) => setField('slug', event.target.value)}
        />
      </div>
      <div className={`${SECTION} grid gap-6 space-y-0 sm:grid-cols-2`}>
        <ImageField
          id={fieldId('logo')}
          label="Logo"
          src={previewOf(form.images.logo)}
          accept={IMAGE_TYPES}
          maxBytes={MAX_IMAGE_BYTES}
          error={errors.fields.logo}
          onSelect={(image) => form.pickImage('logo', image)}
          onClear={() => form.clearImage('logo')}
        />
        <ImageField
          id={fieldId('background')}
          label="Background"
          src={previewOf(form.images.background)}
          accept={IMAGE_TYPES}
          maxBytes={MAX_IMAGE_BYTES}
          error={errors.fields.background}
          onSelect={(image) => form.pickImage('background', image)}
          onClear={() => form.clearImage('background')}
        />
      </div>
      <div className={SECTION}>
        {community?.url ? <CommunityUrl url={community.url} /> : null}
        <CommunityVisibility values={values} setField={setField} />
      </div>
      <div className="flex justify-end">
        <Button type="submit" busy={form.saving}>
          {form.saving ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
