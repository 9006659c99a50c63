import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TextField, notify } from '@console/shared/ui';
import { Dialog, FormFooter } from '@console/shared/overlays';
import { accessBody, checkAccess, customStart, refusalOf, type AccessGranter } from './access-choice';
import { AccessFields, type AccessValue } from './access-fields';
import { splitFormErrors, type SplitFormErrors } from '@console/shared/api';
import { createInvitation, invalidateInvitations } from './api';

type Field = 'email' | 'preset' | 'permissions';
const NO_ERRORS: SplitFormErrors<Field> = { fields: {}, message: null };
/** The longest address the contracts take (contracts/auth.ts Email). */
const EMAIL_MAX_LENGTH = 254;

/**
 * Invite member: an e-mail address and the access the person gets; POST /v1/invitations e-mails them a
 * link. New invitees start as Members (our choice: the least a working teammate needs), or Custom for a
 * granter who cannot give that. Mount with a key per opening.
 */
export function InviteMemberDialog({
  granter,
  open,
  onClose,
}: {
  granter: AccessGranter;
  open: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const formId = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [value, setValue] = useState<AccessValue>(() => {
    const preset = refusalOf(granter, 'member') ? 'custom' : 'member';
    return { preset, chosen: customStart(granter, 'member', []) };
  });
  const [errors, setErrors] = useState(NO_ERRORS);
  const [sending, setSending] = useState(false);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const own: SplitFormErrors<Field>['fields'] = {
      ...(email.trim() ? {} : { email: 'Enter an e-mail address.' }),
      ...checkAccess(granter, value.preset, value.chosen),
    };
    if (Object.keys(own).length > 0) {
      setErrors({ fields: own, message: null });
      if (own.email) emailRef.current?.focus();
      return;
    }
    setSending(true);
    setErrors(NO_ERRORS);
    try {
      const invitation = await createInvitation({ email: email.trim(), ...accessBody(value.preset, value.chosen) });
      await invalidateInvitations(client);
      notify.success(`Invitation sent to ${invitation.email}.`);
      onClose();
    } catch (failure) {
      const next = splitFormErrors(failure, ['email', 'preset', 'permissions'], 'The invitation could not be sent.');
      setErrors(next);
      if (next.fields.email) emailRef.current?.focus();
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Invite member"
      dismissible={!sending}
      size="lg"
      initialFocus={emailRef}
      testId="invite-member-dialog"
      footer={<FormFooter formId={formId} busy={sending} submitLabel="Send invitation" onCancel={onClose} />}
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={(event) => void send(event)}>
        <p className="text-slate-600">They get an e-mail with a link to join; the link works for a limited time.</p>
        <TextField
          ref={emailRef}
          label="E-mail"
          type="email"
          autoComplete="off"
          maxLength={EMAIL_MAX_LENGTH}
          value={email}
          error={errors.fields.email}
          readOnly={sending}
          onChange={(event) => {
            setEmail(event.target.value);
            if (errors.fields.email) setErrors((e) => ({ ...e, fields: { ...e.fields, email: undefined } }));
          }}
        />
        <AccessFields
          granter={granter}
          value={value}
          onChange={(next) => {
            setValue(next);
            setErrors((e) => ({ fields: { email: e.fields.email }, message: null }));
          }}
          errors={errors.fields}
          disabled={sending}
        />
        {errors.message && (
          <p role="alert" className="text-sm text-red-700">
            {errors.message}
          </p>
        )}
      </form>
    </Dialog>
  );
}
