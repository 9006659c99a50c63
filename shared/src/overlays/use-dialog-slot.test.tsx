import { act, renderHook } from '@testing-library/react';
import { useDialogSlot } from './use-dialog-slot';

type Request = { kind: 'add' } | { kind: 'delete'; id: string };

test('each opening has a new seq, closing keeps the dialog with open false', () => {
  const { result } = renderHook(() => useDialogSlot<Request>());
  expect(result.current.dialog).toEqual({ kind: 'none', seq: 0 });
  act(() => result.current.open({ kind: 'delete', id: 'a' }));
  expect(result.current.dialog).toEqual({ kind: 'delete', id: 'a', open: true, seq: 1 });
  act(() => result.current.close());
  expect(result.current.dialog).toEqual({ kind: 'delete', id: 'a', open: false, seq: 1 });
  act(() => result.current.open({ kind: 'add' }));
  expect(result.current.dialog).toEqual({ kind: 'add', open: true, seq: 2 });
});

test('closing when nothing is open changes nothing', () => {
  const { result } = renderHook(() => useDialogSlot<Request>());
  const before = result.current.dialog;
  act(() => result.current.close());
  expect(result.current.dialog).toBe(before);
});
