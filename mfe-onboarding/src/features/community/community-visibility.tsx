import type { CommunityFormValues } from './community-values';
import { CheckboxField } from './checkbox-field';
import { PrioritySelect } from './priority-select';

type SetField = <K extends keyof CommunityFormValues>(field: K, value: CommunityFormValues[K]) => void;

/** Enable community, List on public page, Show on carousel, and the two priorities. */
export function CommunityVisibility({ values, setField }: { values: CommunityFormValues; setField: SetField }) {
  return (
    <>
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">Visibility</legend>
        <CheckboxField label="Enable community" checked={values.show} onChange={(on) => setField('show', on)} />
        <CheckboxField label="List on public page" checked={values.public} onChange={(on) => setField('public', on)} />
        <CheckboxField
          label="Show on carousel"
          checked={values.show_on_carousel}
          onChange={(on) => setField('show_on_carousel', on)}
        />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <PrioritySelect
          label="Community list and onboarding priority"
          value={values.priority}
          onChange={(value) => setField('priority', value)}
        />
        <PrioritySelect
          label="Carousel priority"
          value={values.carousel_priority}
          onChange={(value) => setField('carousel_priority', value)}
        />
      </div>
    </>
  );
}
