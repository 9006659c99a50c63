import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { labelsOf, memberRoleName } from '@console/shared/access';
import type { TeamMember } from '@console/shared/contracts';
import { notify } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { accessBody, checkAccess, customChoices, customStart, type AccessGranter } from './access-choice';
import { AccessFields, type AccessValue } from './access-fields';
import { splitFormErrors, type SplitFormErrors } from '@console/shared/api';
import { invalidateMembers, updateMemberAccess } from './api';
import { memberName } from './member-name';

type Field = 'preset' | 'permissions';
const NO_ERRORS: SplitFormErrors<Field> = { fields: {}, message: null };

/** Edit access: a preset, or custom permissions; PATCH /v1/users/{id}. Mount with a key per opening. */
export function EditAccessDialog({
  member,
  granter,
  open,
  onClose,
}: {
  member: TeamMember;
  granter: AccessGranter;
  open: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const formId = useId();
  const [value, setValue] = useState<AccessValue>(() => ({
    preset: member.preset,
    chosen: customStart(granter, member.preset, member.permissions),
  }));
  const [errors, setErrors] = useState(NO_ERRORS);
  const [saving, setSaving] = useState(false);
  // A custom member may hold permissions this granter cannot give: saving custom drops them, so say so.
  const offered = customChoices(granter);
  const dropped =
    member.preset === 'custom' && value.preset === 'custom'
      ? member.permissions.filter((p) => !offered.includes(p))
      : [];

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const own = checkAccess(granter, value.preset, value.chosen);
    if (Object.keys(own).length > 0) {
      setErrors({ fields: own, message: null });
      return;
    }
    setSaving(true);
    setErrors(NO_ERRORS);
    try {
      const updated = await updateMemberAccess(member._id, accessBody(value.preset, value.chosen));
      await invalidateMembers(client);
      notify.success(`${updated.email} is now ${memberRoleName(updated)}.`);
      onClose();
    } catch (failure) {
      setErrors(
        splitFormErrors(failure, ['preset', 'permissions'], 'The access could not be changed. Please try again.'),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Edit access of ${memberName(member)}`}
      dismissible={!saving}
      size="lg"
      testId="edit-access-dialog"
      footer={<FormFooter formId={formId} busy={saving} submitLabel="Save access" onCancel={onClose} />}
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={(event) => void save(event)}>
        <p className="text-slate-600">{member.email}</p>
        <AccessFields
          granter={granter}
          value={value}
          onChange={(next) => {
            setValue(next);
            setErrors(NO_ERRORS);
          }}
          errors={errors.fields}
          disabled={saving}
        />
        {dropped.length > 0 && (
          <p className="text-xs text-amber-800">Saving removes what you cannot give: {labelsOf(dropped)}.</p>
        )}
        {errors.message && (
          <p role="alert" className="text-sm text-red-700">
            {errors.message}
          </p>
        )}
      </form>
    </Dialog>
  );
}
