import { useCallback, useState } from 'react';

/**
 * One dialog at a time on a screen: which one (`kind` and what it is about), whether it is open, and
 * `seq`, a number that grows with each opening, to be the dialog's React `key` so each opening mounts
 * it with fresh state. Closing keeps the dialog mounted with `open: false`, so it can play its closing
 * transition and hand focus back.
 */
export type DialogSlot<Request extends { kind: string }> =
  { kind: 'none'; seq: number } | (Request & { open: boolean; seq: number });

export function useDialogSlot<Request extends { kind: string }>() {
  const [dialog, setDialog] = useState<DialogSlot<Request>>({ kind: 'none', seq: 0 });
  const open = useCallback(
    (request: Request) => setDialog((d) => ({ ...request, open: true, seq: d.seq + 1 }) as DialogSlot<Request>),
    [],
  );
  const close = useCallback(
    () => setDialog((d) => (d.kind === 'none' ? d : ({ ...d, open: false } as DialogSlot<Request>))),
    [],
  );
  return { dialog, open, close };
}
