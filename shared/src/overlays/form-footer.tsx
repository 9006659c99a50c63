import { Button } from '@console/shared/ui';

export interface FormFooterProps {
  /** The id of the form the submit button sends (the form sits in the dialog's body). */
  formId: string;
  /** While the form is being sent: Cancel is disabled and the submit button shows it is busy. */
  busy: boolean;
  submitLabel: string;
  onCancel: () => void;
}

/** The footer of a dialog or slide-over that holds a form: Cancel, then the form's submit button. */
export function FormFooter({ formId, busy, submitLabel, onCancel }: FormFooterProps) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" form={formId} busy={busy}>
        {submitLabel}
      </Button>
    </>
  );
}
